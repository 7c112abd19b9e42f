/**
 * The identity analyzer over classes of repeats (AEP-0001 §5.1 #2, §7 rules 2 and 4, §8.2(b)):
 * a first copy the schema stage refused still owns its `(source, id)` when that pair is
 * trustworthy; a copy down-leveled by a re-emitting hop is a redelivery, on both comparison
 * paths (a regular file read back, a stream kept as digests).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CaptureNode } from '../../src/aep/capture.ts';
import { downlevelEvent } from '../../src/aep/downlevel.ts';
import { scopeOf } from '../../src/aep/event.ts';
import { captureTreeFor, knownAepTypes, registryEntry } from '../../src/aep/schema/validators.ts';
import { createRedactor } from '../../src/aep/redact.ts';
import { openInputs, type CliIO } from '../../src/cli/common.ts';
import type { Finding } from '../../src/core/finding.ts';
import { aepDriver, runPipeline } from '../run.ts';
import { checkText, event, jsonl } from './helpers.ts';
import { fileTempDir } from '../temp.ts';

const ids = (fs: { ruleId: string; line?: number }[]) =>
  fs.filter((f) => f.ruleId.startsWith('aep/id-') || f.ruleId === 'aep/redelivery').map((f) => `${f.ruleId}@${f.line}`);

test('a refused first copy keeps its id when aep, id and source are sound; a later reuse is a collision', async () => {
  const base = () => event('progress.status', 0, { id: 'dup-1' });
  const json = (o: Record<string, unknown>) => JSON.stringify(o);
  // [what is wrong with the first copy, its line, whether (source, id) is still trustworthy]
  const table: [string, string, boolean][] = [
    ['seq a string', json({ ...base(), seq: '0' }), true],
    ['seq a fraction', json({ ...base(), seq: 0.5 }), true],
    ['seq beyond a double', json(base()).replace('"seq":0', '"seq":1e400'), true],
    ['time not RFC 3339', json({ ...base(), time: 'yesterday' }), true],
    ['unregistered core type', json({ ...base(), type: 'progress.nonexistent' }), true],
    ['bad extension name', json({ ...base(), Bad_Name: 1 }), true],
    [
      'a repeated seq member (which copy counts is undefined, so the content is)',
      json(base()).replace('"seq":0', '"seq":0,"seq":1'),
      false,
    ],
    ['session-scoped without session', json({ ...base(), session: undefined }), true],
    ['another version', json({ ...base(), aep: '0.2' }), false],
    ['no version', json({ ...base(), aep: undefined }), false],
    ['empty id', json({ ...base(), id: '' }), false],
    ['numeric id', json({ ...base(), id: 7 }), false],
    ['source not a URI', json({ ...base(), source: 'not a uri' }), false],
    ['a repeated id member', json(base()).replace('"id":"dup-1"', '"id":"dup-0","id":"dup-1"'), false],
    ['a repeated source member', json(base()).replace('"source":', '"source":"aep://x/y","source":'), false],
  ];
  for (const [what, first, trusted] of table) {
    const reuse = event('progress.status', 1, { id: 'dup-1', data: { percent: 20 } });
    const got = ids(await checkText(jsonl([first, reuse])));
    assert.deepEqual(got, trusted ? ['aep/id-collision@2'] : [], what);
    // the same holds the other way round: a valid first copy, a refused reuse
    const got2 = ids(await checkText(jsonl([reuse, first])));
    assert.deepEqual(got2, trusted ? ['aep/id-collision@2'] : [], `${what} (second)`);
  }
});

test('a refused copy repeated exactly is a redelivery, and counted by no other rule', async () => {
  const line = JSON.stringify(event('run.started', '1' as unknown as number, { id: 'r-1', run: 'r' }));
  const fs = await checkText(jsonl([line, line]));
  assert.deepEqual(
    fs.map((f) => `${f.ruleId}@${f.line}`),
    ['aep/seq-epoch@1', 'aep/seq-epoch@2', 'aep/redelivery@2'],
  );
});

// ---- down-leveled redelivery (AEP-0001 §8.2(b), §7 rule 2) ----

const dir = fileTempDir('aep-downlevel-id-');
let files = 0;
const noIO = {} as CliIO;
const SECRET_TEXT = 'password=hunter2 see /home/alice/notes';

/** A payload naming every member of `node` (arrays of two), strings carrying a secret the pipeline redacts. */
function payloadOf(node: CaptureNode, depth = 0): unknown {
  if (depth > 5) return SECRET_TEXT;
  if (node.properties) {
    const o: Record<string, unknown> = { count: 3, flag: true };
    for (const [k, c] of node.properties) o[k] = k === 'label' ? 'Label text' : payloadOf(c, depth + 1);
    return o;
  }
  if (node.items) return [payloadOf(node.items, depth + 1), { id: 'b', label: 'Second' }];
  return SECRET_TEXT;
}

