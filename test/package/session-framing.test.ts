/**
 * A session's text is the bytes of a file (README §Library API): the same bytes through `checkEvent`,
 * `createSession().check`, `validate`, `validateStream` and the CLI give the same findings at the same places,
 * whatever LFs, CRs or length the text has, for every binding (JSONL lines, or one HTTP or registration document).
 * Over several texts only the verdict and rule ids are held equal: `check` answers at once, so it folds pretty-printed
 * lines per text, where a file folds over the run (README §Library API, `createSession`).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../cli/helpers.ts';
import { tempDir } from '../temp.ts';
import { checkEvent, createSession, validate, validateStream, type Finding } from '../../src/index.ts';

const key = (f: Finding) =>
  [f.ruleId, f.severity, f.line, f.column, f.byteOffset, f.pointer, f.messageId, f.message].join('|');
const keys = (fs: readonly Finding[]) => fs.map(key).sort();

const first = (protocol: 'aep' | 'ahp') => readFileSync(`examples/${protocol}/session.jsonl`, 'utf8').split('\n')[0]!;

/** Texts a test author may hand a session: pretty-printed (once or twice), two events in one text, their own line ends, a cut value. */
function texts(line: string): Record<string, string> {
  const pretty = JSON.stringify(JSON.parse(line), null, 2);
  return {
    line,
    pretty,
    'pretty, final LF': `${pretty}\n`,
    'two lines': `${line}\n${line}`,
    'final LF': `${line}\n`,
    'final CRLF': `${line}\r\n`,
    'blank between': `${line}\n\n${line}`,
    'cut value': '{"a":\n1',
    // several values pretty-printed one after another (`jq . log.jsonl`): one finding naming them, on every route
    'pretty, twice': `${pretty}\n${pretty}\n`,
  };
}

/** Bindings by input name, as the CLI picks them: `.jsonl` stdio lines, `.json` one HTTP body, registration document. */
const SOURCES = { aep: ['c.jsonl'], ahp: ['c.jsonl', 'c.json', 'c.registration.json'] } as const;

test('a text with LFs, CRs or over the line cap: the session, checkEvent, validate, validateStream and the CLI agree', async (t) => {
  const dir = tempDir(t, 'ac-session-framing-');
  let compared = 0;
  let lfFindings = 0;
  let folded = 0;
  for (const protocol of ['aep', 'ahp'] as const)
    for (const source of SOURCES[protocol])
      for (const [name, text] of Object.entries(texts(first(protocol))))
        for (const cap of [undefined, 100]) {
          const o = cap === undefined ? {} : { maxLineBytes: cap };
          const what = `${protocol} ${source} ${name}${cap ? ` maxLineBytes ${cap}` : ''}`;
          // a document is the text's bytes; a line gets the LF a file has after it unless it brings one
          const document = source.endsWith('.json');
          const bytes = document || text.endsWith('\n') ? text : `${text}\n`;
          const file = join(dir, source);
          writeFileSync(file, bytes);
          const session = createSession(protocol, { source: file, ...o });
          const checked = session.check(text);
          assert.deepEqual(
            keys(checkEvent(protocol, text, { source: file, ...o })),
            keys(checked),
            `${what}: checkEvent`,
          );
          const want = keys([...checked, ...session.end()]);
          const run = await validate(protocol, [{ text: bytes, source: file }], o);
          assert.deepEqual(keys(run.findings), want, `${what}: validate`);
          const streamed: Finding[] = [];
          for await (const f of validateStream(protocol, [{ path: file }], o)) streamed.push(f);
          assert.deepEqual(keys(streamed), want, `${what}: validateStream of the file`);
          const cli = await runCli(protocol, [
            'validate',
            '--format',
            'json',
            ...(cap ? ['--max-line-bytes', String(cap)] : []),
            file,
          ]);
          assert.deepEqual(keys((JSON.parse(cli.stdout) as { findings: Finding[] }).findings), want, `${what}: CLI`);
          if (!document && text.slice(0, -1).includes('\n') && !cap)
            lfFindings += checked.filter((f) => f.ruleId.startsWith('jsonl/')).length;
          if (!document && name === 'pretty, twice') {
            const parse = checked.filter((f) => f.ruleId.startsWith('jsonl/'));
            assert.deepEqual(
              parse.map((f) => [f.ruleId, f.line]),
              [['jsonl/invalid-json', 1]],
              `${what}: one finding`,
            );
            assert.match(
              parse[0]!.message,
              /are 2 pretty-printed (AEP events|JSON messages): .*one (event|message) per line/,
            );
            folded++;
          }
          compared++;
        }
  assert.equal(compared, 72);
  assert.equal(folded, 4);
  // the relation cannot hold vacuously: an LF inside a JSONL text is a framing finding
  assert.ok(lfFindings >= 6, `only ${lfFindings} jsonl/* findings for texts with an inner LF`);
});

