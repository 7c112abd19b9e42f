/**
 * Hop down-leveling (AEP-0001 §8.2(b)-(e); AEP-0002 §5.1 rule 3; AEP-0003 §6.4, §9) to `min(capture, ceiling)`: members
 * above dropped, `[metadata*]` degraded below `redacted`, a schema-less payload dropped whole (§8.2(a)).
 */
import { isObj, type Obj } from '../core/value.ts';
import type { AepCaptureLevel } from './schema/registry.ts';
import type { CaptureNode } from './capture.ts';
import { CAPTURE_RANK } from './event.ts';
import { gateFormValues, type FormFieldSpec } from './forms.ts';
import {
  createRedactor,
  defaultRedactor,
  hopCaptureTree,
  redactEvent,
  screenMetadataLevel,
  type RedactOptions,
  type Redactor,
} from './redact.ts';
import { sameJson } from '../core/value.ts';

/** Options of {@link downlevelEvent}. */
export interface DownlevelOptions {
  /** Redacting re-emitter (AEP-0001 §8.2(e)): what is kept at `redacted` or `full` goes through {@link redactEvent}. */
  redact?: boolean | RedactOptions | Redactor;
  /** The answered form request's `fields`, so `answer.values` keeps its closed choice ids below `redacted`. */
  form?: readonly FormFieldSpec[];
  /** `aep-0007`: the sub-profile's types follow its §4 annotations (src/aep/subprofile.ts), not a schema-less drop. */
  profile?: string;
  /** The pipeline a lowered copy's metadata-level content goes through (default: `redact`'s, else the §9.4 defaults). */
  screen?: RedactOptions | Redactor;
}

/** The outcome of {@link downlevelEvent}. */
export interface DownlevelResult {
  /** The event at the level honoured (the input object itself when `changed` is false). */
  event: Record<string, unknown>;
  capture: AepCaptureLevel;
  /** False when the event was already at or below the ceiling. */
  changed: boolean;
}

const LEVELS = new Set<string>(['none', 'metadata', 'redacted', 'full']);

/** True when `s` names a capture level. */
export function isCaptureLevel(s: unknown): s is AepCaptureLevel {
  return typeof s === 'string' && LEVELS.has(s);
}

function toRedactor(r: DownlevelOptions['redact']): Redactor | undefined {
  if (!r) return undefined;
  if (r === true) return createRedactor();
  if (typeof (r as Redactor).text === 'function' && typeof (r as Redactor).value === 'function') return r as Redactor;
  return createRedactor(r as RedactOptions);
}

/** One event brought down to `ceiling` (AEP-0003 §9 item 5; unknown `capture`: `full`); pure. @throws TypeError. */
export function downlevelEvent(
  event: Readonly<Obj>,
  ceiling: AepCaptureLevel,
  opts: DownlevelOptions = {},
): DownlevelResult {
  if (!isCaptureLevel(ceiling)) throw new TypeError(`ceiling must be one of none, metadata, redacted, full`);
  const declared: AepCaptureLevel = isCaptureLevel(event.capture)
    ? event.capture
    : event.capture === undefined
      ? 'metadata'
      : 'full';
  const redactor = toRedactor(opts.redact);
  const type = typeof event.type === 'string' ? event.type : '';
  const tree = hopCaptureTree(type, opts.profile);
  if (CAPTURE_RANK[declared] <= CAPTURE_RANK[ceiling]) {
    const kept = honour(event, declared, tree, opts.form);
    // a redacting hop passes what it keeps at `redacted` or `full` through the path of `aep redact` (issue 43 item 4):
    // an event already at `redacted` that leaks a secret is redacted, not passed on or refused
    const red = redactor ? redactEvent(kept, redactor, opts.profile) : kept;
    return { event: red as Obj, capture: isCaptureLevel(red.capture) ? red.capture : declared, changed: red !== event };
  }
  let target: AepCaptureLevel = ceiling;
  // AEP-0001 §8.2(e): a mechanical hop never mints the `redacted` provenance claim; without
  // annotations a redacting hop keeps no field to redact, so it is a mechanical hop too
  if (ceiling === 'redacted' && declared === 'full' && (!redactor || !tree)) target = 'metadata';
  const out: Obj = {};
  for (const [k, v] of Object.entries(event)) {
    if (k === 'capture') out.capture = target;
    else if (k === 'data') {
      if (target === 'none' || !tree) continue;
      const data = isObj(v) ? prune(v, tree, target, true, event, opts.form) : DROP;
      if (data !== DROP) out.data = data;
    } else out[k] = v;
  }
  if (!('capture' in out)) out.capture = target;
  // kept gated text takes `aep redact`'s path (§8.2(e)); below it, no content stays (AEP-0003 §9 item 2)
  const screen = toRedactor(opts.screen) ?? redactor ?? defaultRedactor();
  return {
    event:
      target === 'redacted' && redactor && tree
        ? redactEvent(out, redactor, opts.profile)
        : screenMetadataLevel(out, target === 'none' ? undefined : tree, screen),
    capture: target,
    changed: true,
  };
}

