import { differingCopies } from '../../core/json-copies.ts';
import { exactIntegerOfLiteral, MAX_EXACT_EXPONENT, numberLiteralAt, type DuplicateKey } from '../../core/json.ts';
import { framingFinding } from '../../core/jsonl.ts';
import type { FindingSink, Location } from '../../core/finding.ts';
import type { MessageArgs } from '../../core/message.ts';
import { makeFinding, type ParsedEvent, type RuleMeta } from '../../core/rule.ts';
import { isUri } from '../../core/schema/formats.ts';
import { isObj } from '../../core/value.ts';
import { CAPTURE_RANK, type AepEvent } from '../event.ts';
import type { AepCaptureLevel } from './registry.ts';
import { envelopeSurelyValid } from './envelope-fast.ts';
import { typeInfo, type AepTypeInfo } from './type-info.ts';
import { isSubprofileType, MESSAGE_TYPES, STREAM_CATEGORY } from '../subprofile.ts';
import { ENVELOPE_RULES as R } from './rules.ts';
import {
  envelopeFindings,
  envelopeValidator,
  knownAepTypes,
  payloadFindings,
  registryEntry,
  requiredMembers,
} from './validators.ts';
import { NEAREST_MAX_LENGTH, nearestWord } from '../../core/nearest.ts';
import { TextMemo } from '../../core/text-memo.ts';

const VENDOR_GRAMMAR = 'x.{vendor}.{category}.{rest}';

/** The registered type an unregistered core type is close to (a typo's likely meaning), `''` when none is; per type. */
const nearestRegistered = new TextMemo<string>(256, NEAREST_MAX_LENGTH);

const SCHEMA_RULES = new Map<string, RuleMeta>(Object.values(R).map((r) => [r.id, r]));

/** The rule a schema annotation names (every `x-rule` of schemas/aep is one of {@link ENVELOPE_RULES}). */
function schemaRule(id: string): RuleMeta {
  const r = SCHEMA_RULES.get(id);
  if (!r) throw new Error(`schema annotation names ${id}, which is not an AEP schema rule`);
  return r;
}

/** The session-scoped branch of the envelope fast path (src/aep/schema/envelope-fast.ts). */
const SESSION_BRANCH = 3;

/**
 * Check one event's envelope, type and payload (AEP-0001 §5-§8, AEP-0002 §3-§5); the AepEvent when the envelope is
 * valid. `profile`: `aep-0007` adds the `stream` category and registers the AEP-0007 types (src/aep/subprofile.ts).
 */
export function checkAepEvent(
  ev: ParsedEvent,
  sink: FindingSink,
  info?: AepTypeInfo,
  profile?: string,
): AepEvent | undefined {
  const v = ev.value;
  if (ev.duplicates.length > 0 && reportDuplicates(ev, sink)) return undefined;
  const stream = profile === 'aep-0007' && typeof v.type === 'string' && STREAM_CATEGORY.test(v.type);
  let untrusted: ReadonlySet<string> | undefined;
  if (stream) {
    // AEP-0007 §2 adds `stream` to the closed category set; its events are session-scoped like any other
    if (!envelopeSurelyValid(v, SESSION_BRANCH) && !envelopeValidator()(standIn(v))) {
      streamEnvelopeFindings(ev, sink);
      return undefined;
    }
  } else if (!envelopeSurelyValid(v, info?.branch) && !envelopeValidator()(v)) {
    const found = envelopeFindings(v);
    // the scope class follows from the type (AEP-0001 §5.2): of a type refused itself (§6 grammar, AEP-0002 §4
    // registry) it is a guess whose advice (add session and seq) would mislead, so only the type is reported
    const grammarFailed = found.some((f) => f.pointer === '/type');
    const type = typeof ev.value.type === 'string' ? ev.value.type : undefined;
    const unregistered = !grammarFailed && type !== undefined && unregisteredCore(type, info, profile);
    for (const f of found) {
      if ((grammarFailed || unregistered) && f.ruleId.startsWith('aep/scope-')) continue;
      report(sink, ev, schemaRule(f.ruleId), f.pointer, f.messageId, f.args);
    }
    if (unregistered) {
      reportUnregistered(ev, sink, type);
      return undefined;
    }
    untrusted = untrustedMembers(found);
    if (!untrusted) return undefined;
    if (untrusted.has('type')) {
      const w = ev.value;
      if ((!exactCounter(w.seq) || !exactCounter(w.epoch)) && inexactCounters(ev, sink)) return undefined;
      return ofUnknownType(ev, untrusted);
    }
  }
  // seq/epoch that JSON.parse cannot hold exactly (1e400, 9007199254740993.0): decide from the literal
  // a valid envelope has a string type: its info, unless the caller had it
  const ti = info ?? typeInfo(v.type as string);
  if (!exactCounter(v.seq) || !exactCounter(v.epoch))
    return inexactCounters(ev, sink) ? undefined : checked(ev, sink, ti, profile, untrusted);
  return checked(ev, sink, ti, profile, untrusted);
}