test('a pretty-printed AHP message on stdio is jsonl/invalid-json with the HTTP hint, as the file is; over the cap too', () => {
  const pretty = JSON.stringify(JSON.parse(first('ahp')), null, 2);
  const [f, ...rest] = checkEvent('ahp', pretty);
  assert.equal(rest.length, 0);
  assert.equal(f?.ruleId, 'jsonl/invalid-json');
  assert.match(f!.message, /--binding http/);
  assert.deepEqual(checkEvent('ahp', pretty, { binding: 'http' }), []);
  // the session goes on after it: the next line is line (number of lines + 1)
  const s = createSession('ahp');
  s.check(pretty);
  const big = createSession('aep', { maxLineBytes: 100 }).check(first('aep'));
  assert.deepEqual(
    big.map((g) => [g.ruleId, g.line, g.args]),
    [['jsonl/line-too-long', 1, { bytes: Buffer.byteLength(first('aep')), cap: 100 }]],
  );
  const later = s.check('{');
  assert.equal(later[0]?.line, pretty.split('\n').length + 1);
});

test('over several check() calls a session and a file agree on the verdict and rule ids; the pretty-print fold is per text in a session, over the run in a file', async () => {
  const [a, b] = readFileSync('examples/aep/session.jsonl', 'utf8').split('\n') as [string, string];
  const pretty = JSON.stringify(JSON.parse(a), null, 2);
  const n = pretty.split('\n').length;
  const ids = (fs: readonly Finding[]) => [...new Set(fs.map((f) => f.ruleId))].sort();
  const errors = (fs: readonly Finding[]) => fs.some((f) => f.severity === 'error');
  const inFile = async (bytes: string) => (await validate('aep', [{ text: bytes }])).findings;
  const invalid = (fs: readonly Finding[]) => fs.filter((f) => f.ruleId === 'jsonl/invalid-json').length;
  // a pretty-printed event, then a compact one, one check() each: the session folds the first text, the file holds
  // the lines until line n + 1 parses and then reports each
  const s = createSession('aep');
  const session = [...s.check(pretty), ...s.check(b), ...s.end()];
  const file = await inFile(`${pretty}\n${b}\n`);
  assert.deepEqual(ids(session), ids(file));
  assert.equal(errors(session), errors(file));
  assert.ok(errors(file));
  assert.deepEqual([invalid(session), invalid(file)], [1, n]);
  // the same pretty-printed event given line by line: each line alone in the session, folded at the file's end
  const t = createSession('aep');
  const byLine = [...pretty.split('\n').flatMap((line) => t.check(line)), ...t.end()];
  const whole = await inFile(`${pretty}\n`);
  assert.deepEqual(ids(byLine), ids(whole));
  assert.equal(errors(byLine), errors(whole));
  assert.deepEqual([invalid(byLine), invalid(whole)], [n, 1]);
  assert.deepEqual([whole[0]?.line, whole[0]?.column], [1, 2]);
});
