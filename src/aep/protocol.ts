/**
 * The AEP 0.1 checker: envelope -> type registry -> payload -> per-event rules -> stream
 * rules, for each parsed JSONL line. docs/architecture.md §Data flow; AEP-0001 §5-§8, AEP-0002 §3-§5.
 */
import { isUri } from '../core/schema/formats.ts';
import { exactIntegerOfLiteral, MAX_EXACT_EXPONENT, numberLiteralAt, type DuplicateKey } from '../core/json.ts';
import { differingCopies } from '../core/json-copies.ts';
import type { FindingSink } from '../core/finding.ts';
import { framingFinding, JSONL_RULES, type FramingSpecs } from '../core/jsonl.ts';
import type { ProtocolChecker } from '../core/pipeline.ts';
import type { CheckerOutput } from '../core/protocol.ts';
import { makeFinding, RULE_ERROR, type ParsedEvent, type RuleMeta } from '../core/rule.ts';
import { Engine, selectedSink, type RuleSelection } from '../core/engine.ts';
import { CAPTURE_RANK, type AepEvent } from './event.ts';
import {
  envelopeFindings,
  envelopeValidator,
  knownAepTypes,
  payloadFindings,
  payloadValidator,
  registryEntry,
  requiredMembers,
} from './payload.ts';
import { AEP_EVENT_RULES, AEP_SCHEMA_RULES } from './rules/index.ts';
import { ENVELOPE_RULES } from './rules/envelope.ts';
import {
  AEP_STREAM_RULES,
  AepStreamModel,
  DEFAULT_AEP_STREAM_OPTIONS,
  type AepStreamOptions,
  type AepStreamState,
} from './stream/index.ts';
import type { AepCaptureLevel } from './schemas.ts';
import { AEP_BRIDGE_RULES } from './bridges/rules.ts';

/** Options of an AEP run. */
export interface AepCheckOptions {
  stream?: Partial<AepStreamOptions>;
  /** Which rules run (default: all); framing findings (`jsonl/*`, `json/*`) always appear. */
  rules?: RuleSelection;
  /** Called with each run's stream analyzers as the run starts (tests and diagnostics; read only). */
  onStreamState?: (state: AepStreamState) => void;
}

/** Every rule `aep validate` can report: framing, schema, per-event and stream rules, and the bridge rules of `--from`. */
export function aepRules(): RuleMeta[] {
  // jsonl/carriage-return belongs to AHP's stdio binding: AEP accepts CRLF and a lone CR is data
  return [
    ...JSONL_RULES.filter((r) => r.id !== 'jsonl/carriage-return').map(
      (r) => ({ ...r, spec: AEP_FRAMING_SPECS[r.id] ?? r.spec }) as RuleMeta,
    ),
    ...AEP_SCHEMA_RULES,
    ...AEP_EVENT_RULES,
    ...AEP_STREAM_RULES,
    ...AEP_BRIDGE_RULES,
    RULE_ERROR,
  ].map(({ id, severity, description, spec, messages }) => ({ id, severity, description, spec, messages }));
}

export { knownAepTypes };

/** AEP's own framing citations: a repeated envelope attribute breaks the envelope (AEP-0001 §5). */
export const AEP_FRAMING_SPECS: FramingSpecs = { 'json/duplicate-key': 'AEP-0001 §5; RFC 8259 §4' };

/**
 * Check one parsed event's envelope, type and payload. Reports to `sink`; returns the
 * {@link AepEvent} when the envelope is valid (so stream rules may see it), else `undefined`.
 */