/** A core-namespace type the registry (and the profile's additions) lacks: `aep/type-unregistered`, AEP-0002 §4. */
function unregisteredCore(type: string, info: AepTypeInfo | undefined, profile: string | undefined): boolean {
  if (type.startsWith('x.') || (profile === 'aep-0007' && isSubprofileType(type))) return false;
  return (info?.type === type ? info : typeInfo(type)).entry === undefined;
}

/** Report an unregistered core type, with the registered type it is close to when one is. */
function reportUnregistered(ev: ParsedEvent, sink: FindingSink, type: string): void {
  const nearest = nearestRegistered.of(type, () => nearestWord(type, knownAepTypes(), true) ?? '');
  if (nearest) report(sink, ev, R.typeUnregistered, '/type', 'near', { type, nearest, grammar: VENDOR_GRAMMAR });
  else report(sink, ev, R.typeUnregistered, '/type', 'unregistered', { type, grammar: VENDOR_GRAMMAR });
}

/** The envelope of a `stream.*` event with its type read as a session-scoped 0.1 type (`session.stream.delta`). */
function standIn(v: Record<string, unknown>): Record<string, unknown> {
  return { ...v, type: `session.${String(v.type)}` };
}

/** The envelope findings of a `stream.*` event under the profile, its own type named in every sentence. */
function streamEnvelopeFindings(ev: ParsedEvent, sink: FindingSink): void {
  const type = String(ev.value.type);
  const shown = `session.${type}`;
  for (const f of envelopeFindings(standIn(ev.value))) {
    const args = Object.fromEntries(Object.entries(f.args).map(([k, a]) => [k, a === shown ? type : a]));
    report(sink, ev, schemaRule(f.ruleId), f.pointer, f.messageId, args);
  }
}

/** The members that place the event (AEP-0001 §5.1, §7): a failure of one of them refuses the event. */
const POSITION: ReadonlySet<string> = new Set(['aep', 'id', 'source', 'session', 'seq', 'epoch']);

/** What `found` is about, `undefined` when it places the event (README §Decisions on a partly broken envelope). */
function untrustedMembers(found: readonly { ruleId: string; pointer: string }[]): ReadonlySet<string> | undefined {
  const out = new Set<string>();
  // the scope class is the type's (§5.2): with the type unknown, a scope finding judges nothing about the position
  const typeFailed = found.some((f) => f.pointer === '/type');
  for (const f of found) {
    if (f.ruleId.startsWith('aep/scope-')) {
      if (typeFailed) continue;
      return undefined;
    }
    const slash = f.pointer.indexOf('/', 1);
    const member = unescapePointerToken(slash < 0 ? f.pointer.slice(1) : f.pointer.slice(1, slash));
    if (f.pointer === '' || POSITION.has(member)) return undefined;
    out.add(member);
  }
  return out;
}

