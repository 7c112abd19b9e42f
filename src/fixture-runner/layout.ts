/** Our layout's names: `*.jsonl` / `*.json` cases in `pass/` or `fail/`, expectations in `<stem>.expected.json`. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The sidecar suffix of a failing case. */
export const SIDECAR = '.expected.json';

const isCaseName = (n: string) => n.endsWith('.jsonl') || (n.endsWith('.json') && !n.endsWith(SIDECAR));

/** What `dir` of our layout holds: case files, and the entries that cannot be run as cases (see {@link caseEntries}). */
export interface CaseEntries {
  /** Case names (sorted) that are regular files, through a symbolic link too (as the shell's `pass/*.jsonl`). */
  files: string[];
  /** Case names that are no regular file (a folder, a FIFO, a link to nothing), with what they are. */
  broken: { name: string; why: string }[];
  /** Subfolders (sorted): their files are not cases, which are the files directly in `pass/` and `fail/`. */
  folders: string[];
}

/** The entries of `dir` (none when it is absent); a symbolic link is judged by what it names. */
export function caseEntries(dir: string): CaseEntries {
  const out: CaseEntries = { files: [], broken: [], folders: [] };
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    let kind: 'file' | 'folder' | 'other' | 'missing';
    try {
      const st = statSync(join(dir, name));
      kind = st.isFile() ? 'file' : st.isDirectory() ? 'folder' : 'other';
    } catch {
      kind = 'missing';
    }
    if (!isCaseName(name)) {
      if (kind === 'folder') out.folders.push(name);
    } else if (kind === 'file') out.files.push(name);
    else
      out.broken.push({
        name,
        why: { folder: 'a folder', other: 'not a regular file', missing: 'a link to nothing' }[kind],
      });
  }
  return out;
}

/** Case files in `dir` (sorted): `*.jsonl` and `*.json` that are not sidecars; none when `dir` is absent. */
export function caseFiles(dir: string): string[] {
  return caseEntries(dir).files;
}

/** A case file's name without `.jsonl` / `.json`: its sidecar is `caseStem(name) + SIDECAR`. */
export function caseStem(name: string): string {
  return name.replace(/\.jsonl?$/, '');
}
