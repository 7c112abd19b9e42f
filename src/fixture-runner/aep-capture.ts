/**
 * The capture folders of the upstream AEP corpus: `capture-gating/`, `redaction/` (AEP-0003 §9.4) and `downlevel/`
 * (AEP-0001 §8.2), read in both formats: the upstream one (`expect_capture`, `expect_data`, as run.py and run.js read it)
 * and ours (`expect`, the whole expected event or stream; conformance/aep-capture/downlevel/).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { downlevelStream, isCaptureLevel } from '../aep/downlevel.ts';
import { gateFormValues } from '../aep/forms.ts';
import { createRedactor, type RedactOptions } from '../aep/redact.ts';
import { own } from '../core/value.ts';
import { lineOfName, normalise, uniqueIds } from './aep-case-files.ts';
import { caseLists, readJsonDoc } from './json-file.ts';
import type { RunContext } from './context.ts';

interface GatingCase {
  name?: unknown;
  fields?: unknown;
  values?: unknown;
  ceiling?: unknown;
  expect?: unknown;
}

/** `capture-gating/cases.json`: `gateFormValues(fields, values, ceiling)` deep-equals `expect`. */
export async function runCaptureGating(ctx: RunContext): Promise<void> {
  const path = join(ctx.dir, 'capture-gating', 'cases.json');
  if (!existsSync(path)) return;
  const file = ctx.display(path);
  const doc = readJsonDoc(path, file);
  const text = doc.text;
  const cases = caseLists(doc, file, ['cases']).cases as GatingCase[];
  const ids = uniqueIds(cases.map((c, i) => (typeof c.name === 'string' ? c.name : `case ${i + 1}`)));
  for (const [i, c] of cases.entries()) {
    const line = typeof c.name === 'string' ? lineOfName(text, c.name) : undefined;
    const base = {
      id: `capture-gating/${ids[i]}`,
      group: 'capture-gating',
      file,
      ...(line ? { line } : {}),
      expected: `gated values ${JSON.stringify(c.expect)}`,
    };
    let got: unknown;
    try {
      // the corpus's own data, passed as is: a malformed case throws and fails below
      got = gateFormValues(
        c.fields as Parameters<typeof gateFormValues>[0],
        c.values as Parameters<typeof gateFormValues>[1],
        String(c.ceiling) as Parameters<typeof gateFormValues>[2],
      );
    } catch (e) {
      ctx.emit({ ...base, status: 'fail', actual: 'threw', detail: `gateFormValues threw: ${(e as Error).message}` });
      continue;
    }
    const ok = isDeepStrictEqual(normalise(got), normalise(c.expect));
    ctx.emit({
      ...base,
      status: ok ? 'pass' : 'fail',
      actual: `gated values ${JSON.stringify(got)}`,
      ...(ok
        ? {}
        : {
            detail: `At ceiling ${String(c.ceiling)} the gate kept ${JSON.stringify(got)}; the corpus expects ${JSON.stringify(c.expect)}.`,
          }),
    });
  }
}