export function checkAepEvent(ev: ParsedEvent, sink: FindingSink): AepEvent | undefined {
  const R = ENVELOPE_RULES;
  const v = ev.value;
  // duplicate member names: the value JSON.parse kept must not decide the verdict
  let envelopeDup = false;
  // duplicates come in text order: count bytes incrementally (a line of a million repeats
  // must not cost a million prefix re-encodings)
  let upTo = 0;
  let bytes = 0;
  const differing = ev.duplicates.length > 0 ? payloadCopies(ev.duplicates, ev.text, v.type) : undefined;
  for (const d of ev.duplicates) {
    const top = d.pointer.split('/').length === 2;
    if (top) envelopeDup = true;
    if (d.index < upTo) (upTo = 0), (bytes = 0);
    bytes += Buffer.byteLength(ev.text.slice(upTo, d.index));
    upTo = d.index;
    const at = {
      source: ev.source,
      line: ev.line,
      column: d.index + 1,
      byteOffset: ev.byteOffset + bytes,
      pointer: d.pointer,
    };
    if (top) sink(framingFinding('json/duplicate-key', at, 'envelope', { key: d.key }));
    else if (differing?.has(d.pointer)) {
      // one finding per member: its first repeat
      const n = differing.get(d.pointer)!;
      if (n === 0) continue;
      differing.set(d.pointer, 0);
      const rule = R.payloadDuplicateConflict;
      const message = `Member "${d.key}" appears ${n} times with copies that differ; the checks read the last copy, but a consumer that keeps another one reads a different payload, so the event is rejected whatever the member order.`;
      sink({ ruleId: rule.id, severity: rule.severity, message, spec: rule.spec, ...at });
    } else {
      const rule = R.payloadDuplicate;
      const why = differing === null ? 'no schema checks this payload' : 'its copies are equal';
      sink({
        ruleId: rule.id,
        severity: rule.severity,
        message: `Member "${d.key}" appears more than once in the same object (${why}); which one counts is undefined.`,
        spec: rule.spec,
        ...at,
      });
    }
  }
  // a repeated envelope attribute rejects the event before the envelope is read: findings
  // about the value JSON.parse happened to keep would depend on that choice
  if (envelopeDup) return undefined;
  if (!envelopeValidator()(v)) {
    for (const f of envelopeFindings(v))
      sink(makeFinding(schemaRule(f.ruleId), { pointer: f.pointer, message: f.message }, ev));
    return undefined;
  }
  // seq/epoch that JSON.parse cannot hold exactly (1e400, 9007199254740993.0): decide from the literal
  let inexact = false;
  for (const name of ['seq', 'epoch'] as const) {
    const n = v[name];
    if (typeof n !== 'number' || Number.isSafeInteger(n) || ev.bigIntegers.some((b) => b.pointer === '/' + name))
      continue;
    const lit = numberLiteralAt(ev.text, '/' + name);
    const exact = lit === undefined ? undefined : exactIntegerOfLiteral(lit);
    if (typeof exact === 'bigint') continue;
    inexact = true;
    const shown = lit && lit.length <= 40 ? lit : `a ${lit?.length ?? 0}-character literal`;
    sink(
      makeFinding(
        R.counter,
        {
          pointer: '/' + name,
          message:
            exact === 'too-large'
              ? `"/${name}" is written as ${shown}, too large to compare exactly (exponent above ${MAX_EXACT_EXPONENT}).`
              : `"/${name}" is written as ${shown}, which is not a whole number.`,
        },
        ev,
      ),
    );
  }
  if (inexact) return undefined;
  const type = v.type as string;
  const entry = type.startsWith('x.') ? undefined : registryEntry(type);
  if (!type.startsWith('x.') && !entry) {
    sink(
      makeFinding(
        R.typeUnregistered,
        {
          pointer: '/type',
          message: `Type "${type}" is in the core namespace but is not registered in AEP 0.1; use a registered type or a vendor type x.{vendor}.{category}.{rest}.`,
        },
        ev,
      ),
    );
    return undefined;
  }
  if (entry?.status === 'reserved') {
    sink(
      makeFinding(
        R.typeReserved,
        { pointer: '/type', message: `Type "${type}" is reserved in AEP 0.1 and has no payload definition yet.` },
        ev,
      ),
    );
  }
  let payloadValid = true;
  const data = v.data;
  if (data !== undefined && entry) {
    const pv = payloadValidator(type);
    if (pv && !pv(data)) {
      payloadValid = false;
      // never echo payload values: the wording describes type and length only
      for (const f of payloadFindings(type, data, { base: '/data' })) {
        sink(
          makeFinding(
            schemaRule(f.ruleId),
            { pointer: f.pointer, message: `${f.message.slice(0, -1)} (payload of ${type}).` },
            ev,
          ),
        );
      }
    }
  }
  const capture = (typeof v.capture === 'string' ? v.capture : 'metadata') as AepCaptureLevel;
  // AEP-0001 §5.1 #17: `data` is OPTIONAL, but an absent payload lacks every member its type
  // REQUIRES; only those gated at or below the declared capture are owed (AEP-0002 §5.1 rule 1,
  // so at `none`, where data is absent by rule, nothing is)
  if (data === undefined && entry && capture !== 'none') {
    for (const m of requiredMembers(type)) {
      if (CAPTURE_RANK[m.level] > CAPTURE_RANK[capture]) continue;
      payloadValid = false;
      const message = `Missing required member "${m.name}": the event has no "data", and ${type} requires "${m.name}" at capture ${capture}.`;
      sink(makeFinding(schemaRule(m.finding.ruleId), { pointer: m.finding.pointer, message }, ev));
    }
  }
  const out = ev as AepEvent;
  out.type = type;
  out.capture = capture;
  out.payloadValid = payloadValid;
  out.registered = entry !== undefined;
  return out;
}

