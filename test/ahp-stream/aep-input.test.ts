// An AEP log given to `ahp validate` gets one `ahp/jsonrpc` finding naming `aep validate` (the first AEP line; the
// others are set aside unchecked), as an AHP log given to `aep validate` gets one `aep/bridge-input` finding naming
// `ahp validate` (test/aep-bridges/outside.test.ts). AHP lines around them are checked as before.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createSession, validate } from '../../src/index.ts';
import { runCli } from '../cli/helpers.ts';

const AEP_LOG = readFileSync(new URL('../../examples/aep/session.jsonl', import.meta.url), 'utf8');
const AHP_LOG = readFileSync(new URL('../../examples/ahp/session.jsonl', import.meta.url), 'utf8');
const AEP_LINES = AEP_LOG.split('\n').filter((l) => l !== '').length;
const AHP_LINES = AHP_LOG.split('\n').filter((l) => l !== '').length;
const shape = (fs: readonly { ruleId: string; line?: number; messageId?: string }[]) =>
  fs.map((f) => `${f.ruleId}@${f.line}:${f.messageId}`);

test('ahp validate of an AEP log: one finding naming aep validate, as aep validate of an AHP log names ahp', async () => {
  const ahp = await validate('ahp', { text: AEP_LOG, source: 'x.jsonl' });
  assert.deepEqual(shape(ahp.findings), ['ahp/jsonrpc@1:aep']);
  assert.match(ahp.findings[0]!.message, /`aep validate`/);
  assert.equal(ahp.findings[0]!.pointer, '');
  assert.equal(ahp.summary.errors, 1);
  assert.equal(ahp.summary.events, 0);
  assert.equal(ahp.summary.unchecked, AEP_LINES);
  // the mirror image, for the same answer's shape
  const aep = await validate('aep', { text: AHP_LOG, source: 'x.jsonl' });
  assert.deepEqual(shape(aep.findings), ['aep/bridge-input@1:ahp']);
  assert.equal(aep.summary.events, 0);
  assert.equal(aep.summary.unchecked, AHP_LINES);
});

test('AHP lines after AEP ones are still checked; the AEP lines are not', async () => {
  const clean = await validate('ahp', { text: AHP_LOG, source: 'x.jsonl' });
  assert.equal(clean.summary.errors, 0, shape(clean.findings).join(' '));
  const mixed = await validate('ahp', { text: AEP_LOG + AHP_LOG, source: 'x.jsonl' });
  assert.deepEqual(shape(mixed.findings), ['ahp/jsonrpc@1:aep']);
  assert.equal(mixed.summary.events, AHP_LINES);
  // a broken AHP line after them still gets its own finding
  const broken = await validate('ahp', { text: `${AEP_LOG}{"jsonrpc":"2.0"}\n`, source: 'x.jsonl' });
  assert.deepEqual(shape(broken.findings), ['ahp/jsonrpc@1:aep', `ahp/jsonrpc@${AEP_LINES + 1}:noMember`]);
});

test('every rule selection keeps the finding (a run that checked nothing must not pass); an HTTP body is one input too', async () => {
  const r = await validate('ahp', { text: AEP_LOG, source: 'x.jsonl' }, { rules: ['ahp/method'] });
  assert.deepEqual(shape(r.findings), ['ahp/jsonrpc@1:aep']);
  assert.equal(r.summary.errors, 1);
  assert.equal(r.summary.unchecked, AEP_LINES);
  const body = AEP_LOG.slice(0, AEP_LOG.indexOf('\n') + 1);
  const http = await validate('ahp', { text: body, source: 'event.json' });
  assert.deepEqual(shape(http.findings), ['ahp/jsonrpc@1:aep']);
  // a session, event by event: the same finding once
  const s = createSession('ahp');
  const lines = AEP_LOG.split('\n').filter((l) => l !== '');
  assert.deepEqual(shape(lines.flatMap((l) => s.check(l))), ['ahp/jsonrpc@1:aep']);
});

test('the CLI: ahp validate of an AEP log says aep validate once and exits 1', async () => {
  const r = await runCli('ahp', ['validate', '-'], AEP_LOG);
  assert.equal(r.code, 1, r.stderr);
  assert.equal((r.stdout.match(/`aep validate`/g) ?? []).length, 1, r.stdout);
  assert.match(r.stdout, /not checked/);
});
