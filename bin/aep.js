#!/usr/bin/env node
// Starts the `aep` CLI (Agent Event Protocol) from the build in dist/ (`npm ci` or `npm run build` makes it).
'use strict';
require('./launch.js').launch('aep');