/** `event` without what its own level may not carry (AEP-0001 §8.2(a)); the same object when it carries none. */
function honour(
  event: Readonly<Obj>,
  level: AepCaptureLevel,
  tree: CaptureNode | undefined,
  form: readonly FormFieldSpec[] | undefined,
): Readonly<Obj> {
  if (!('data' in event)) return event;
  // `none` carries no payload; a payload that is no object has no member a walk could find
  let data: unknown = level === 'none' || !isObj(event.data) ? DROP : event.data;
  if (data !== DROP && tree) data = prune(data, tree, level, false, event, form);
  if (data === event.data) return event;
  const out: Obj = {};
  for (const [k, v] of Object.entries(event)) if (k !== 'data') out[k] = v;
  if (data !== DROP) out.data = data;
  return out;
}

/** What {@link prune} returns for a member it removes. */
const DROP: unique symbol = Symbol('drop');

/**
 * Copy `v` without the members above `level`; below `redacted`, `[metadata*]` members degrade when `lowered`, else only
 * form values are gated. A member of a shape its schema does not give is removed when gated members may hide in it.
 */
function prune(
  v: unknown,
  node: CaptureNode,
  level: AepCaptureLevel,
  lowered: boolean,
  event: Readonly<Obj>,
  form: readonly FormFieldSpec[] | undefined,
): unknown {
  const rank = CAPTURE_RANK[level];
  const below = rank < CAPTURE_RANK.redacted;
  // `pos`: the 1-based position of `x` in its array (0 when not an item)
  const walk = (
    x: unknown,
    n: CaptureNode,
    key: string | number | undefined,
    parent: unknown,
    parentPos: number,
    pos: number,
  ): unknown => {
    if (n.star && below) {
      if (lowered) return degrade(x, key, parent, parentPos, event, form);
      if (key !== 'values') return x;
      if (!isObj(x)) return DROP;
      const gated = form ? gateFormValues(form, x, 'metadata') : x;
      return sameJson(gated, x) ? x : gated;
    }
    if (x === null || typeof x !== 'object') return x;
    // what is unchanged is returned as it is, so an honest event is its own copy without a deep comparison
    let changed = false;
    if (Array.isArray(x)) {
      const items = n.items;
      if (!items) return n.properties && hidesGated(n) ? DROP : x;
      const kept: unknown[] = [];
      x.forEach((y, i) => {
        const z = CAPTURE_RANK[items.level] > rank ? DROP : walk(y, items, i, x, pos, i + 1);
        if (z !== y) changed = true;
        if (z !== DROP) kept.push(z);
      });
      return changed ? kept : x;
    }
    if (!n.properties && n.items && hidesGated(n)) return DROP;
    const o: Obj = {};
    for (const [k, y] of Object.entries(x)) {
      const c = n.properties?.get(k);
      const z = !c ? y : CAPTURE_RANK[c.level] <= rank ? walk(y, c, k, x, pos, 0) : DROP;
      if (z !== y) changed = true;
      if (z !== DROP) o[k] = z;
    }
    return changed ? o : x;
  };
  return walk(v, node, undefined, undefined, 0, 0);
}

/** True when a member under `n` is gated above `metadata` or is a `[metadata*]` exception. */
function hidesGated(n: CaptureNode): boolean {
  const kids = [...(n.properties?.values() ?? []), ...(n.items ? [n.items] : [])];
  return kids.some((c) => c.star || CAPTURE_RANK[c.level] > CAPTURE_RANK.metadata || hidesGated(c));
}

/** The structural stand-in of a `[metadata*]` member below `redacted`: a synthesised prompt, a label's id, structural values. */
function degrade(
  x: unknown,
  key: string | number | undefined,
  parent: unknown,
  parentPos: number,
  event: Readonly<Obj>,
  form: readonly FormFieldSpec[] | undefined,
): unknown {
  if (key === 'prompt') {
    const data = isObj(event.data) ? event.data : {};
    const agent = typeof event.agent === 'string' ? event.agent : 'agent';
    const kind = typeof data.kind === 'string' ? data.kind : 'input';
    return typeof event.subject === 'string'
      ? `${agent} requests ${kind}: ${event.subject}`
      : `${agent} requests ${kind}`;
  }
  if (key === 'label') {
    if (isObj(parent) && typeof parent.id === 'string') return parent.id;
    return parentPos > 0 ? String(parentPos) : x;
  }
  if (key === 'values') {
    if (!isObj(x)) return DROP;
    if (form) return gateFormValues(form, x, 'metadata');
    const o: Obj = {};
    for (const [k, y] of Object.entries(x))
      if (typeof y === 'number' || typeof y === 'boolean')
        Object.defineProperty(o, k, { value: y, enumerable: true, writable: true, configurable: true });
    return o;
  }
  return x;
}