/**
 * A refused event (envelope, `seq`/`epoch` or type findings) as the identity analyzer's input,
 * when its `(source, id)` is still trustworthy; else `undefined`. `id` is unique per emitter
 * whatever else the event gets wrong (AEP-0001 §5.1 #2), so a later event reusing it is still
 * compared with it. Trustworthy: an AEP 0.1 event (`aep` is also the format marker, §5.1 #1,
 * so another value may not be an AEP event at all) whose `id` is a non-empty string and whose
 * `source` a URI (§5.1 #6), and no envelope attribute repeated in the line: which copy counts
 * is undefined (RFC 8259 §4), so neither the pair nor the content it is compared by would be
 * known.
 */
export function identityOfRejected(ev: ParsedEvent): AepEvent | undefined {
  const v = ev.value;
  if (v.aep !== '0.1' || typeof v.id !== 'string' || v.id === '' || typeof v.source !== 'string' || !isUri(v.source))
    return undefined;
  for (const d of ev.duplicates) if (d.pointer.lastIndexOf('/') === 0) return undefined;
  const out = ev as AepEvent;
  out.type = typeof v.type === 'string' ? v.type : '';
  out.capture = 'metadata';
  out.payloadValid = false;
  out.registered = false;
  out.rejected = true;
  return out;
}

/**
 * The payload members repeated with copies that differ, each with its number of copies
 * (src/core/json-copies.ts); `undefined` when no payload member repeats, `null` when the type
 * has no payload schema (a vendor payload is opaque: no verdict reads it).
 */
function payloadCopies(
  dups: readonly DuplicateKey[],
  text: string,
  type: unknown,
): Map<string, number> | null | undefined {
  if (typeof type !== 'string' || type.startsWith('x.') || !registryEntry(type)?.schema) return null;
  const pointers = dups.filter((d) => d.pointer.split('/').length > 2).map((d) => d.pointer);
  return pointers.length === 0 ? undefined : differingCopies(text, pointers);
}

const SCHEMA_RULES = new Map<string, RuleMeta>(Object.values(ENVELOPE_RULES).map((r) => [r.id, r]));

/** The rule a schema annotation names (schemas/aep: every `x-rule` is one of {@link ENVELOPE_RULES}). */
function schemaRule(id: string): RuleMeta {
  const r = SCHEMA_RULES.get(id);
  if (!r) throw new Error(`schema annotation names ${id}, which is not an AEP schema rule`);
  return r;
}

/**
 * A checker of one AEP stream: envelope, type and payload (schema rules), the per-event rules
 * on an event whose payload passed, then the stream model and its rules.
 * @throws TypeError when a stream rule is gated on a fact the model lacks (a bug).
 */
export function createAepChecker(opts: AepCheckOptions, out: CheckerOutput): ProtocolChecker {
  const streamOpts: AepStreamOptions = { ...DEFAULT_AEP_STREAM_OPTIONS, ...opts.stream };
  const selection = opts.rules;
  const { sink, stats } = out;
  const model = new AepStreamModel(streamOpts);
  opts.onStreamState?.(model.state);
  const engine = new Engine(AEP_EVENT_RULES, AEP_STREAM_RULES, model, sink, selection, (e) => out.crash(e));
  // envelope, type and payload findings are rules too: a selection filters them (framing stays)
  const checkSink = selectedSink(sink, selection);
  return {
    onEvent(ev) {
      const t = ev.value.type;
      if (typeof t === 'string') stats.types.set(t, (stats.types.get(t) ?? 0) + 1);
      const aev = checkAepEvent(ev, checkSink);
      if (!aev) {
        // a refused event whose identity can still be trusted reaches the identity check only
        const id = identityOfRejected(ev);
        if (id) engine.streamEvent(id);
        return;
      }
      if (aev.payloadValid) engine.checkEvent(aev);
      engine.streamEvent(aev);
    },
    end() {
      engine.end();
    },
  };
}
