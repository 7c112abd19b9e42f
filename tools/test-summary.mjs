/**
 * The test reporter of `npm test` (`node --test --test-reporter=./tools/test-summary.mjs`): the
 * node test runner's own output, unchanged (TAP when stdout is not a terminal, as CI reads it,
 * ending with `# tests N`, `# pass N`, `# fail N`, ...; `spec` on a terminal, as node chooses
 * by default), then a short summary for a person: the counts, each failed test by file and
 * name, and the time. Plain JavaScript: a reporter loads before tsx does.
 */
import { writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { spec, tap } from 'node:test/reporters';

/** The counts node prints at the end (`tests 12`, `pass 11`, ...), by name. */
const COUNTS = new Set(['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo', 'duration_ms']);

export default async function* summary(source) {
  const counts = {};
  const failed = [];
  // why tests were skipped, each reason once with how many it skipped (../shared absent, mostly)
  const skips = new Map();
  const seconds = new Map();
  // the names of the tests open at each depth, per file (two files run at once)
  const open = new Map();
  const observed = (async function* () {
    for await (const event of source) {
      const d = event.data ?? {};
      const names = open.get(d.file) ?? [];
      open.set(d.file, names);
      if (event.type === 'test:start') names[d.nesting] = d.name;
      if (event.type === 'test:fail') {
        const err = d.details?.error;
        // a suite, or a test that failed only because a subtest did, is named by that subtest
        if (d.details?.type !== 'suite' && err?.failureType !== 'subtestsFailed') {
          const path = [...names.slice(0, d.nesting), d.name].filter((n) => n !== undefined && n !== d.file);
          const why = String(err?.cause?.message ?? err?.message ?? '').split('\n')[0];
          // a file run in a group (tools/test-run.mjs) is the suite named by its path
          const file = /\.test\.ts$/.test(path[0] ?? '') && path.length > 1 ? path.shift() : d.file;
          failed.push({ file, name: path.join(' › '), why });
        }
      }
      // seconds per test file for test/weights.json (tools/test-run.mjs --write-weights): the suite named by its path
      if ((event.type === 'test:pass' || event.type === 'test:fail') && d.nesting === 0 && /\.test\.ts$/.test(d.name))
        seconds.set(d.name, (seconds.get(d.name) ?? 0) + (d.details?.duration_ms ?? 0) / 1000);
      if (event.type === 'test:pass' && d.skip !== undefined) {
        const why = typeof d.skip === 'string' && d.skip !== '' ? d.skip : 'skipped';
        skips.set(why, (skips.get(why) ?? 0) + 1);
      }
      if (event.type === 'test:diagnostic' && d.nesting === 0) {
        const m = /^(\w+) ([\d.]+)$/.exec(d.message ?? '');
        if (m && COUNTS.has(m[1])) counts[m[1]] = Number(m[2]);
      }
      yield event;
    }
  })();
  if (process.stdout.isTTY) yield* Readable.from(observed).pipe(new spec());
  else yield* tap(observed);
  const n = (k) => counts[k] ?? 0;
  const secs = (n('duration_ms') / 1000).toFixed(1);
  let text = `\nnpm test: ${n('tests')} tests, ${n('pass')} passed, ${n('fail')} failed`;
  if (n('skipped')) text += `, ${n('skipped')} skipped`;
  if (n('todo')) text += `, ${n('todo')} todo`;
  if (n('cancelled')) text += `, ${n('cancelled')} cancelled`;
  text += `, in ${secs} s\n`;
  const cwd = process.cwd() + '/';
  for (const f of failed)
    text += `  ✖ ${(f.file ?? '').replace(cwd, '')}: ${f.name}${f.why ? `\n      ${f.why}` : ''}\n`;
  for (const [why, k] of skips) text += `  ○ ${k} skipped: ${why}\n`;
  const out = process.env.AGENT_CONFORMANCE_TEST_WEIGHTS;
  if (out) {
    const rows = [...seconds].filter(([f]) => f.startsWith('test/')).sort(([a], [b]) => (a < b ? -1 : 1));
    writeFileSync(
      out,
      `${JSON.stringify(Object.fromEntries(rows.map(([f, s]) => [f, Math.round(s * 10) / 10])), null, 1)}\n`,
    );
    text += `  weights of ${rows.length} files written to ${out}\n`;
  }
  yield text;
}
