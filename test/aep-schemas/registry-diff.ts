/**
 * A semantic diff of our AEP schemas (schemas/aep/) against the upstream machine-readable
 * registry (`schemas/aep-event.schema.json`, `schemas/types/*.schema.json`,
 * `schemas/registry/*.json` of the AEP repository), which AEP-0002 (Abstract) makes
 * authoritative over the prose. Used by registry.test.ts with schemas/aep/deviations.json.
 *
 * Semantic, not textual: annotation keywords that decide no verdict are ignored ($comment,
 * title, description, $id, $schema, examples, and our x-rule / x-message / x-spec); `required`
 * and `enum` are compared as sets; `type: "string"` beside an `enum` of strings is implied by
 * the enum and dropped. Everything else (`default`, `x-aep-capture`, every validation keyword,
 * member names under `properties`) is compared. Arrays of subschemas (`allOf`, ...) are
 * compared item by item when their lengths agree, else reported once as `changed`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One difference: where (`schema` = `envelope`, a type, or `registry`; RFC 6901 `pointer` into ours) and what. */
export interface SchemaDiff {
  schema: string;
  pointer: string;
  /** `added`: ours only; `removed`: upstream only; `changed`: both, different. */
  kind: 'added' | 'removed' | 'changed';
  ours?: unknown;
  upstream?: unknown;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const ANNOTATIONS = new Set([
  '$comment',
  'title',
  'description',
  '$id',
  '$schema',
  'examples',
  'x-rule',
  'x-message',
  'x-spec',
]);
/** Keywords whose value is a map of names to subschemas (the names are data, not keywords). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const SETS = new Set(['required', 'enum']);
const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A schema without the keywords that decide nothing, and without `type` implied by an enum of strings. */
function keywords(s: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) if (!ANNOTATIONS.has(k)) out[k] = v;
  if (out.type === 'string' && Array.isArray(out.enum) && out.enum.every((x) => typeof x === 'string')) delete out.type;
  return out;
}

function diffSchema(ours: unknown, up: unknown, schema: string, ptr: string, out: SchemaDiff[]): void {
  if (!isObj(ours) || !isObj(up)) {
    if (!same(ours, up)) out.push({ schema, pointer: ptr, kind: 'changed', ours, upstream: up });
    return;
  }
  const a = keywords(ours);
  const b = keywords(up);
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const p = `${ptr}/${esc(k)}`;
    if (!(k in b)) out.push({ schema, pointer: p, kind: 'added', ours: a[k] });
    else if (!(k in a)) out.push({ schema, pointer: p, kind: 'removed', upstream: b[k] });
    else if (SETS.has(k) && Array.isArray(a[k]) && Array.isArray(b[k])) {
      const sa = new Set((a[k] as unknown[]).map((x) => JSON.stringify(x)));
      const sb = new Set((b[k] as unknown[]).map((x) => JSON.stringify(x)));
      const plus = [...sa].filter((x) => !sb.has(x)).map((x) => JSON.parse(x) as unknown);
      const minus = [...sb].filter((x) => !sa.has(x)).map((x) => JSON.parse(x) as unknown);
      if (plus.length) out.push({ schema, pointer: p, kind: 'added', ours: plus });
      if (minus.length) out.push({ schema, pointer: p, kind: 'removed', upstream: minus });
    } else if (SCHEMA_MAPS.has(k) && isObj(a[k]) && isObj(b[k])) {
      const ma = a[k] as Json;
      const mb = b[k] as Json;
      for (const name of new Set([...Object.keys(ma), ...Object.keys(mb)])) {
        const q = `${p}/${esc(name)}`;
        if (!(name in mb)) out.push({ schema, pointer: q, kind: 'added', ours: ma[name] });
        else if (!(name in ma)) out.push({ schema, pointer: q, kind: 'removed', upstream: mb[name] });
        else diffSchema(ma[name], mb[name], schema, q, out);
      }
    } else if (Array.isArray(a[k]) && Array.isArray(b[k]) && (a[k] as unknown[]).some(isObj)) {
      const xa = a[k] as unknown[];
      const xb = b[k] as unknown[];
      if (xa.length !== xb.length) out.push({ schema, pointer: p, kind: 'changed', ours: xa, upstream: xb });
      else for (const [i, x] of xa.entries()) diffSchema(x, xb[i], schema, `${p}/${i}`, out);
    } else if (isObj(a[k]) || isObj(b[k])) diffSchema(a[k], b[k], schema, p, out);
    else if (!same(a[k], b[k])) out.push({ schema, pointer: p, kind: 'changed', ours: a[k], upstream: b[k] });
  }
}

const read = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Json;
const OURS = fileURLToPath(new URL('../../schemas/aep/', import.meta.url));

/** The registry rows and closed sets that decide verdicts, ours and upstream, in one comparable shape. */
function registryFacts(ours: Json, upDir: string): { ours: Json; upstream: Json } {
  const up = {
    types: read(join(upDir, 'registry/types.json')).types as Json[],
    categories: read(join(upDir, 'registry/categories.json')).categories as Json[],
    capture: read(join(upDir, 'registry/capture.json')),
    severity: read(join(upDir, 'registry/severity.json')),
    nack: read(join(upDir, 'registry/nack-reasons.json')),
  };
  const rows = (list: Json[]) =>
    Object.fromEntries(list.map((t) => [t.type as string, { status: t.status, scope: t.scope, schema: t.schema }]));
  const cats = (list: Json[]) => Object.fromEntries(list.map((c) => [c.name as string, { scope: c.scope }]));
  const o = ours as { types: Json[]; categories: { list: Json[] }; capture: Json; severity: Json; nackReasons: Json };
  return {
    ours: {
      types: rows(o.types),
      categories: cats(o.categories.list),
      capture: { order: o.capture.order, default: o.capture.default },
      severity: { order: o.severity.order, default: o.severity.default },
      nackReasons: { enum: o.nackReasons.reasons },
    },
    upstream: {
      types: rows(up.types),
      categories: cats(up.categories),
      capture: { order: up.capture.order, default: up.capture.default },
      severity: { order: up.severity.order, default: up.severity.default },
      nackReasons: { enum: up.nack.reasons },
    },
  };
}

/** Every semantic difference between our schemas and the upstream registry in `upDir` (its `schemas/` folder). */
export function diffAgainstRegistry(upDir: string): SchemaDiff[] {
  const out: SchemaDiff[] = [];
  diffSchema(read(join(OURS, 'envelope.schema.json')), read(join(upDir, 'aep-event.schema.json')), 'envelope', '', out);
  const ourTypes = new Set(readdirSync(join(OURS, 'types')));
  const upTypes = new Set(readdirSync(join(upDir, 'types')));
  for (const f of new Set([...ourTypes, ...upTypes])) {
    const schema = f.replace(/\.schema\.json$/, '');
    if (!upTypes.has(f)) out.push({ schema, pointer: '', kind: 'added' });
    else if (!ourTypes.has(f)) out.push({ schema, pointer: '', kind: 'removed' });
    else diffSchema(read(join(OURS, 'types', f)), read(join(upDir, 'types', f)), schema, '', out);
  }
  const reg = registryFacts(read(join(OURS, 'registry.json')), upDir);
  diffSchema(reg.ours, reg.upstream, 'registry', '', out);
  return out;
}

/** The schema comparator alone, on two schema values (its own tests). */
export function diffSchemaForTest(ours: unknown, upstream: unknown): SchemaDiff[] {
  const out: SchemaDiff[] = [];
  diffSchema(ours, upstream, 'test', '', out);
  return out;
}