/** An event whose `type` failed at a trustworthy position: type `''`, no payload check, its position kept. */
function ofUnknownType(ev: ParsedEvent, untrusted: ReadonlySet<string>): AepEvent {
  const v = ev.value;
  const out = ev as AepEvent;
  out.type = '';
  out.capture = (
    untrusted.has('capture') ? 'full' : typeof v.capture === 'string' ? v.capture : 'metadata'
  ) as AepCaptureLevel;
  out.payloadValid = false;
  out.registered = false;
  out.info = undefined;
  out.untrusted = untrusted;
  return out;
}

const unescapePointerToken = (t: string): string => t.replace(/~1/g, '/').replace(/~0/g, '~');

/** An absent or safe-integer counter, or one that is not a number (no literal to decide from). */
const exactCounter = (n: unknown): boolean => typeof n !== 'number' || Number.isSafeInteger(n);

function report(
  sink: FindingSink,
  ev: ParsedEvent,
  rule: RuleMeta,
  pointer: string,
  messageId: string,
  args: MessageArgs,
): void {
  sink(makeFinding(rule, { pointer, messageId, args }, ev));
}

/** Report `seq` / `epoch` numbers whose literal is no exact integer; true when one is not. */
function inexactCounters(ev: ParsedEvent, sink: FindingSink): boolean {
  const v = ev.value;
  let inexact = false;
  for (const name of ['seq', 'epoch'] as const) {
    const n = v[name];
    if (typeof n !== 'number' || Number.isSafeInteger(n) || ev.bigIntegers.some((b) => b.pointer === '/' + name))
      continue;
    const literal = numberLiteralAt(ev.text, '/' + name);
    const exact = literal === undefined ? undefined : exactIntegerOfLiteral(literal);
    if (typeof exact === 'bigint') continue;
    inexact = true;
    const kind = exact === 'too-large' ? 'large' : 'fraction';
    const long = literal === undefined || literal.length > 40;
    report(sink, ev, R.counter, '/' + name, long ? `${kind}-long` : kind, {
      name,
      literal: literal ?? '',
      length: literal?.length ?? 0,
      max: MAX_EXACT_EXPONENT,
    });
  }
  return inexact;
}

/** The type, payload and capture checks of an event with a valid envelope and exact counters. */
function checked(
  ev: ParsedEvent,
  sink: FindingSink,
  info: AepTypeInfo,
  profile?: string,
  untrusted?: ReadonlySet<string>,
): AepEvent | undefined {
  const v = ev.value;
  const type = info.type;
  const entry = info.entry;
  // AEP-0007 §8: under the profile the two message.* move from reserved to optional and the three stream.* are added
  const sub = profile === 'aep-0007' && isSubprofileType(type);
  if (!type.startsWith('x.') && !entry && !sub) {
    reportUnregistered(ev, sink, type);
    return undefined;
  }
  if (entry?.status === 'reserved' && !(sub && MESSAGE_TYPES.has(type)))
    report(sink, ev, R.typeReserved, '/type', 'reserved', { type });
  let payloadValid = !untrusted?.has('data');
  const data = payloadValid ? v.data : undefined;
  // at capture `none` every member is above the level (AEP-0002 §5.1 rule 1): an empty `data` owes none, as an absent
  // one; under a broken capture it may be that case, so its verdict is withheld (README §Decisions on a partly broken envelope)
  const noneMayApply = v.capture === 'none' || untrusted?.has('capture') === true;
  if (data !== undefined && entry && !(noneMayApply && isObj(data) && Object.keys(data).length === 0)) {
    const pv = info.payload;
    if (pv && !pv(data)) {
      payloadValid = false;
      for (const f of payloadFindings(type, data, { base: '/data' })) {
        // a fixed sentence's own full stop gives way to the payload's ending
        const args = f.messageId === 'x-message' ? { ...f.args, text: String(f.args.text).replace(/\.$/, '') } : f.args;
        report(sink, ev, schemaRule(f.ruleId), f.pointer, `payload.${f.messageId}`, { ...args, type });
      }
    }
  }
  // an unknown capture gates nothing: `full` owes no placeholder and holds every member (README §Decisions on a partly
  // broken envelope); which members it owes is unknown, so their absence is no finding either
  const captureKnown = !untrusted?.has('capture');
  const capture = (!captureKnown ? 'full' : typeof v.capture === 'string' ? v.capture : 'metadata') as AepCaptureLevel;
  // `data` is OPTIONAL (AEP-0001 §5.1 #17) but owes its type's required members gated at or below the capture (AEP-0002
  // §5.1 rule 1).
  if (v.data === undefined && entry && capture !== 'none' && captureKnown) {
    for (const m of requiredMembers(type)) {
      if (CAPTURE_RANK[m.level] > CAPTURE_RANK[capture]) continue;
      payloadValid = false;
      report(sink, ev, schemaRule(m.finding.ruleId), m.finding.pointer, 'no-data', { member: m.name, type, capture });
    }
  }
  const out = ev as AepEvent;
  out.type = type;
  out.capture = capture;
  out.payloadValid = payloadValid;
  out.registered = entry !== undefined || sub;
  out.info = info;
  if (sub) out.subprofile = true;
  out.untrusted = untrusted;
  return out;
}

