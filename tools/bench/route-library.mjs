// A measured child of `npm run bench -- --routes`: the library's routes over one file, through the
// built package (dist/index.js). `stream`: validateStream over a Node file stream; `session`:
// createSession fed line by line (split on LF here, as a caller with its own reader would).
// Prints the summary as JSON on stdout.
import { createReadStream, readFileSync } from 'node:fs';
import { createSession, validateStream } from '../../dist/index.js';

const [mode, protocol, file] = process.argv.slice(2);
if (mode === 'stream') {
  const run = validateStream(protocol, { stream: createReadStream(file, { highWaterMark: 1 << 20 }) });
  process.stdout.write(`${JSON.stringify(await run.summary())}\n`);
} else if (mode === 'session') {
  const session = createSession(protocol, { source: file });
  const text = readFileSync(file, 'utf8');
  let at = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', at)) {
    session.check(text.slice(at, nl));
    at = nl + 1;
  }
  if (at < text.length) session.check(text.slice(at));
  session.end();
  process.stdout.write(`${JSON.stringify(session.summary())}\n`);
} else throw new Error(`usage: route-library.mjs stream|session aep|ahp FILE`);
