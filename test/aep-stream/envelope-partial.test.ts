/**
 * A partly broken envelope (README §Decisions on a partly broken envelope): for every passing conformance case, every
 * event and every separable envelope member (AEP-0001 §5.1 members that neither place the event, name its type nor
 * link it: time, agent, step, traceparent, severity, capture, data, an extension attribute), corrupting that member
 * adds findings about that member only, at that line; no other finding appears or vanishes.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Finding } from '../../src/core/finding.ts';
import { downlevelEvent } from '../../src/aep/downlevel.ts';
import { brief, checkText } from './helpers.ts';
import { sweep, TEST_SCALE } from '../scale.ts';

const DIR = fileURLToPath(new URL('../../conformance/aep/pass/', import.meta.url));

/** One corruption: the member it breaks, the value it writes, and the envelope rule that must report it. */
const CORRUPTIONS: readonly { member: string; value: unknown; rule: string }[] = [
  { member: 'time', value: '2026-13-45 noon', rule: 'aep/time-format' },
  { member: 'agent', value: '', rule: 'aep/attribute-type' },
  { member: 'step', value: 7, rule: 'aep/attribute-type' },
  { member: 'traceparent', value: 'zz', rule: 'aep/traceparent' },
  { member: 'severity', value: 'urgent', rule: 'aep/enum' },
  { member: 'capture', value: 'everything', rule: 'aep/enum' },
  { member: 'data', value: 'x', rule: 'aep/attribute-type' },
  { member: 'xnote', value: { a: 1 }, rule: 'aep/extension-value' },
  { member: 'Xnote', value: 'a', rule: 'aep/extension-name' },
  // the type and the links: the event keeps its position, what it closes or answers is unknown
  { member: 'type', value: 'Not.A.Type', rule: 'aep/type-grammar' },
  { member: 'subject', value: '', rule: 'aep/attribute-type' },
  { member: 'cause', value: '', rule: 'aep/attribute-type' },
  { member: 'run', value: 7, rule: 'aep/attribute-type' },
];

/**
 * "Cannot verify" infos a withdrawn fact may add: a request whose form (`data`) or kind (`type`) is unknown leaves its
 * answer unchecked; an event of unknown type may have been the request a later event follows.
 */
const CONSEQUENCES: Readonly<Record<string, ReadonlySet<string>>> = {
  data: new Set(['aep/form-values-unverifiable']),
  type: new Set(['aep/form-values-unverifiable', 'aep/attention-unknown-request']),
};

const key = (f: Finding): string => `${f.ruleId}@${f.line ?? '-'}${f.pointer ?? ''}`;

/** `a` minus `b` as multisets of {@link key}. */
function minus(a: readonly Finding[], b: readonly Finding[]): Finding[] {
  const left = new Map<string, number>();
  for (const f of b) left.set(key(f), (left.get(key(f)) ?? 0) + 1);
  const out: Finding[] = [];
  for (const f of a) {
    const n = left.get(key(f)) ?? 0;
    if (n > 0) left.set(key(f), n - 1);
    else out.push(f);
  }
  return out;
}