/** Report repeated member names (RFC 8259 §4); true when an envelope attribute repeats, which rejects the event. */
function reportDuplicates(ev: ParsedEvent, sink: FindingSink): boolean {
  let envelopeDup = false;
  // duplicates come in text order: count bytes incrementally (a line of a million repeats
  // must not cost a million prefix re-encodings)
  let upTo = 0;
  let bytes = 0;
  const differing = payloadCopies(ev.duplicates, ev.text, ev.value.type);
  for (const d of ev.duplicates) {
    const top = d.pointer.split('/').length === 2;
    if (top) envelopeDup = true;
    if (d.index < upTo) {
      upTo = 0;
      bytes = 0;
    }
    bytes += Buffer.byteLength(ev.text.slice(upTo, d.index));
    upTo = d.index;
    const at: Location = {
      source: ev.source,
      line: ev.line,
      column: d.index + 1,
      byteOffset: ev.byteOffset + bytes,
      pointer: d.pointer,
    };
    const member = d.key;
    if (top) sink(framingFinding('json/duplicate-key', at, 'envelope', { key: member }));
    else if (differing?.has(d.pointer)) {
      // one finding per member: its first repeat
      const copies = differing.get(d.pointer)!;
      if (copies === 0) continue;
      differing.set(d.pointer, 0);
      sink(makeFinding(R.payloadDuplicateConflict, { at, messageId: 'conflict', args: { member, copies } }));
    } else {
      const messageId = differing === null ? 'unchecked' : 'equal';
      sink(makeFinding(R.payloadDuplicate, { at, messageId, args: { member } }));
    }
  }
  return envelopeDup;
}

/** Repeated payload members whose copies differ, with counts; `null` for an opaque vendor payload. */
function payloadCopies(
  dups: readonly DuplicateKey[],
  text: string,
  type: unknown,
): Map<string, number> | null | undefined {
  if (typeof type !== 'string' || type.startsWith('x.') || !registryEntry(type)?.schema) return null;
  const pointers = dups.filter((d) => d.pointer.split('/').length > 2).map((d) => d.pointer);
  return pointers.length === 0 ? undefined : differingCopies(text, pointers);
}

/**
 * A refused event for the identity analyzer when `(source, id)` is trustworthy (AEP-0001 §5.1 #1, #2, #6: `aep` "0.1",
 * a non-empty `id`, a URI `source`, no repeated envelope attribute), else `undefined`.
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
