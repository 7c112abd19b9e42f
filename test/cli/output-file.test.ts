/**
 * `-o FILE` is stdout moved to a file: for every report format of `validate` (both bins; the format given or told by
 * the file's name), every stream verb (redact, downlevel, filter, convert either way, OTLP protobuf in too), over
 * several inputs at once, the file holds the bytes the same command writes to stdout, with the same exit code and the
 * same stderr, and nothing on stdout. `-o` naming one of the inputs is refused (exit 2, one line on stderr) whatever the verb
 * and format, and no input's bytes change (README §Options of `validate`, -o).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { encodeRequest } from '../aep-bridges/otlp-protobuf-encode.ts';
import { fileTempDir } from '../temp.ts';
import { REPO, runCli } from './helpers.ts';

const dir = fileTempDir('ac-output-file-');
/** Copies of our cases (so that a write to any of them would show), with findings of many kinds. */
function copy(rel: string, name = rel.split('/').at(-1)!): string {
  const to = join(dir, name);
  copyFileSync(join(REPO, rel), to);
  return to;
}
const AEP_IN = [
  copy('examples/aep/session-broken.jsonl', 'aep-broken.jsonl'),
  copy('conformance/aep/fail/aep.seq-regression.jsonl'),
];
const CE_IN = copy('conformance/aep/fail/aep.ce-attribute-type.ce.jsonl');
const AHP_IN = [
  copy('examples/ahp/session-broken.jsonl', 'ahp-broken.jsonl'),
  copy('conformance/ahp/fail/ahp.event-secret.jsonl'),
];
const OTLP_JSON = readFileSync(join(REPO, 'conformance/aep/pass/aep.otlp-attribute.otlp.jsonl'), 'utf8').split(
  '\n',
)[0]!;
const PB_IN = join(dir, 'request.pb');
writeFileSync(PB_IN, encodeRequest(JSON.parse(OTLP_JSON)));
const INPUTS = [...AEP_IN, CE_IN, ...AHP_IN, PB_IN];

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
const before = new Map(INPUTS.map((p) => [p, sha(p)]));

const FORMATS = ['text', 'json', 'ndjson', 'sarif', 'junit', 'github', 'html'] as const;
/** The name that picks each format when `--format` is not given (README: -o). */
const NAMED: Partial<Record<(typeof FORMATS)[number], string>> = {
  json: 'r.json',
  ndjson: 'r.ndjson',
  sarif: 'r.sarif',
  junit: 'r.xml',
  html: 'r.html',
};

/** Run `args` to stdout and again with `-o out` (plus `extra`, e.g. the format); assert the relation. */
async function sameAsStdout(bin: 'aep' | 'ahp', args: readonly string[], out: string, toFile = args): Promise<void> {
  const plain = await runCli(bin, [...args]);
  const filed = await runCli(bin, [...toFile, '-o', out]);
  const what = `${bin} ${toFile.join(' ')} -o ${out.split('/').at(-1)}`;
  assert.ok(plain.stdout.length > 0, `${what}: writes something`);
  assert.equal(filed.stdout, '', what);
  assert.equal(readFileSync(out, 'utf8'), plain.stdout, what);
  assert.deepEqual([filed.code, filed.stderr], [plain.code, plain.stderr], what);
}

test('validate -o FILE holds what stdout would, in every format, both bins, several inputs (given or told by name)', async () => {
  const runs: ['aep' | 'ahp', string[]][] = [
    ['aep', [...AEP_IN]],
    ['aep', ['--from', 'cloudevents', CE_IN]],
    ['aep', ['--from', 'otlp', PB_IN]],
    ['ahp', [...AHP_IN, '--each']],
  ];
  for (const [bin, inputs] of runs)
    for (const format of FORMATS) {
      const args = ['validate', '--format', format, ...inputs];
      await sameAsStdout(bin, args, join(dir, `out-${format}`));
      const named = NAMED[format];
      if (named) await sameAsStdout(bin, args, join(dir, named), ['validate', ...inputs]);
    }
});