/** Findings of the identity rules, `rule@line`, for `lines` read from a regular file and from memory (they must agree). */
async function bothPaths(lines: readonly Record<string, unknown>[]): Promise<string[]> {
  const text = jsonl(lines);
  const p = join(dir, `in-${++files}.jsonl`);
  writeFileSync(p, text);
  const fromFile: Finding[] = [];
  await runPipeline(
    openInputs([p], noIO, () => 'jsonl'),
    aepDriver(),
    (f) => fromFile.push(f),
  );
  const fromMemory = await checkText(text, { source: p });
  const a = ids(fromFile);
  assert.deepEqual(ids(fromMemory), a, `read back and digest disagree on ${text}`);
  return a;
}

test('a copy down-leveled to any lower capture is a redelivery; one that adds or changes content is a collision (every type, both paths)', async () => {
  const redactor = createRedactor();
  let downleveled = 0;
  for (const type of knownAepTypes()) {
    const tree = captureTreeFor(type);
    if (!tree || registryEntry(type)?.status === 'reserved') continue;
    const first = event(type, 5, { id: `dl-${type}`, capture: 'full', subject: 'req-1', data: payloadOf(tree) });
    if (scopeOf(type) !== 'session') delete first.seq;
    if (scopeOf(type) === 'agent') delete first.session;
    for (const level of ['redacted', 'metadata', 'none'] as const) {
      const r = downlevelEvent(first, level, level === 'redacted' ? { redact: redactor } : {});
      assert.equal(r.capture, level);
      const copy = r.event;
      assert.deepEqual(await bothPaths([first, copy]), ['aep/redelivery@2'], `${type} full -> ${level}`);
      downleveled++;
      // the envelope is the event's identity: another time is another event
      assert.deepEqual(
        await bothPaths([first, { ...copy, time: '2026-11-30T12:09:00Z' }]),
        ['aep/id-collision@2'],
        `${type} -> ${level}, other time`,
      );
      // content the first copy does not have at that level
      if (level !== 'none') {
        const added = { ...copy, data: { ...(copy.data as object), added: 1 } };
        assert.deepEqual(await bothPaths([first, added]), ['aep/id-collision@2'], `${type} -> ${level}, added member`);
      }
      // copies arrive in any order (AEP-0001 §7 rule 2: a second relay, a buffered replay; a §8.2(e) hop writes a full
      // event as metadata and passes its redacted copy unchanged): the lower copy first, then the original, is one
      // event; an original whose down-level is not the lower copy is a collision
      assert.deepEqual(await bothPaths([copy, first]), ['aep/redelivery@2'], `${type} ${level} then full`);
      if (level !== 'none') {
        const other = { ...first, data: { ...(first.data as object), added: 1 } };
        assert.deepEqual(await bothPaths([copy, other]), ['aep/id-collision@2'], `${type} ${level} then other full`);
      }
    }
    // capture absent is metadata (AEP-0001 §5.1): a metadata copy may leave it out
    const meta = downlevelEvent(first, 'metadata').event;
    delete meta.capture;
    assert.deepEqual(await bothPaths([first, meta]), ['aep/redelivery@2'], `${type} -> metadata, capture absent`);
  }
  assert.ok(downleveled > 60, `down-levels tried: ${downleveled}`);
});