/** Most form requests remembered by {@link downlevelStream} (oldest forgotten first). */
export const DOWNLEVEL_MAX_FORMS = 10_000;

/**
 * A stream's form requests by session and id (at most {@link DOWNLEVEL_MAX_FORMS}, oldest first out), so an answer or a
 * respond (AEP-0006) finds the fields its `subject` names; held as {@link formSketch} strings.
 */
export class RequestForms {
  private readonly forms = new Map<string, string>();

  /** Remember the `fields` of a form request (`attention.requested` with `kind: "form"`). */
  note(event: Readonly<Obj>): void {
    const data = isObj(event.data) ? event.data : undefined;
    if (
      event.type !== 'attention.requested' ||
      data?.kind !== 'form' ||
      !Array.isArray(data.fields) ||
      typeof event.id !== 'string'
    )
      return;
    const forms = this.forms;
    if (forms.size >= DOWNLEVEL_MAX_FORMS) forms.delete(forms.keys().next().value!);
    forms.set(flat(formKey(event, event.id)), flat(formSketch(data.fields as unknown[])));
  }

  /** The fields of the request an `attention.answered` or `control.attention.respond` answers, when remembered. */
  formOf(event: Readonly<Obj>): readonly FormFieldSpec[] | undefined {
    if (
      (event.type !== 'attention.answered' && event.type !== 'control.attention.respond') ||
      typeof event.subject !== 'string'
    )
      return undefined;
    const sketch = this.forms.get(formKey(event, event.subject));
    return sketch === undefined ? undefined : fieldsOfSketch(sketch);
  }
}

/** One field as a sketch holds it: `null` where `compileForm` skips the entry, else id, type, flags, choice ids. */
type FieldSketch =
  | null
  | [id: string, type: string, required: boolean, multi: boolean, other: boolean, choices: string[]];

/** What `compileForm` (src/aep/forms.ts) reads of each entry of `fields`, as JSON text (positions kept). */
export function formSketch(fields: readonly unknown[]): string {
  const out: FieldSketch[] = fields.map((f) => {
    if (!isObj(f) || typeof f.id !== 'string') return null;
    const choices: string[] = [];
    if (Array.isArray(f.choices))
      for (const c of f.choices as unknown[]) if (isObj(c) && typeof c.id === 'string') choices.push(c.id);
    return [
      f.id,
      typeof f.type === 'string' ? f.type : '',
      f.required === true,
      f.multi === true,
      f.other === true,
      choices,
    ];
  });
  return JSON.stringify(out);
}

/** The fields a {@link formSketch} stands for: the same form to `compileForm`, labels empty. */
export function fieldsOfSketch(sketch: string): FormFieldSpec[] {
  return (JSON.parse(sketch) as FieldSketch[]).map((f) =>
    f === null
      ? (null as unknown as FormFieldSpec)
      : {
          id: f[0],
          type: f[1] as FormFieldSpec['type'],
          label: '',
          required: f[2],
          multi: f[3],
          other: f[4],
          choices: f[5].map((id) => ({ id, label: '' })),
        },
  );
}

const sessionOf = (event: Readonly<Obj>): string => (typeof event.session === 'string' ? event.session : '');

const formKey = (event: Readonly<Obj>, id: string): string => JSON.stringify([sessionOf(event), id]);

/** `s` as one flat string (V8 keeps longer `JSON.stringify` output as a tree of parts); exact for JSON text. */
const flat = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');

/**
 * A stateful down-leveler for one stream: remembers form requests ({@link RequestForms}) for their answers' choice
 * ids; returns the new event, or `undefined` when already at or below the ceiling.
 */
export function downlevelStream(
  ceiling: AepCaptureLevel,
  opts: Omit<DownlevelOptions, 'form'> = {},
): (event: Readonly<Obj>) => Obj | undefined {
  const redactor = toRedactor(opts.redact);
  const screen = toRedactor(opts.screen);
  const forms = new RequestForms();
  return (event) => {
    forms.note(event);
    const form = forms.formOf(event);
    const r = downlevelEvent(event, ceiling, {
      ...(redactor ? { redact: redactor } : {}),
      ...(screen ? { screen } : {}),
      ...(form ? { form } : {}),
      ...(opts.profile ? { profile: opts.profile } : {}),
    });
    return r.changed ? r.event : undefined;
  };
}