test('the stream verbs: -o FILE holds what stdout would (and their stderr is the same)', async () => {
  const verbs = [
    ['redact'],
    ['redact', '--no-pii'],
    ['downlevel', '--ceiling', 'metadata'],
    ['downlevel', '--ceiling', 'redacted', '--redact'],
    ['filter', '--where', '{"type":["run.*","session.*"]}'],
    ['convert', '--to', 'cloudevents'],
    ['convert', '--to', 'otlp'],
    ['convert', '--to', 'ocsf'],
  ];
  for (const verb of verbs) await sameAsStdout('aep', [...verb, ...AEP_IN], join(dir, 'verb.jsonl'));
  await sameAsStdout('aep', ['convert', '--from', 'cloudevents', CE_IN], join(dir, 'verb.jsonl'));
  await sameAsStdout('aep', ['convert', '--from', 'otlp', PB_IN], join(dir, 'verb.jsonl'));
});

test('-o naming an input is refused for every verb and format; no input changes', async () => {
  const refused = async (bin: 'aep' | 'ahp', args: readonly string[], input: string) => {
    const r = await runCli(bin, [...args, '-o', input]);
    assert.equal(r.code, 2, `${bin} ${args.join(' ')}`);
    assert.equal(r.stdout, '');
    // one line, the last word: nothing was read, so no count line follows (convert --from once added one)
    assert.match(
      r.stderr,
      /^(aep|ahp): --output .* is the input .*: writing there would destroy it; name another file\n$/,
    );
  };
  for (const format of FORMATS) {
    // the second input named: any input counts, not only the first
    await refused('aep', ['validate', '--format', format, ...AEP_IN], AEP_IN[1]!);
    await refused('ahp', ['validate', '--format', format, ...AHP_IN], AHP_IN[1]!);
  }
  await refused('aep', ['validate', '--from', 'otlp', PB_IN], PB_IN);
  for (const verb of [
    ['redact'],
    ['downlevel', '--ceiling', 'none'],
    ['filter', '--where', '{}'],
    ['convert', '--to', 'otlp'],
  ])
    await refused('aep', [...verb, ...AEP_IN], AEP_IN[1]!);
  await refused('aep', ['convert', '--from', 'otlp', PB_IN], PB_IN);
  await refused('aep', ['convert', '--from', 'cloudevents', CE_IN], CE_IN);
  const missing = await runCli('aep', ['convert', '--from', 'cloudevents', join(dir, 'missing.jsonl')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^aep: cannot read .*missing\.jsonl: no such file or directory\n$/);
  for (const [p, h] of before) assert.equal(sha(p), h, `${p} unchanged`);
});

test('-o - is standard output for every verb that takes -o (as - among the inputs is standard input); no file named -', async () => {
  const runs: ['aep' | 'ahp', string[]][] = [
    ['aep', ['validate', '--format', 'json', ...AEP_IN]],
    ['aep', ['validate', ...AEP_IN]],
    ['ahp', ['validate', '--format', 'sarif', ...AHP_IN]],
    ['aep', ['redact', ...AEP_IN]],
    ['aep', ['filter', '--where', '{}', ...AEP_IN]],
    ['aep', ['convert', '--to', 'cloudevents', ...AEP_IN]],
    ['aep', ['convert', '--from', 'otlp', PB_IN]],
    ['aep', ['fixtures', join(REPO, 'conformance/aep-capture'), '--format', 'json']],
  ];
  for (const [bin, args] of runs) {
    const plain = await runCli(bin, args);
    const dashed = await runCli(bin, [...args, '-o', '-']);
    const what = `${bin} ${args.join(' ')} -o -`;
    assert.ok(plain.stdout.length > 0, `${what}: writes something`);
    assert.deepEqual([dashed.code, dashed.stdout, dashed.stderr], [plain.code, plain.stdout, plain.stderr], what);
    assert.equal(existsSync(join(REPO, '-')), false, `${what}: no file named - (runCli's working folder)`);
  }
});
