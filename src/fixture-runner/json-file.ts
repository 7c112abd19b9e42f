/**
 * Fixture configuration files (the AHP manifest, the AEP corpus's case lists, sidecars, deviations) read as JSON with
 * each fault placed: a syntax error at `FILE:LINE:COLUMN`, a wrong shape at its JSON Pointer with what was expected.
 */
import { readFileSync } from 'node:fs';
import type { ZodIssue } from 'zod';
import { ConformanceError, ioReason } from '../core/errors.ts';
import { parseJsonText } from '../core/json.ts';
import { pointerOf } from '../core/pointer.ts';

/** Thrown for a fixture directory that cannot be run at all (layout, manifest, I/O): exit 2. */
export class FixtureError extends ConformanceError {
  constructor(message: string) {
    super('config', message);
  }
}

/** A JSON file's text and value. */
export interface JsonDoc {
  text: string;
  value: unknown;
}

/** `FILE:L:C: not valid JSON (why)` for a failed {@link parseJsonText} of `text`, which starts at line `firstLine`. */
export function jsonSyntaxError(
  shown: string,
  text: string,
  failed: Extract<ReturnType<typeof parseJsonText>, { ok: false }>,
  firstLine = 1,
): string {
  const before = text.slice(0, Math.max(0, Math.min(failed.index, text.length)));
  const line = before.split('\n').length + firstLine - 1;
  const column = before.length - before.lastIndexOf('\n');
  const why = failed.kind === 'invalid-json' ? failed.message : `nested deeper than ${failed.depth} levels`;
  return `${shown}:${line}:${column}: not valid JSON (${why})`;
}

/** Read and parse `path` (named `shown`). @throws what `fail` makes of the message (a FixtureError by default). */
export function readJsonDoc(
  path: string,
  shown: string,
  fail: (message: string) => Error = (m) => new FixtureError(m),
): JsonDoc {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw fail(`cannot read ${shown}: ${ioReason(e)}`);
  }
  const parsed = parseJsonText(text, Number.MAX_SAFE_INTEGER);
  if (!parsed.ok) throw fail(jsonSyntaxError(shown, text, parsed));
  return { text, value: parsed.value };
}

/** A JSON value's kind in words: `an object`, `an array`, `a string`, `null`... */
export function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : typeof v === 'undefined' ? 'nothing' : `a ${typeof v}`;
}

/** zod's type names (`object`, `boolean`, `null`) with their article, as {@link jsonKind} says them. */
function withArticle(t: string): string {
  return t === 'null' || t === 'undefined' ? t : /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}

/** `where: what` for `pointer` (`top level` for the root). */
export function atPointer(pointer: string, what: string): string {
  return `${pointer === '' ? 'top level' : pointer}: ${what}`;
}

/**
 * One zod issue as `POINTER: what` (`top level` at the root; `rootShape` names what the root must be), a missing
 * member said as missing and a wrong type as expected and found.
 */
export function issueText(issue: ZodIssue, rootShape?: string): string {
  const pointer = pointerOf(issue.path);
  if (issue.code !== 'invalid_type') return atPointer(pointer, issue.message);
  if (issue.received === 'undefined') return atPointer(pointer, `missing; expected ${withArticle(issue.expected)}`);
  const expected = pointer === '' && rootShape ? rootShape : withArticle(issue.expected);
  return atPointer(pointer, `expected ${expected}, found ${withArticle(issue.received)}`);
}

/** A case entry of a corpus file: an object. */
export type CaseObject = Record<string, unknown>;

const isObject = (v: unknown): v is CaseObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The case lists `keys` of a corpus file (`{"cases": [...]}`, or `text_cases` and `value_cases`): at least one is
 * present, each present one is an array of objects, and not all are empty (a file of no case checks nothing).
 * @throws FixtureError `FILE: POINTER: what`, for the first fault.
 */
export function caseLists(doc: JsonDoc, shown: string, keys: readonly string[]): Record<string, CaseObject[]> {
  const shape = `{${keys.map((k) => `"${k}": [...]`).join(', ')}}`;
  const fail = (pointer: string, what: string) => new FixtureError(`${shown}: ${atPointer(pointer, what)}`);
  const v = doc.value;
  if (!isObject(v)) throw fail('', `expected an object ${shape}, found ${jsonKind(v)}`);
  const present = keys.filter((k) => Object.hasOwn(v, k));
  if (present.length === 0)
    throw keys.length === 1
      ? fail(pointerOf(keys), 'missing; expected an array')
      : fail('', `no ${keys.map((k) => `"${k}"`).join(' or ')} member; expected an object ${shape}`);
  const out: Record<string, CaseObject[]> = {};
  for (const k of present) {
    const list = v[k];
    const at = pointerOf([k]);
    if (!Array.isArray(list)) throw fail(at, `expected an array, found ${jsonKind(list)}`);
    const i = list.findIndex((c) => !isObject(c));
    if (i !== -1) throw fail(`${at}/${i}`, `expected an object, found ${jsonKind(list[i])}`);
    out[k] = list as CaseObject[];
  }
  if (present.every((k) => out[k]!.length === 0))
    throw fail(
      present.map((k) => pointerOf([k])).join(' and '),
      `${present.length > 1 ? 'every list is empty' : 'an empty list'}: the file holds no case, so it checks nothing`,
    );
  return out;
}

/** Line `line` (1-based) of a JSON Lines file parsed. @throws FixtureError `FILE:LINE:COLUMN: not valid JSON (why)`. */
export function parseJsonLine(text: string, shown: string, line: number): unknown {
  const parsed = parseJsonText(text, Number.MAX_SAFE_INTEGER);
  if (parsed.ok) return parsed.value;
  throw new FixtureError(jsonSyntaxError(shown, text, parsed, line));
}

/** The non-blank lines of a JSON Lines file, each with its 1-based line number. */
export function jsonLines(text: string): { text: string; line: number }[] {
  return text.split('\n').flatMap((t, i) => (t.trim() === '' ? [] : [{ text: t, line: i + 1 }]));
}