test('a redacted copy of a full event redacted beyond the AEP-0003 §9.4 floor is unverifiable; one that changes structure is a collision', async () => {
  const first = event('tool.completed', 3, {
    id: 'tc-1',
    capture: 'full',
    data: { tool: { name: 'sh' }, status: 'ok', result: SECRET_TEXT, result_redacted: SECRET_TEXT },
  });
  const ours = downlevelEvent(first, 'redacted', { redact: true }).event as Record<string, Record<string, unknown>>;
  assert.deepEqual(await bothPaths([first, ours]), ['aep/redelivery@2']);
  const more = { ...ours, data: { ...ours.data, result_redacted: '[REDACTED:secret]' } };
  assert.deepEqual(await bothPaths([first, more]), ['aep/id-unverifiable@2']);
  const other = { ...ours, data: { ...ours.data, status: 'error' } };
  assert.deepEqual(await bothPaths([first, other]), ['aep/id-collision@2']);
  // a mechanical full -> redacted is no down-level (AEP-0001 §8.2(e)): the first copy's text kept under a redacted claim
  const minted = {
    ...first,
    capture: 'redacted',
    data: { tool: { name: 'sh' }, status: 'ok', result_redacted: SECRET_TEXT },
  };
  assert.deepEqual(await bothPaths([first, minted]), ['aep/id-unverifiable@2']);
  // integers beyond 2^53 inside data: compared exactly only
  const big = jsonl([
    event('progress.status', 1, { id: 'big', capture: 'redacted', data: { percent: 5, message: 'm' } }),
  ]).replace('"percent":5', '"percent":9007199254740993');
  const bigCopy = JSON.stringify(downlevelEvent(JSON.parse(big), 'metadata').event).replace(
    '"percent":9007199254740992',
    '"percent":9007199254740993',
  );
  assert.deepEqual(ids(await checkText(big + bigCopy + '\n')), ['aep/id-collision@2']);
});

test('a form answer down-leveled by a hop that knew the form (closed choice ids kept) is a redelivery; free text kept is a collision', async () => {
  const request = event('attention.requested', 0, {
    id: 'fq-1',
    capture: 'redacted',
    data: {
      kind: 'form',
      prompt: 'Pick',
      fields: [
        { id: 'name', type: 'string', label: 'Name' },
        { id: 'tier', type: 'select', label: 'Tier', choices: [{ id: 't1', label: 'gold' }] },
        { id: 'n', type: 'number', label: 'Count' },
      ],
      respond_via: ['control'],
    },
  });
  const answer = event('attention.answered', 1, {
    id: 'fa-1',
    subject: 'fq-1',
    capture: 'redacted',
    data: { answer: { values: { name: 'ledger', tier: 't1', n: 2 } }, via: 'control' },
  });
  const resolved = event('attention.resolved', 2, { subject: 'fq-1', cause: 'fa-1', data: { resolution: 'answered' } });
  const withForm = downlevelEvent(answer, 'metadata', { form: (request.data as { fields: never }).fields }).event;
  const formless = downlevelEvent(answer, 'metadata').event;
  assert.deepEqual((withForm.data as { answer: unknown }).answer, { values: { tier: 't1', n: 2 } });
  for (const copy of [withForm, formless]) {
    // after the request reached its terminal too, and in either order
    assert.deepEqual(await bothPaths([request, answer, resolved, copy]), ['aep/redelivery@4']);
    assert.deepEqual(await bothPaths([request, copy, resolved, answer]), ['aep/redelivery@4']);
  }
  // the free text of a string field is no closed choice: a copy keeping it at metadata is other content
  const leaky = {
    ...withForm,
    data: { ...(withForm.data as object), answer: { values: { name: 'ledger', tier: 't1', n: 2 } } },
  };
  assert.deepEqual(await bothPaths([request, answer, resolved, leaky]), ['aep/id-collision@4']);
  // without the request in the stream, only the form-less copy is known to be one
  assert.deepEqual(await bothPaths([answer, formless]), ['aep/redelivery@2']);
  assert.deepEqual(await bothPaths([answer, withForm]), ['aep/id-collision@2']);
});

test('a redacted copy of a redacted event that a redacting hop redacted further is unverifiable, not a second event', async () => {
  const first = event('x.acme.progress.noted', 0, { capture: 'redacted', data: { note: 'mail alice@example.com' } });
  const further = { ...first, data: { note: 'mail [REDACTED:pii]' } };
  assert.deepEqual(await bothPaths([first, further]), ['aep/id-unverifiable@2']);
  // at the same capture, other envelope content is still another event
  assert.deepEqual(await bothPaths([first, { ...further, time: '2026-11-30T12:09:00Z' }]), ['aep/id-collision@2']);
  const findings = await checkText(jsonl([first, further]));
  assert.match(findings[0]!.message, /for a redacted event; this redacted copy/);
});
