/**
 * Message templates (docs/architecture.md §Findings): `{name}` text, `{name:json}` JSON, `{name:s}` `s` unless 1;
 * a Location argument renders `line N`, or `line N of FILE` in another input.
 */
import { visibleJson } from './visible.ts';

/** A place in the input as a message argument (any `Location` of src/core/finding.ts is one). */
export interface PlaceArg {
  source: string;
  line?: number;
}

/** One argument of a message: text, a number, a flag, or a place in the input. */
export type MessageArg = string | number | boolean | PlaceArg;

/** The arguments of one finding's message, by placeholder name. */
export type MessageArgs = Readonly<Record<string, MessageArg | undefined>>;

/** A rule's message templates, by key; the first is the rule's default. */
export type MessageTemplates = Readonly<Record<string, string>>;

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)(?::(json|s))?\}/g;

/** The placeholder names `template` uses, in order of first use. */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

const isLocation = (v: MessageArg): v is PlaceArg => typeof v === 'object' && v !== null;

function locationText(loc: PlaceArg, source: string): string {
  const where = loc.line === undefined ? 'the end of input' : `line ${loc.line}`;
  return loc.source && loc.source !== source ? `${where} of ${loc.source}` : where;
}

/** `template` filled from `args`; throws on a missing argument (a rule bug). */
export function renderMessage(template: string, args: MessageArgs | undefined, source: string): string {
  return template.replace(PLACEHOLDER, (_, name: string, format: string | undefined) =>
    renderPlaceholder({ name, format }, args, source),
  );
}

/** One placeholder of a template: its argument name and format (`json`, `s`, or none). */
export interface Placeholder {
  name: string;
  format: string | undefined;
}

/** The text of one placeholder filled from `args` (see {@link renderMessage}). */
export function renderPlaceholder(p: Placeholder, args: MessageArgs | undefined, source: string): string {
  const v = args?.[p.name];
  if (v === undefined) throw new Error(`message placeholder {${p.name}} has no argument`);
  if (p.format === 's') return v === 1 ? '' : 's';
  if (isLocation(v)) return locationText(v, source);
  return p.format === 'json' ? visibleJson(v) : String(v);
}

/** `template` cut into literal text and placeholders, in order (reporters with their own template syntax, e.g. SARIF). */
export function templateParts(template: string): Array<string | Placeholder> {
  const parts: Array<string | Placeholder> = [];
  let at = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    if (m.index > at) parts.push(template.slice(at, m.index));
    parts.push({ name: m[1]!, format: m[2] });
    at = m.index + m[0].length;
  }
  if (at < template.length) parts.push(template.slice(at));
  return parts;
}
