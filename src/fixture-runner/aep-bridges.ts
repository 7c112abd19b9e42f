/**
 * The bridge folders of the upstream AEP corpus (AEP-0005 §5, AEP-0003 §6): `ce-roundtrip/` (forward and round trip, §5
 * items 1-2, inbound item 5), `otlp/` (the OTLP data model, item 3), `ocsf/` (class attributes and enums, item 6),
 * `attr-match/` (`match` cases and `invalid` filters parseFilter must refuse).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { type AttrFilter, matches, parseFilter } from '../aep/attr-match.ts';
import { decodeCloudEvents, fromCloudEvent, toCloudEvent } from '../aep/bridges/cloudevents.ts';
import { toOcsf } from '../aep/bridges/ocsf.ts';
import { toOtlp } from '../aep/bridges/otlp.ts';
import { bridgeIssueMessage } from '../aep/bridges/rules.ts';
import { envelopeValidator } from '../aep/schema/validators.ts';
import { isObj, type Obj } from '../core/value.ts';
import { FixtureError, type RunContext } from './context.ts';
import { atPointer, caseLists, jsonKind, jsonLines, parseJsonLine, readJsonDoc } from './json-file.ts';

function readJson(ctx: RunContext, path: string): unknown {
  return readJsonDoc(path, ctx.display(path)).value;
}

/** The golden events, by index; `undefined` when the corpus has no golden/golden.jsonl. */
function golden(ctx: RunContext): Obj[] | undefined {
  const path = join(ctx.dir, 'golden', 'golden.jsonl');
  if (!existsSync(path)) return undefined;
  const shown = ctx.display(path);
  return jsonLines(readFileSync(path, 'utf8')).map((l) => parseJsonLine(l.text, shown, l.line) as Obj);
}

function lineOf(text: string, name: string): number | undefined {
  const i = text.indexOf(`"name": ${JSON.stringify(name)}`);
  return i === -1 ? undefined : text.slice(0, i).split('\n').length;
}

const brief = (v: unknown) => {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > 400 ? s.slice(0, 400) + '...' : s;
};

/** AEP-0005 §5 items 1, 2 and 5. */
export function runCeRoundtrip(ctx: RunContext): void {
  const dir = join(ctx.dir, 'ce-roundtrip');
  const pinPath = join(dir, 'ce-expected.jsonl');
  if (existsSync(pinPath)) {
    const file = ctx.display(pinPath);
    const g = golden(ctx);
    const pins = jsonLines(readFileSync(pinPath, 'utf8'));
    pins.forEach(({ text, line }, i) => {
      const base = { group: 'ce-roundtrip', file, line };
      const e = g?.[i];
      if (!e) {
        ctx.emit({
          ...base,
          id: `ce-roundtrip/forward ${i + 1}`,
          status: 'error',
          detail: `No golden line ${i + 1} (golden/golden.jsonl) to convert.`,
        });
        return;
      }
      const pin = parseJsonLine(text, file, line);
      const got = toCloudEvent(e);
      const issues = decodeCloudEvents(pin).issues;
      const fwdOk = isDeepStrictEqual(got, pin) && issues.length === 0;
      ctx.emit({
        ...base,
        id: `ce-roundtrip/forward ${i + 1}`,
        status: fwdOk ? 'pass' : 'fail',
        expected: 'the pinned CloudEvent, valid',
        actual: fwdOk
          ? 'equal, valid'
          : issues.length
            ? `${issues.map((x) => x.ruleId).join(', ')} on the pin`
            : 'different',
        ...(fwdOk
          ? {}
          : {
              detail: issues.length
                ? `The pin fails our CloudEvents checks: ${issues.map((x) => `${x.ruleId} at ${x.pointer}: ${bridgeIssueMessage(x)}`).join('; ')}`
                : `toCloudEvent(golden line ${i + 1}) = ${brief(got)}; the pin is ${brief(pin)}.`,
            }),
      });
      const back = fromCloudEvent(got).event;
      const rtOk = isDeepStrictEqual(back, e);
      ctx.emit({
        ...base,
        id: `ce-roundtrip/roundtrip ${i + 1}`,
        status: rtOk ? 'pass' : 'fail',
        expected: 'the golden event',
        actual: rtOk ? 'identical (modulo member order)' : 'different',
        ...(rtOk ? {} : { detail: `fromCloudEvent(toCloudEvent(golden line ${i + 1})) = ${brief(back)}.` }),
      });
    });
  }
  const inPath = join(dir, 'inbound-cases.json');
  if (existsSync(inPath)) {
    const file = ctx.display(inPath);
    const doc = readJsonDoc(inPath, file);
    const text = doc.text;
    for (const [i, c] of (caseLists(doc, file, ['cases']).cases as Obj[]).entries()) {
      const name = typeof c.name === 'string' ? c.name : `case ${i + 1}`;
      const line = lineOf(text, name);
      const base = {
        id: `ce-roundtrip/inbound/${name}`,
        group: 'ce-roundtrip',
        file,
        ...(line ? { line } : {}),
        expected: 'the expected AEP envelope',
      };
      if (!isObj(c.ce) || !isObj(c.expected)) {
        ctx.emit({ ...base, status: 'error', detail: 'A case needs a "ce" object and an "expected" object.' });
        continue;
      }
      const got = fromCloudEvent(c.ce).event;
      const valid = envelopeValidator()(c.expected);
      const ok = isDeepStrictEqual(got, c.expected) && valid;
      ctx.emit({
        ...base,
        status: ok ? 'pass' : 'fail',
        actual: ok ? 'equal' : valid ? 'different' : 'the expected envelope fails the envelope schema',
        ...(ok ? {} : { detail: `fromCloudEvent gave ${brief(got)}.` }),
      });
    }
  }
}

