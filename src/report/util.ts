/** Reporter helpers: deterministic finding order, XML escaping, plural words. */
import type { CheckOutcome } from '../core/check-outcome.ts';
import { byColumn, severityAtLeast, type Finding, type Severity } from '../core/finding.ts';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Output, ReportContext } from './types.ts';
import { visible } from '../core/visible.ts';

/**
 * Report order: source (in `sources` order, then by name), line, column, rule id, pointer; run-level findings first.
 */
export function findingOrder(sources: readonly string[] = []): (a: Finding, b: Finding) => number {
  const rank = new Map(sources.map((s, i) => [s, i]));
  return (a, b) =>
    (rank.get(a.source) ?? Infinity) - (rank.get(b.source) ?? Infinity) ||
    cmpText(a.source, b.source) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    byColumn(a, b) ||
    cmpText(a.ruleId, b.ruleId) ||
    cmpText(a.pointer, b.pointer);
}

/** Code-unit order of two optional strings (absent sorts as empty). */
export function cmpText(a: string | undefined, b: string | undefined): number {
  return (a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0;
}

/** `findings` in the report order of {@link findingOrder} (a stable sort of a copy). */
export function sortFindings(findings: readonly Finding[], sources: readonly string[] = []): Finding[] {
  return [...findings].sort(findingOrder(sources));
}

/** True when `s` is at or above `threshold` (src/core/finding.ts {@link severityAtLeast}). */
export const atOrAbove = severityAtLeast;

/** XML 1.0 escaping; characters XML cannot carry (C0 but tab/LF/CR, lone surrogates, U+FFFE/F) become U+FFFD. */
export function xmlEscape(s: string): string {
  return s
    .replace(
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      '\uFFFD',
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Plural helper: `1 error`, `2 errors`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * What a protocol's summary counts in `Summary.events`: AHP's unit is a JSON-RPC message (base/events.md §Common
 * message envelope; a notification carries an event, a response none), AEP's an event.
 */
export function unitOf(protocol: string): 'message' | 'event' {
  return protocol === 'ahp' ? 'message' : 'event';
}

/** A JSON Pointer for a person (text, github, junit, html): control characters as `U+XXXX`; data formats keep it exact. */
export function pointerText(p: string): string {
  return visible(p);
}

/** A JSON Pointer as text shows it ({@link pointerText}): past 160 characters its middle segments are elided (`/a/b/c/…(n more)…/y/z`). */
export function shownPointer(pointer: string): string {
  const p = pointerText(pointer);
  if (p.length <= 160) return p;
  const parts = p.split('/');
  if (parts.length <= 8) return p;
  return `${parts.slice(0, 4).join('/')}/…(${parts.length - 7} more)…/${parts.slice(-3).join('/')}`;
}

/** `path` as GitHub reads it: relative to GITHUB_WORKSPACE when inside it, else absolute; as given without one. */
export function workspacePath(path: string, ws: ReportContext['githubWorkspace']): string {
  if (!ws || isPseudoSource(path)) return path;
  const abs = resolve(ws.cwd, path);
  const rel = relative(resolve(ws.root), abs);
  const inside = rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  return inside ? rel.split(sep).join('/') : abs;
}

/** True for an input name that is no file: `<stdin>`, `<delivered>`, a URL (aep live's endpoint). */
export function isPseudoSource(source: string): boolean {
  return /^<.*>$/s.test(source) || /^[A-Za-z][A-Za-z0-9+.-]+:\/\//.test(source);
}

/** `source:line:column` (parts that are unknown are left out). */
export function formatLocation(f: Pick<Finding, 'source' | 'line' | 'column'>): string {
  // a file name may hold a newline or an escape sequence: one finding stays one line, and nothing reaches the terminal
  let s = visible(f.source) || '<run>';
  if (f.line !== undefined) s += `:${f.line}`;
  if (f.line !== undefined && f.column !== undefined) s += `:${f.column}`;
  return s;
}

/** An {@link Output} that gathers small writes into chunks of about 64 KiB; `flush` writes the rest. */
export function chunkedOutput(out: Output): Output & { flush(): void } {
  let pending = '';
  return {
    write(s) {
      pending += s;
      if (pending.length >= 65536) {
        out.write(pending);
        pending = '';
      }
    },
    flush() {
      if (pending) out.write(pending);
      pending = '';
    },
  };
}

/** `text` in lines of at most `width` at spaces; a longer word is split, never cut. */
export function wrapText(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const lines: string[] = [];
  let cur = '';
  for (let word of text.split(' ')) {
    while (word.length > w) {
      if (cur) {
        lines.push(cur);
        cur = '';
      }
      lines.push(word.slice(0, w));
      word = word.slice(w);
    }
    if (!cur) cur = word;
    else if (cur.length + 1 + word.length <= w) cur += ' ' + word;
    else {
      lines.push(cur);
      cur = word;
    }
  }
  lines.push(cur);
  return lines;
}

/** A check's status for a report at `threshold` (`--fail-on`): failed when one of its findings is at or above it. */
export function checkStatus(c: CheckOutcome, threshold: Severity): 'passed' | 'failed' | 'skipped' {
  if (c.status === 'skipped') return 'skipped';
  const worst = c.errors ? 'error' : c.warnings ? 'warning' : c.infos ? 'info' : undefined;
  return worst && atOrAbove(worst, threshold) ? 'failed' : 'passed';
}

/**
 * A check that passed at `threshold` with a binding left unjudged ({@link CheckOutcome.unjudged}): it passed only over
 * the rest, so reports call it partly judged, never passed.
 */
export function partlyJudged(c: CheckOutcome, threshold: Severity): boolean {
  return !!c.unjudged?.length && checkStatus(c, threshold) === 'passed';
}

/** `not judged over the WebSocket` of a check that left bindings unjudged (empty when none). */
export function unjudgedText(c: CheckOutcome): string {
  return c.unjudged?.length ? `not judged over ${c.unjudged.join(' nor ')}` : '';
}

/** `1 error, 2 warnings` of a check's findings (empty when none). */
export function checkCounts(c: CheckOutcome): string {
  const parts = [
    [c.errors, 'error'],
    [c.warnings, 'warning'],
    [c.infos, 'info'],
  ] as const;
  return parts
    .filter(([n]) => n > 0)
    .map(([n, w]) => plural(n, w))
    .join(', ');
}
