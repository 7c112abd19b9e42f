/** Reading the upstream AEP corpus's case files: JSON with its errors named, case ids and lines. */
import { readJsonDoc } from './json-file.ts';

/** The JSON value of the file at `path`; @throws FixtureError naming `shown` (a syntax error at its line and column). */
export function readJsonFile(path: string, shown: string): unknown {
  return readJsonDoc(path, shown).value;
}

/** 1-based line of the first `"name": <name>` member in `text` (to point annotations at a case). */
export function lineOfName(text: string, name: string): number | undefined {
  const needle = new RegExp(`"name"\\s*:\\s*${JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  const m = needle.exec(text);
  if (!m) return undefined;
  let line = 1;
  for (let i = 0; i < m.index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Unique ids: a repeated name gets ` #2`, ` #3`, ... */
export function uniqueIds(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return k === 1 ? n : `${n} #${k}`;
  });
}

/** Plain JSON data (drops prototypes and undefined members) so deep equality compares values only. */
export function normalise(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}
