/**
 * A fast pass of the wire root for the dominant message shapes (a `hooks/intercept` request, a `hooks/observe`
 * notification, an intercept success response): the JSON-RPC shell and capabilities here, the event by its own type's
 * validator. It says "passes" or "not sure", never "fails": anything else goes to the whole validator
 * (test/ahp/wire-verdict.test.ts holds the two together). For JSON.parse values only (own, enumerable data members).
 */
import { fnv32 } from '../../core/canonical.ts';
import { MEMO_FORMATS } from '../../core/schema/memo-pattern.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { ahpSchemas } from './schemas.ts';

type Check = (value: unknown) => boolean;

/** What the pass knows of one catalogue event type (one lookup a message). */
interface TypeTables {
  /** The event's validator (`events.schema.json#/$defs/<type>`). */
  check: Check;
  /** Interceptable types only: the effects it may advertise (bounds ∩ core effects) and its modify targets, if bounded. */
  effects?: ReadonlySet<string>;
  targets?: ReadonlySet<string>;
  /** The type's overlay (`events.schema.json#/$defs/<type>` is `allOf` [envelope, overlay]). */
  overlay?: Check;
  /** Whether its events may carry `tool` (the envelope's second `allOf` condition). */
  tool: boolean;
}

interface FastTables {
  /** Every catalogue type, and the interceptable subset this pass reads. */
  observe: Map<string, TypeTables>;
  intercept: Map<string, TypeTables>;
  effect: Check;
  /** The common definitions the envelope names, when the envelope is the one {@link envelopePass} was written against. */
  common: { [K in (typeof COMMON)[number]]: Check } | undefined;
}

const COMMON = ['session', 'turn', 'gaps', 'native', 'extensions', 'synthesized'] as const;
/**
 * FNV-1a of the JSON text of `events.schema.json#/$defs/envelope` as {@link envelopePass} reads it; another envelope
 * turns the hand check off (test/ahp/wire-fast.test.ts fails until this pass is read against it again).
 */
export const ENVELOPE_PRINT = 0xb7c800a7;

let tables: FastTables | null | undefined;

const at = (node: unknown, ...path: (string | number)[]): unknown => {
  let cur = node;
  for (const k of path)
    cur = isObj(cur) || Array.isArray(cur) ? (cur as Record<string | number, unknown>)[k] : undefined;
  return cur;
};

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;

const keysIn = (node: unknown, ...keys: string[]): boolean =>
  isObj(node) && Object.keys(node).every((k) => keys.includes(k));

