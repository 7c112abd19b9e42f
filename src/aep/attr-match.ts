/**
 * The `attr-match` filter dialect (AEP-0003 §6), fail closed; where §6 is open the maintainers' cases decide (`*`
 * outside `type` is refused).
 */
import { ConformanceError } from '../core/errors.ts';
import { parseJsonText } from '../core/json.ts';
import { nearestWord } from '../core/nearest.ts';
import { AEP_SEVERITIES } from './bridges/types.ts';

/** AEP-0003 §6.2 rule 1: the filterable core attributes. */
export const FILTERABLE_CORE: readonly string[] = [
  'id',
  'type',
  'subject',
  'source',
  'agent',
  'session',
  'run',
  'step',
  'epoch',
  'cause',
  'severity',
  'capture',
];
/** AEP-0003 §6.2 rule 1: core attributes that are NOT filterable. */
export const NOT_FILTERABLE: readonly string[] = ['time', 'seq', 'aep', 'traceparent', 'data'];

/** A filter refused under AEP-0003 §6.2 rule 1 / §6.5 `invalid-filter`. */
export class InvalidFilterError extends ConformanceError {
  /** The §6.5 error code. */
  readonly code = 'invalid-filter';
  constructor(readonly reason: string) {
    super('usage', `invalid filter: ${reason}`);
  }
}

type Scalar = string | number | boolean;

/** One member of a parsed filter. */
export type Predicate =
  | { key: string; kind: 'any'; values: Scalar[] }
  | { key: 'type'; kind: 'type'; exact: Scalar[]; prefixes: string[] }
  | { key: 'severity'; kind: 'band'; gte?: number; lte?: number };

/** A parsed `attr-match` filter: the conjunction of its predicates (`[]` matches everything). */
export interface AttrFilter {
  predicates: Predicate[];
}

const isScalar = (v: unknown): v is Scalar =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isInteger(v));
const LEVEL = new Map<string, number>(AEP_SEVERITIES.map((s, i) => [s, i]));
/** AEP-0001 §5.1 defaults applied before matching (AEP-0003 §6.2 rule 5). */
const DEFAULTS: Readonly<Record<string, Scalar>> = { severity: 'info', capture: 'metadata', epoch: 0 };

/** Parse a filter (JSON text or value). @throws InvalidFilterError with the reason. */
export function parseFilter(input: string | unknown): AttrFilter {
  let v: unknown = input;
  if (typeof input === 'string') {
    const out = parseJsonText(input, 64);
    if (!out.ok)
      throw new InvalidFilterError(out.kind === 'invalid-json' ? `not JSON (${out.message})` : 'nested too deeply');
    if (out.duplicates.length)
      throw new InvalidFilterError(`member "${out.duplicates[0]!.key.slice(0, 40)}" appears more than once`);
    v = out.value;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new InvalidFilterError('a filter is a JSON object');
  const predicates: Predicate[] = [];
  for (const [key, p] of Object.entries(v as Record<string, unknown>)) {
    if (NOT_FILTERABLE.includes(key)) throw new InvalidFilterError(`"${key}" is not filterable (AEP-0003 §6.2 rule 1)`);
    if (!FILTERABLE_CORE.includes(key) && !/^[a-z0-9]{1,20}$/.test(key))
      throw new InvalidFilterError(
        `key "${key.slice(0, 40)}" is neither a filterable core attribute nor a legal extension attribute name`,
      );
    if (key === 'severity' && p !== null && typeof p === 'object' && !Array.isArray(p)) {
      const o = p as Record<string, unknown>;
      const ops = Object.keys(o);
      if (ops.length === 0 || ops.some((k) => k !== 'gte' && k !== 'lte'))
        throw new InvalidFilterError('a severity comparison has "gte", "lte" or both, and nothing else');
      const band: Predicate = { key: 'severity', kind: 'band' };
      for (const op of ['gte', 'lte'] as const) {
        if (!(op in o)) continue;
        const x = o[op];
        const n = typeof x === 'string' ? LEVEL.get(x) : undefined;
        if (n === undefined) {
          const near = typeof x === 'string' ? nearestWord(x, AEP_SEVERITIES, true) : undefined;
          throw new InvalidFilterError(
            `the severity "${op}" value ${JSON.stringify(x)?.slice(0, 40)} is not one of ${AEP_SEVERITIES.join(', ')}${near ? ` (did you mean "${near}"?)` : ''}`,
          );
        }
        band[op] = n;
      }
      predicates.push(band);
      continue;
    }
    const values = Array.isArray(p) ? p : [p];
    if (values.length === 0) throw new InvalidFilterError(`the inclusion array of "${key}" is empty`);
    for (const x of values)
      if (!isScalar(x))
        throw new InvalidFilterError(
          `the value of "${key}" is not a string, integer or boolean${Array.isArray(p) ? ' (in its inclusion array)' : ''}`,
        );
    if (key === 'type') {
      const exact: Scalar[] = [];
      const prefixes: string[] = [];
      for (const x of values) {
        if (typeof x !== 'string' || !x.includes('*')) exact.push(x);
        else if (x.endsWith('.*') && x.length > 2 && !x.slice(0, -2).includes('*')) prefixes.push(x.slice(0, -2));
        else
          throw new InvalidFilterError(
            x === '*'
              ? '"*" alone is not a type pattern (omit "type" or use {})'
              : 'a type pattern is a prefix followed by ".*"',
          );
      }
      predicates.push({ key: 'type', kind: 'type', exact, prefixes });
      continue;
    }
    if (values.some((x) => typeof x === 'string' && x.includes('*')))
      throw new InvalidFilterError(`patterns apply only to "type"; the value of "${key}" has a "*"`);
    predicates.push({ key, kind: 'any', values: values as Scalar[] });
  }
  return { predicates };
}

/** AEP-0003 §6.2: true when every predicate of `filter` matches `event` (a possibly partial event). */
export function matches(filter: AttrFilter, event: Readonly<Record<string, unknown>>): boolean {
  for (const p of filter.predicates) {
    const v = Object.hasOwn(event, p.key) ? event[p.key] : DEFAULTS[p.key];
    if (v === undefined) return false;
    if (p.kind === 'band') {
      const n = typeof v === 'string' ? LEVEL.get(v) : undefined;
      if (n === undefined || (p.gte !== undefined && n < p.gte) || (p.lte !== undefined && n > p.lte)) return false;
    } else if (p.kind === 'type') {
      if (
        !p.exact.some((x) => x === v) &&
        !(typeof v === 'string' && p.prefixes.some((x) => v.length > x.length + 1 && v.startsWith(x + '.')))
      )
        return false;
    } else if (!p.values.some((x) => x === v)) return false;
  }
  return true;
}
