// Loaded into every child the bench measures (`node -r`): reports its peak RSS and CPU time on
// stderr at exit. CommonJS, so it starts no ES module loader the measured command would not.
'use strict';
process.on('exit', () => {
  const u = process.resourceUsage();
  require('node:fs').writeSync(2, `\n@@usage ${JSON.stringify({ maxRSS: u.maxRSS, user: u.userCPUTime, system: u.systemCPUTime })}\n`);
});