/** An OTLP/JSON LogRecord (with its resource) in the data model's field names, values read back as JSON. */
export function otlpDataModel(resource: Obj, rec: Obj): Obj {
  const anyJson = (v: unknown): unknown => {
    if (!isObj(v)) return null;
    if ('stringValue' in v) return v.stringValue;
    if ('boolValue' in v) return v.boolValue;
    if ('intValue' in v) return Number(v.intValue);
    if ('doubleValue' in v) return v.doubleValue;
    if ('arrayValue' in v) return (((v.arrayValue as Obj).values as unknown[]) ?? []).map(anyJson);
    if ('kvlistValue' in v) return kv((v.kvlistValue as Obj).values);
    return null;
  };
  const kv = (list: unknown): Obj =>
    Object.fromEntries((Array.isArray(list) ? list : []).map((x: Obj) => [x.key, anyJson(x.value)]));
  const out: Obj = {};
  if (rec.timeUnixNano !== undefined) out.time_unix_nano = Number(BigInt(rec.timeUnixNano as string));
  if (rec.eventName !== undefined) out.event_name = rec.eventName;
  if (rec.severityText !== undefined) out.severity_text = rec.severityText;
  if (rec.severityNumber !== undefined) out.severity_number = rec.severityNumber;
  out.resource = kv(resource.attributes);
  out.attributes = kv(rec.attributes);
  if (rec.traceId !== undefined) out.trace_id = rec.traceId;
  if (rec.spanId !== undefined) out.span_id = rec.spanId;
  if (rec.flags !== undefined) out.flags = rec.flags;
  if (rec.body !== undefined) out.body = anyJson(rec.body);
  return out;
}

/** AEP-0005 §5 item 3. */
export function runOtlp(ctx: RunContext): void {
  const path = join(ctx.dir, 'otlp', 'otlp-expected.json');
  if (!existsSync(path)) return;
  const file = ctx.display(path);
  const pins = readJson(ctx, path);
  if (!isObj(pins))
    throw new FixtureError(
      `${file}: ${atPointer('', `expected an object {"<golden index>": record, ...}, found ${jsonKind(pins)}`)}`,
    );
  const g = golden(ctx);
  for (const [k, want] of Object.entries(pins)) {
    if (k.startsWith('$')) continue;
    const base = { id: `otlp/golden ${k}`, group: 'otlp', file, expected: 'the pinned LogRecord' };
    const e = g?.[Number(k)];
    if (!e) {
      ctx.emit({ ...base, status: 'error', detail: `No golden event at index ${k}.` });
      continue;
    }
    const req = toOtlp([e]).request as {
      resourceLogs: Array<{ resource: Obj; scopeLogs: Array<{ logRecords: Obj[] }> }>;
    };
    const rl = req.resourceLogs[0]!;
    const got = otlpDataModel(rl.resource, rl.scopeLogs[0]!.logRecords[0]!);
    const ok = isDeepStrictEqual(got, want);
    ctx.emit({
      ...base,
      status: ok ? 'pass' : 'fail',
      actual: ok ? 'equal' : 'different',
      ...(ok ? {} : { detail: `toOtlp(golden ${k}) reads back as ${brief(got)}.` }),
    });
  }
}

interface OcsfClass {
  category_uid?: number;
  attributes?: string[];
  activity?: Obj;
  severity?: Obj;
  status?: Obj;
  disposition?: Obj;
}

/** The problems of an OCSF record against the pinned class subset (empty when it keeps to it). */
export function ocsfClassProblems(rec: Obj, classes: Readonly<Record<string, OcsfClass>>): string[] {
  const c = classes[String(rec.class_uid)];
  if (!c) return [`class_uid ${String(rec.class_uid)} is not in the pinned subset`];
  const out: string[] = [];
  const attrs = new Set(c.attributes ?? []);
  for (const k of Object.keys(rec))
    if (!attrs.has(k)) out.push(`${k} is not an attribute of class ${String(rec.class_uid)}`);
  if (c.category_uid !== undefined && rec.category_uid !== c.category_uid)
    out.push('category_uid is not the class category');
  if (rec.type_uid !== (rec.class_uid as number) * 100 + (rec.activity_id as number))
    out.push('type_uid is not class_uid * 100 + activity_id');
  for (const [field, set] of [
    ['activity_id', c.activity],
    ['severity_id', c.severity],
    ['status_id', c.status],
    ['disposition_id', c.disposition],
  ] as const) {
    if (rec[field] !== undefined && !(set && String(rec[field]) in set))
      out.push(`${field} ${String(rec[field])} is not in the class enum`);
  }
  return out;
}