interface RedactionCase {
  name?: unknown;
  input?: unknown;
  opts?: unknown;
  must_contain?: unknown;
  must_not_contain?: unknown;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The pipeline options of a case's `opts` (unknown members ignored). */
function redactOptionsOf(o: unknown): RedactOptions {
  const opts: RedactOptions = {};
  if (o === null || typeof o !== 'object') return opts;
  const r = o as Record<string, unknown>;
  if (typeof r.home === 'string') opts.home = r.home;
  if (Array.isArray(r.secretValues)) opts.secretValues = strings(r.secretValues);
  if (Array.isArray(r.secretNames)) opts.secretNames = strings(r.secretNames);
  if (r.pii === false) opts.pii = false;
  return opts;
}

export function runRedaction(ctx: RunContext): void {
  const path = join(ctx.dir, 'redaction', 'cases.json');
  if (!existsSync(path)) return;
  const file = ctx.display(path);
  const doc = readJsonDoc(path, file);
  const text = doc.text;
  const lists = caseLists(doc, file, ['text_cases', 'value_cases']) as {
    text_cases?: RedactionCase[];
    value_cases?: RedactionCase[];
  };
  for (const kind of ['text', 'value'] as const) {
    const list = (kind === 'text' ? lists.text_cases : lists.value_cases) ?? [];
    const ids = uniqueIds(list.map((c, i) => (typeof c.name === 'string' ? c.name : `${kind} case ${i + 1}`)));
    for (const [i, c] of list.entries()) {
      const line = typeof c.name === 'string' ? lineOfName(text, c.name) : undefined;
      const base = {
        id: `redaction/${ids[i]}`,
        group: 'redaction',
        file,
        ...(line ? { line } : {}),
        expected: 'redacted output',
      };
      if (kind === 'text' && typeof c.input !== 'string') {
        ctx.emit({ ...base, status: 'error', detail: 'A text case has no string "input".' });
        continue;
      }
      const r = createRedactor(redactOptionsOf(c.opts));
      const out = kind === 'text' ? r.text(c.input as string) : JSON.stringify(r.value(c.input));
      // never print the secrets themselves: name the expectation by its position only
      const missing = strings(c.must_contain).flatMap((s, j) => (out.includes(s) ? [] : [`must_contain[${j}]`]));
      const leaked = strings(c.must_not_contain).flatMap((s, j) => (out.includes(s) ? [`must_not_contain[${j}]`] : []));
      const ok = missing.length === 0 && leaked.length === 0;
      ctx.emit({
        ...base,
        status: ok ? 'pass' : 'fail',
        actual: ok
          ? 'redacted as expected'
          : [...leaked.map((x) => `${x} still present`), ...missing.map((x) => `${x} absent`)].join(', '),
        ...(ok
          ? {}
          : { detail: `The ${kind} pipeline output breaks ${[...leaked, ...missing].join(', ')} (AEP-0003 §9.4).` }),
      });
    }
  }
}

interface DownlevelCase {
  name?: unknown;
  ceiling?: unknown;
  redact?: unknown;
  event?: unknown;
  events?: unknown;
  expect?: unknown;
  /** The upstream format: the output's `capture` (absent is `metadata`, AEP-0001 §5.1) ... */
  expect_capture?: unknown;
  /** ... and its `data`, `null` when `data` is absent. */
  expect_data?: unknown;
}

/** One case of the upstream corpus's `downlevel/cases.json` format: the down-leveled event's `capture` and `data`. */
function runUpstreamDownlevelCase(
  ctx: RunContext,
  c: DownlevelCase,
  base: { id: string; group: string; file: string; line?: number },
): void {
  const ev = c.event;
  const data = c.expect_data;
  if (
    !isCaptureLevel(c.ceiling) ||
    ev === null ||
    typeof ev !== 'object' ||
    Array.isArray(ev) ||
    !isCaptureLevel(c.expect_capture) ||
    data === undefined ||
    (data !== null && (typeof data !== 'object' || Array.isArray(data)))
  ) {
    ctx.emit({
      ...base,
      expected: 'a down-leveled capture and data',
      status: 'error',
      detail:
        'An upstream-format case needs a "ceiling" and an "expect_capture" (none, metadata, redacted, full), an "event" object and "expect_data" (an object, or null for no data).',
    });
    return;
  }
  const event = ev as Record<string, unknown>;
  const out = downlevelStream(c.ceiling)(event) ?? event;
  const capture = out.capture === undefined ? 'metadata' : out.capture;
  const gotData = out.data === undefined ? null : out.data;
  const ok = capture === c.expect_capture && isDeepStrictEqual(normalise(gotData), normalise(data));
  ctx.emit({
    ...base,
    expected: `down-leveled to ceiling ${c.ceiling}: capture ${c.expect_capture}, ${data === null ? 'no data' : 'the expected data'}`,
    status: ok ? 'pass' : 'fail',
    actual: ok ? 'as expected' : 'different output',
    ...(ok
      ? {}
      : {
          detail: `Down-leveled to ${c.ceiling}: capture ${JSON.stringify(capture)}, data ${JSON.stringify(gotData)}; the case expects capture ${JSON.stringify(c.expect_capture)}, data ${JSON.stringify(data)}.`,
        }),
  });
}

export function runDownlevel(ctx: RunContext): void {
  const path = join(ctx.dir, 'downlevel', 'cases.json');
  if (!existsSync(path)) return;
  const file = ctx.display(path);
  const doc = readJsonDoc(path, file);
  const text = doc.text;
  const cases = caseLists(doc, file, ['cases']).cases as DownlevelCase[];
  const ids = uniqueIds(cases.map((c, i) => (typeof c.name === 'string' ? c.name : `case ${i + 1}`)));
  for (const [i, c] of cases.entries()) {
    const line = typeof c.name === 'string' ? lineOfName(text, c.name) : undefined;
    const base = {
      id: `downlevel/${ids[i]}`,
      group: 'downlevel',
      file,
      ...(line ? { line } : {}),
      expected: `down-leveled to ceiling ${String(c.ceiling)}`,
    };
    if (own(c, 'expect_capture') || own(c, 'expect_data')) {
      runUpstreamDownlevelCase(ctx, c, base);
      continue;
    }
    const events = Array.isArray(c.events) ? c.events : c.event !== undefined ? [c.event] : undefined;
    if (
      !isCaptureLevel(c.ceiling) ||
      !events ||
      events.some((e) => e === null || typeof e !== 'object' || Array.isArray(e)) ||
      c.expect === undefined
    ) {
      ctx.emit({
        ...base,
        status: 'error',
        detail:
          'A case needs a "ceiling" (none, metadata, redacted, full), an "event" object or an "events" list of objects, and "expect".',
      });
      continue;
    }
    const step = downlevelStream(
      c.ceiling,
      c.redact ? { redact: c.redact === true ? true : redactOptionsOf(c.redact) } : {},
    );
    const got = (events as Record<string, unknown>[]).map((e) => step(e) ?? e);
    const want = Array.isArray(c.events) ? c.expect : [c.expect];
    const ok = isDeepStrictEqual(normalise(got), normalise(want));
    ctx.emit({
      ...base,
      status: ok ? 'pass' : 'fail',
      actual: ok ? 'as expected' : 'different output',
      ...(ok
        ? {}
        : {
            detail: `Down-leveled to ${c.ceiling}: ${JSON.stringify(got)}; the case expects ${JSON.stringify(want)}.`,
          }),
    });
  }
}