/** The tables read from the schema documents; null (no fast pass) when a document is not shaped as this file assumes. */
function load(): FastTables | null {
  const reg = ahpSchemas();
  const events = reg.docs.get('events.schema.json');
  const caps = reg.docs.get('capabilities.schema.json');
  const all = strings(at(events, '$defs', 'event', 'properties', 'type', 'enum'));
  const interceptable = strings(at(events, '$defs', 'interceptableEvent', 'properties', 'type', 'enum'));
  const core = strings(at(caps, '$defs', 'capabilities', 'properties', 'effects', 'items', 'anyOf', 0, 'enum'));
  if (!all || !interceptable || !core) return null;
  const effects = new Map<string, ReadonlySet<string>>();
  const targets = new Map<string, ReadonlySet<string>>();
  for (const t of interceptable) {
    const def = at(caps, '$defs', 'bounds', '$defs', t);
    const bound = at(def, 'properties');
    const allowed = strings(at(bound, 'effects', 'items', 'anyOf', 0, 'enum'));
    // only the keywords read here may bound this type (flow binds only a flow block, which this pass refuses)
    if (
      !allowed ||
      !keysIn(def, '$comment', 'properties') ||
      !keysIn(bound, 'effects', 'modify', 'flow') ||
      !keysIn(at(bound, 'effects'), 'items') ||
      !keysIn(at(bound, 'effects', 'items'), 'anyOf', 'x-message') ||
      !keysIn(at(bound, 'modify') ?? {}, 'propertyNames') ||
      !keysIn(at(bound, 'modify', 'propertyNames') ?? {}, 'enum', 'x-message')
    )
      continue;
    // flow and inject need option blocks this pass does not read
    effects.set(t, new Set(allowed.filter((e) => core.includes(e) && e !== 'flow' && e !== 'inject')));
    const modify = strings(at(bound, 'modify', 'propertyNames', 'enum'));
    if (modify) targets.set(t, new Set(modify));
  }
  const checkOf = (t: string) => reg.check(`events.schema.json#/$defs/${t}`);
  const overlay = new Map<string, Check>();
  const envelope = at(events, '$defs', 'envelope');
  const known = fnv32(JSON.stringify(envelope)) === ENVELOPE_PRINT;
  for (const t of known ? all : []) {
    const parts = at(events, '$defs', t, 'allOf');
    const ref = at(parts, 1, '$ref');
    const m = typeof ref === 'string' ? /^([a-z-]+\.schema\.json)(#\/\$defs\/[a-z.]+)$/.exec(ref) : null;
    if (!keysIn(at(events, '$defs', t), 'allOf') || (parts as unknown[]).length !== 2 || !m) continue;
    if (at(parts, 0, '$ref') !== '#/$defs/envelope' || !keysIn(at(parts, 1), '$ref')) continue;
    overlay.set(t, reg.check(`${m[1]}${m[2]}`));
  }
  const toolTypes = strings(at(envelope, 'allOf', 1, 'if', 'properties', 'type', 'not', 'enum')) ?? [];
  const observe = new Map<string, TypeTables>();
  for (const t of all) {
    const o = overlay.get(t);
    observe.set(t, { check: checkOf(t), ...(o ? { overlay: o } : {}), tool: toolTypes.includes(t) });
  }
  const intercept = new Map<string, TypeTables>();
  for (const t of interceptable) {
    const e = effects.get(t);
    const m = targets.get(t);
    const base = observe.get(t);
    if (e && base) intercept.set(t, { ...base, effects: e, ...(m ? { targets: m } : {}) });
  }
  return {
    observe,
    intercept,
    effect: reg.check('effects.schema.json#/$defs/effect'),
    common: known
      ? (Object.fromEntries(
          COMMON.map((d) => [d, reg.check(`common.schema.json#/$defs/${d}`)]),
        ) as FastTables['common'])
      : undefined,
  };
}

const isAbsoluteUri = MEMO_FORMATS['absolute-uri'];
const isDateTime = MEMO_FORMATS['date-time'];

/** A string of `common.schema.json#/$defs/nonEmptyString`. */
const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v !== '';

/** True when `events.schema.json#/$defs/envelope` surely accepts `ev` of `type`; false when not sure. */
function envelopePass(ev: Obj, tt: TypeTables, c: NonNullable<FastTables['common']>): boolean {
  // one walk over the members the event has (events of every type meet here, so a read by name of each member the
  // envelope defines, most of them absent, would go through V8's megamorphic lookup twelve times an event)
  let required = 0;
  for (const k in ev) {
    const x = ev[k];
    switch (k) {
      case 'id':
        if (!nonEmpty(x)) return false;
        required++;
        break;
      case 'source':
        if (typeof x !== 'string' || !isAbsoluteUri(x)) return false;
        required++;
        break;
      case 'time':
        if (typeof x !== 'string' || !isDateTime(x)) return false;
        required++;
        break;
      case 'session':
        if (!c.session(x)) return false;
        break;
      case 'parentEventId':
        if (!nonEmpty(x)) return false;
        break;
      case 'turn':
        if (!c.turn(x)) return false;
        break;
      case 'items':
        if (!Array.isArray(x) || x.length !== 0) return false;
        break;
      case 'gaps':
        if (!c.gaps(x)) return false;
        break;
      case 'native':
        if (!c.native(x)) return false;
        break;
      case 'extensions':
        if (!c.extensions(x)) return false;
        break;
      case 'synthesized':
        if (!c.synthesized(x)) return false;
        break;
      case 'tool':
        if (!tt.tool) return false;
        break;
    }
  }
  return required === 3;
}

/** The verdict of `events.schema.json#/$defs/<type>` on `ev`: the envelope by hand and the overlay, else `check`. */
function eventPass(ev: Obj, tt: TypeTables, t: FastTables): boolean {
  const overlay = tt.overlay;
  if (overlay === undefined || t.common === undefined || !envelopePass(ev, tt, t.common)) return tt.check(ev);
  return overlay(ev);
}

/** True when every own key of `o` is one of `keys` (a closed shape of this pass, not of the schema). */
function only(o: Obj, a: string, b?: string, c?: string, d?: string): boolean {
  for (const k in o) if (k !== a && k !== b && k !== c && k !== d) return false;
  return true;
}

/** `modify.<target>` of capabilities (capabilities.schema.json `modifyOperations`): two booleans, one true. */
function isModifyOperations(v: unknown): boolean {
  return (
    isObj(v) &&
    only(v, 'replace', 'merge') &&
    typeof v.replace === 'boolean' &&
    typeof v.merge === 'boolean' &&
    (v.replace || v.merge)
  );
}

/** `elicitation` of capabilities (capabilities.schema.json): the optional `form` and `url` mode objects. */
function isElicitationModes(v: unknown): boolean {
  return (
    isObj(v) &&
    only(v, 'form', 'url') &&
    (v.form === undefined || isObj(v.form)) &&
    (v.url === undefined || isObj(v.url))
  );
}

/**
 * `params.capabilities` of an intercept of type `type`: `effects` (unique, bounded) and the `modify` block it needs; a
 * tool.before's list holds `deny` (AHP-CAP-002; messages.schema.json `interceptParams`), else the validator decides.
 */
function capabilitiesPass(caps: unknown, tt: TypeTables, type: string): boolean {
  if (!isObj(caps) || !only(caps, 'effects', 'modify', 'elicitation')) return false;
  const modes = caps.elicitation;
  if (modes !== undefined && !(type.startsWith('user.elicitation.') && isElicitationModes(modes))) return false;
  const list = caps.effects;
  const allowed = tt.effects;
  if (!Array.isArray(list) || !allowed) return false;
  if (type === 'tool.before' && !list.includes('deny')) return false;
  let modify = false;
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    if (typeof e !== 'string' || !allowed.has(e)) return false;
    for (let j = 0; j < i; j++) if (list[j] === e) return false;
    if (e === 'modify') modify = true;
  }
  const block = caps.modify;
  if (block === undefined) return !modify;
  const targets = tt.targets;
  if (!modify || !targets || !isObj(block)) return false;
  let n = 0;
  for (const k in block) {
    if (!targets.has(k) || !isModifyOperations(block[k])) return false;
    n++;
  }
  return n > 0;
}