/** The `classes` member of `ocsf-classes.json`. @throws FixtureError when the file is not `{"classes": {...}}`. */
function ocsfClasses(doc: unknown, shown: string): Record<string, OcsfClass> {
  const classes = isObj(doc) ? (doc.classes ?? {}) : doc;
  if (!isObj(classes))
    throw new FixtureError(
      `${shown}: ${atPointer(isObj(doc) ? '/classes' : '', `expected an object${isObj(doc) ? '' : ' {"classes": {...}}'}, found ${jsonKind(classes)}`)}`,
    );
  return classes as Record<string, OcsfClass>;
}

/** AEP-0005 §5 item 6. */
export function runOcsf(ctx: RunContext): void {
  const path = join(ctx.dir, 'ocsf', 'ocsf-expected.json');
  if (!existsSync(path)) return;
  const file = ctx.display(path);
  const pins = readJson(ctx, path);
  if (!isObj(pins))
    throw new FixtureError(
      `${file}: ${atPointer('', `expected an object {"<golden index>": record, ...}, found ${jsonKind(pins)}`)}`,
    );
  const classesPath = join(ctx.dir, 'ocsf', 'ocsf-classes.json');
  const classes = existsSync(classesPath)
    ? ocsfClasses(readJson(ctx, classesPath), ctx.display(classesPath))
    : undefined;
  const g = golden(ctx);
  for (const [k, want] of Object.entries(pins)) {
    if (k.startsWith('$')) continue;
    const base = {
      id: `ocsf/golden ${k}`,
      group: 'ocsf',
      file,
      expected: classes ? 'the pinned record, within the class subset' : 'the pinned record',
    };
    const e = g?.[Number(k)];
    if (!e || !isObj(want)) {
      ctx.emit({
        ...base,
        status: 'error',
        detail: e ? 'The pinned record is not an object.' : `No golden event at index ${k}.`,
      });
      continue;
    }
    const got = toOcsf(e).record;
    const problems = got && classes ? ocsfClassProblems(got, classes) : [];
    const ok = isDeepStrictEqual(got, want) && problems.length === 0;
    ctx.emit({
      ...base,
      status: ok ? 'pass' : 'fail',
      actual: ok ? 'equal' : got ? (problems.length ? problems.join('; ') : 'different') : 'no record',
      ...(ok ? {} : { detail: `toOcsf(golden ${k}) = ${brief(got)}.` }),
    });
  }
}

/** AEP-0003 §6 attr-match cases. */
export function runAttrMatch(ctx: RunContext): void {
  const path = join(ctx.dir, 'attr-match', 'cases.json');
  if (!existsSync(path)) return;
  const file = ctx.display(path);
  const doc = readJsonDoc(path, file);
  const text = doc.text;
  const lists = caseLists(doc, file, ['match', 'invalid']);
  for (const [kind, list] of [
    ['match', lists.match],
    ['invalid', lists.invalid],
  ] as const) {
    (Array.isArray(list) ? list : []).forEach((c: Obj, i) => {
      const name = typeof c.name === 'string' ? c.name : `${kind} case ${i + 1}`;
      const line = lineOf(text, name);
      const base = { id: `attr-match/${name}`, group: 'attr-match', file, ...(line ? { line } : {}) };
      let reason: string | undefined;
      let filter: AttrFilter | undefined;
      try {
        filter = parseFilter(c.filter);
      } catch (e) {
        reason = (e as Error).message;
      }
      if (kind === 'invalid') {
        ctx.emit({
          ...base,
          expected: 'refused (invalid-filter)',
          status: reason ? 'pass' : 'fail',
          actual: reason ?? 'accepted',
          ...(reason
            ? {}
            : { detail: 'The filter was accepted; AEP-0003 §6.2 rule 1 / §6.5 refuse it (fail closed).' }),
        });
        return;
      }
      if (!filter || !isObj(c.event) || typeof c.match !== 'boolean') {
        ctx.emit({
          ...base,
          expected: `match ${String(c.match)}`,
          status: reason ? 'fail' : 'error',
          actual: reason ?? '',
          detail: reason
            ? `The filter was refused: ${reason}.`
            : 'A match case needs an "event" object and a boolean "match".',
        });
        return;
      }
      const got = matches(filter, c.event);
      ctx.emit({
        ...base,
        expected: `match ${c.match}`,
        status: got === c.match ? 'pass' : 'fail',
        actual: `match ${got}`,
      });
    });
  }
}
