#!/usr/bin/env node
// Starts the `ahp` CLI (Agent Hooks Protocol) from the build in dist/ (`npm ci` or `npm run build` makes it).
'use strict';
require('./launch.js').launch('ahp');
