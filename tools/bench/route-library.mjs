// A measured child of `npm run bench -- --routes`: the library's routes over one file, through the
// built package (dist/index.js). `stream`: validateStream over a Node file stream; `session`:
// createSession fed line by line (read in 1 MiB chunks, split on LF and decoded a line at a time here, as a caller with
// its own reader would, and as the file route's reader does).
// Prints the summary as JSON on stdout.
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createSession, validateStream } from '../../dist/index.js';

const [mode, protocol, file] = process.argv.slice(2);
if (mode === 'stream') {
  const run = validateStream(protocol, { stream: createReadStream(file, { highWaterMark: 1 << 20 }) });
  process.stdout.write(`${JSON.stringify(await run.summary())}\n`);
} else if (mode === 'session') {
  const session = createSession(protocol, { source: file });
  const fd = openSync(file, 'r');
  let buf = Buffer.allocUnsafe(1 << 20);
  let have = 0;
  for (;;) {
    if (have === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, have);
      buf = bigger;
    }
    const n = readSync(fd, buf, have, buf.length - have, null);
    have += n;
    let at = 0;
    for (let nl = buf.indexOf(10, at); nl !== -1 && nl < have; nl = buf.indexOf(10, at)) {
      session.check(buf.toString('utf8', at, nl));
      at = nl + 1;
    }
    if (n === 0) {
      if (at < have) session.check(buf.toString('utf8', at, have));
      break;
    }
    buf.copy(buf, 0, at, have);
    have -= at;
  }
  closeSync(fd);
  session.end();
  process.stdout.write(`${JSON.stringify(session.summary())}\n`);
} else throw new Error(`usage: route-library.mjs stream|session aep|ahp FILE`);