/** Whether events get the hand envelope check (the envelope is the one it was written against, ENVELOPE_PRINT). */
export function handEnvelopeOn(): boolean {
  if (tables === undefined) tables = load();
  return tables?.common !== undefined && [...tables.observe.values()].some((tt) => tt.overlay !== undefined);
}

/** True when the wire root surely accepts `v`; false when this pass cannot tell. */
export function fastWirePass(v: Obj): boolean {
  if (tables === undefined) tables = load();
  const t = tables;
  if (!t || v.jsonrpc !== '2.0') return false;
  if (v.method === 'hooks/intercept') {
    if (!only(v, 'jsonrpc', 'id', 'method', 'params') || typeof v.id !== 'string' || v.id === '') return false;
    const p = v.params;
    if (!isObj(p) || !only(p, 'protocolVersion', 'event', 'capabilities') || p.protocolVersion !== 'draft')
      return false;
    const ev = p.event;
    const type = isObj(ev) ? ev.type : undefined;
    if (typeof type !== 'string') return false;
    const tt = t.intercept.get(type);
    return tt !== undefined && capabilitiesPass(p.capabilities, tt, type) && eventPass(ev as Obj, tt, t);
  }
  if (v.method === 'hooks/observe') {
    if (!only(v, 'jsonrpc', 'method', 'params')) return false;
    const p = v.params;
    if (!isObj(p) || !only(p, 'protocolVersion', 'event') || p.protocolVersion !== 'draft') return false;
    const ev = p.event;
    const type = isObj(ev) ? ev.type : undefined;
    if (typeof type !== 'string') return false;
    const tt = t.observe.get(type);
    return tt !== undefined && eventPass(ev as Obj, tt, t);
  }
  // an intercept success response: a result without `manifest` fails the capabilities response, so one branch passes
  if (!only(v, 'jsonrpc', 'id', 'result') || typeof v.id !== 'string' || v.id === '') return false;
  const r = v.result;
  if (!isObj(r) || !only(r, 'protocolVersion', 'effects') || r.protocolVersion !== 'draft') return false;
  const list = r.effects;
  if (!Array.isArray(list)) return false;
  for (let i = 0; i < list.length; i++) if (!t.effect(list[i])) return false;
  return true;
}
