/**
 * A fast pass of the wire root for the dominant message shapes: a `hooks/intercept` request whose capabilities
 * advertise plain effects (and a `modify` block), a `hooks/observe` notification, and an intercept success response.
 * The JSON-RPC shell and capabilities are checked here, the event by its own type's validator
 * (`events.schema.json#/$defs/<type>`): `event` and `interceptableEvent` are `allOf` of `if type = T then T`
 * (schemas/ahp/events.schema.json), so for a listed type only its branch applies. It says "passes" or "not sure", never
 * "fails": anything else goes to the whole validator (test/ahp/wire-verdict.test.ts holds the two together).
 */
import { isObj, type Obj } from '../../core/value.ts';
import { ahpSchemas } from './schemas.ts';

type Check = (value: unknown) => boolean;

interface FastTables {
  /** Event validators by type, for the catalogue and for the interceptable subset. */
  observe: Map<string, Check>;
  intercept: Map<string, Check>;
  /** Effects each interceptable type may advertise (bounds ∩ core effects) and its modify targets, if bounded. */
  effects: Map<string, ReadonlySet<string>>;
  targets: Map<string, ReadonlySet<string>>;
  effect: Check;
}

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
  return {
    observe: new Map(all.map((t) => [t, checkOf(t)])),
    intercept: new Map(interceptable.filter((t) => effects.has(t)).map((t) => [t, checkOf(t)])),
    effects,
    targets,
    effect: reg.check('effects.schema.json#/$defs/effect'),
  };
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

/** `params.capabilities` of an intercept of type `type`: `effects` (unique, bounded) and the `modify` block it needs. */
function capabilitiesPass(caps: unknown, type: string, t: FastTables): boolean {
  if (!isObj(caps) || !only(caps, 'effects', 'modify')) return false;
  const list = caps.effects;
  const allowed = t.effects.get(type);
  if (!Array.isArray(list) || !allowed) return false;
  let modify = false;
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    if (typeof e !== 'string' || !allowed.has(e)) return false;
    for (let j = 0; j < i; j++) if (list[j] === e) return false;
    if (e === 'modify') modify = true;
  }
  const block = caps.modify;
  if (block === undefined) return !modify;
  const targets = t.targets.get(type);
  if (!modify || !targets || !isObj(block)) return false;
  let n = 0;
  for (const k in block) {
    if (!targets.has(k) || !isModifyOperations(block[k])) return false;
    n++;
  }
  return n > 0;
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
    if (!isObj(ev) || typeof ev.type !== 'string') return false;
    const check = t.intercept.get(ev.type);
    return check !== undefined && capabilitiesPass(p.capabilities, ev.type, t) && check(ev);
  }
  if (v.method === 'hooks/observe') {
    if (!only(v, 'jsonrpc', 'method', 'params')) return false;
    const p = v.params;
    if (!isObj(p) || !only(p, 'protocolVersion', 'event') || p.protocolVersion !== 'draft') return false;
    const ev = p.event;
    if (!isObj(ev) || typeof ev.type !== 'string') return false;
    const check = t.observe.get(ev.type);
    return check?.(ev) === true;
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
