// The bins' start: CommonJS (bin/package.json), like the CLI bundles dist/cli/<name>.cjs, which
// load through the build's V8 code cache (src/core/code-cache.ts): on Node 20 the ES module
// loader neither caches compiled code nor starts as quickly.
'use strict';
const { join } = require('node:path');

/** Run the CLI `name` ('aep' or 'ahp') on this process's arguments; its exit code becomes the process's. */
exports.launch = function launch(name) {
  // Node 22.1+ keeps compiled code between runs itself (on Node 20 the build's code caches stand in)
  require('node:module').enableCompileCache?.();
  const dist = join(__dirname, '..', 'dist', 'cli');
  let cli;
  try {
    cli = require(join(dist, 'code-cache.cjs')).requireCached(join(dist, `${name}.cjs`));
  } catch (e) {
    // no build yet, or dependencies not installed: one line, not a stack trace
    if (e?.code !== 'MODULE_NOT_FOUND' && e?.code !== 'ENOENT') throw e;
    process.stderr.write(
      `${name}: cannot load the build (${e.message.split('\n')[0]}): run npm ci (or npm run build) first\n`,
    );
    process.exit(2);
  }
  // a whole-process setting, so here and not in run(), which tests and embedders call in their own process
  cli.shapeHeap();
  cli.run(process.argv).then((code) => {
    process.exitCode = code;
  });
};