test('corrupting one separable envelope member adds findings about that member only', async (t) => {
  const cases = sweep(
    t,
    readdirSync(DIR)
      .filter((f) => f.endsWith('.jsonl') && !/\.(ce|otlp|ocsf)\.jsonl$/.test(f))
      .sort(),
  );
  const failures: string[] = [];
  let checked = 0;
  for (const name of cases) {
    const lines = readFileSync(DIR + name, 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    for (let i = 0; i < lines.length; i++) {
      let value: unknown;
      try {
        value = JSON.parse(lines[i]!);
      } catch {
        continue;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
      const ev = value as Record<string, unknown>;
      // numbers JSON.parse cannot hold exactly would move: keep such lines as they are
      if (JSON.stringify(ev).length !== JSON.stringify(JSON.parse(JSON.stringify(ev))).length) continue;
      if (/\d{16,}|e\d/i.test(lines[i]!)) continue;
      const base = [...lines];
      base[i] = JSON.stringify(ev);
      // a case named *.aep-0007.jsonl runs with its profile, as every other harness runs it
      const opts = name.endsWith('.aep-0007.jsonl') ? { profile: 'aep-0007' as const } : {};
      const before = await checkText(base.join('\n') + '\n', opts);
      for (const c of CORRUPTIONS) {
        const broken = [...lines];
        broken[i] = JSON.stringify({ ...ev, [c.member]: c.value });
        const after = await checkText(broken.join('\n') + '\n', opts);
        checked++;
        const line = i + 1;
        const gone = minus(before, after);
        const added = minus(after, before).filter(
          (f) =>
            // a member an agent-scoped event must omit is a scope finding at it; a refused type gets none (its scope
            // follows from the type, AEP-0001 §5.2)
            !(
              f.line === line &&
              (f.ruleId === c.rule || (c.member !== 'type' && f.ruleId.startsWith('aep/scope-'))) &&
              f.pointer === '/' + c.member
            ) && !CONSEQUENCES[c.member]?.has(f.ruleId),
        );
        if (gone.length || added.length)
          failures.push(`${name}:${line} ${c.member}: gone ${brief(gone)}; added ${brief(added)}`);
      }
    }
  }
  assert.ok(checked > (TEST_SCALE === 'full' ? 1000 : 250), `only ${checked} corruptions checked`);
  assert.deepEqual(failures.slice(0, 30), [], `${failures.length} of ${checked} corruptions changed other findings`);
});

const SRC = 'aep://partial/agent/a/session/s';
const line = (id: string, type: string, seq: number, over: Record<string, unknown> = {}) =>
  JSON.stringify({
    aep: '0.1',
    id,
    type,
    time: '2026-12-01T10:00:00Z',
    source: SRC,
    agent: 'a',
    session: 's',
    seq,
    ...over,
  });

test('the issue 37 examples: a broken severity or time leaves the stream verdict as it was', async () => {
  const request = (sev: string) =>
    line('q', 'attention.requested', 1, {
      severity: sev,
      data: {
        kind: 'form',
        prompt: 'p',
        fields: [{ id: 'c', type: 'select', label: 'C', choices: [{ id: 'a', label: 'A' }] }],
      },
    });
  const answer = line('r', 'attention.answered', 2, { subject: 'q', data: { answer: { values: { c: 'zzz' } } } });
  const start = line('s0', 'session.started', 0);
  const rules = async (sev: string) =>
    (await checkText([start, request(sev), answer].join('\n') + '\n')).map((f) => f.ruleId).sort();
  const good = await rules('warning');
  assert.ok(
    good.includes('aep/form-values-choice'),
    brief(await checkText([start, request('warning'), answer].join('\n') + '\n')),
  );
  assert.deepEqual(await rules('urgent'), [...good, 'aep/enum'].sort());

  const run = [
    start,
    line('r1', 'run.started', 1, { run: 'u' }),
    line('r2', 'run.finished', 2, { run: 'u', time: 'yesterday' }),
  ];
  const fs = await checkText(run.join('\n') + '\n');
  assert.deepEqual(
    fs.map((f) => f.ruleId),
    ['aep/time-format'],
    brief(fs),
  );
});

test('a repeat of an event of unknown type is compared exactly, never as a down-leveled copy', async () => {
  const full = (type: string) => line('d', type, 1, { capture: 'full', data: { label: 'the user wrote this' } });
  const lower = (type: string) => {
    const ev = JSON.parse(full('session.started')) as Record<string, unknown>;
    const out = downlevelEvent(ev, 'metadata').event;
    return JSON.stringify({ ...out, type });
  };
  const rules = async (a: string, b: string) => (await checkText(`${a}\n${b}\n`)).map((f) => f.ruleId);
  // a sound event: its metadata copy is a redelivery
  assert.deepEqual(await rules(full('session.started'), lower('session.started')), ['aep/redelivery']);
  // its type unknown, which members it held at metadata is unknown: the copy differs
  assert.ok((await rules(full('Bad.Type'), lower('Bad.Type'))).includes('aep/id-collision'));
  // an exact repeat stays a redelivery
  assert.ok((await rules(full('Bad.Type'), full('Bad.Type'))).includes('aep/redelivery'));
});
