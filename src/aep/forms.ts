/** The AEP-0006 form model. Field ids are data (`__proto__`): Map lookups, `Object.hasOwn`, `Object.defineProperty`. */
import { describeValue } from '../core/finding.ts';
import type { MessageArgs } from '../core/message.ts';
import { escapeToken } from '../core/pointer.ts';
import { isObj, own } from '../core/value.ts';
import { CAPTURE_RANK } from './event.ts';
import type { AepCaptureLevel } from './schema/registry.ts';

/** `field_spec.type` (AEP-0002 §5.2). */
export type FormFieldType = 'string' | 'number' | 'boolean' | 'select';

/** One `choices[]` entry of a select field. */
export interface FormChoice {
  id: string;
  label: string;
}

/** A `field_spec` of an `attention.requested` with `kind: "form"` (AEP-0002 §5.2; AEP-0006). */
export interface FormFieldSpec {
  id: string;
  type: FormFieldType;
  label: string;
  /** Default false. */
  required?: boolean;
  /** Select only; default false: the answer is an array of choice ids. */
  multi?: boolean;
  /** Select only; default false: free text that is not a choice id is also allowed. */
  other?: boolean;
  /** Required when `type` is "select". */
  choices?: FormChoice[];
  /** Number only. */
  min?: number;
  /** Number only. */
  max?: number;
}

/** One answer in `values`: string, number, boolean, or an array of choice ids (multi select). */
export type FormValue = string | number | boolean | string[];

/** `answer.values`: a flat map of `field_spec.id` to the field's answer. */
export type FormValues = Record<string, FormValue>;

/** A capture level used as a gating ceiling (AEP-0001 §8.2). */
export type FormCaptureCeiling = AepCaptureLevel;

/** A field as the checks need it: choice ids in a `Set`, defaults applied. */
export interface CompiledField {
  id: string;
  /** Position in `fields` (for messages). */
  index: number;
  type: string;
  required: boolean;
  multi: boolean;
  other: boolean;
  choices: ReadonlySet<string>;
}

/** The fields of one form, keyed by id (the first field wins when ids repeat). */
export type CompiledForm = ReadonlyMap<string, CompiledField>;

/** The choices of a field without any: one shared empty set (a form lives until its request's terminal, promoted). */
const NO_CHOICES: ReadonlySet<string> = new Set<string>();

/** Compile `fields` for lookups; entries without a string `id` are skipped, a repeated id keeps its first field. */
export function compileForm(fields: readonly unknown[]): CompiledForm {
  const out = new Map<string, CompiledField>();
  fields.forEach((f, index) => {
    if (!isObj(f) || typeof f.id !== 'string' || out.has(f.id)) return;
    let choices: Set<string> | undefined;
    if (Array.isArray(f.choices))
      for (const c of f.choices as unknown[])
        if (isObj(c) && typeof c.id === 'string') (choices ??= new Set()).add(c.id);
    out.set(f.id, {
      id: f.id,
      index,
      type: typeof f.type === 'string' ? f.type : '',
      required: f.required === true,
      multi: f.multi === true,
      other: f.other === true,
      choices: choices ?? NO_CHOICES,
    });
  });
  return out;
}

/** True when `value` is a structural answer for `field`, one AEP-0006 lets appear below capture `redacted`. */
function isStructuralValue(field: CompiledField, value: unknown): boolean {
  switch (field.type) {
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'select':
      if (typeof value === 'string') return field.choices.has(value);
      return Array.isArray(value) && value.every((x) => typeof x === 'string' && field.choices.has(x));
    default:
      return false;
  }
}

/** True when `value` holds what AEP-0006 calls free text: a string field's string, or an `other` answer of a select. */
function carriesFreeText(field: CompiledField, value: unknown): boolean {
  if (field.type === 'string') return typeof value === 'string';
  if (field.type !== 'select' || !field.other) return false;
  const other = (x: unknown) => typeof x === 'string' && !field.choices.has(x);
  return field.multi ? Array.isArray(value) && value.some(other) : other(value);
}

function define(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/**
 * Gate form `values` for a capture ceiling as an emitter must (AEP-0006 §Security; AEP-0002 §5.3): unknown keys always
 * dropped; below `redacted` only structural entries kept (numbers, booleans, choice ids). Returns a new object.
 */
export function gateFormValues(
  fields: readonly FormFieldSpec[],
  values: Readonly<Record<string, unknown>>,
  ceiling: FormCaptureCeiling,
): Record<string, unknown> {
  const form = compileForm(fields);
  const keepAll = CAPTURE_RANK[ceiling] >= CAPTURE_RANK.redacted;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(values)) {
    const field = form.get(key);
    if (!field) continue;
    const v = values[key];
    if (keepAll || isStructuralValue(field, v)) define(out, key, v);
  }
  return out;
}

/** The kinds of problem {@link checkFormValues} finds; each maps to one stream rule. */
export type FormIssueKind = 'type' | 'required' | 'choice' | 'unknown-key' | 'capture';

/** One problem with `values`: the key of its template (analyzers/form-common.ts) and the arguments, never a value. */
export interface FormIssue {
  kind: FormIssueKind;
  /** Pointer relative to `values` (`""` for the whole map, `/db`, `/regions/1`). */
  pointer: string;
  /** The field the issue is about (for `unknown-key`: the key). */
  fieldId: string;
  /** Position of the field in the request's `fields` (absent for `unknown-key`). */
  fieldIndex?: number;
  messageId: string;
  args: MessageArgs;
}

/** `3 choice ids ("a", "b", "c")`: choice ids are structural (AEP-0006), so quoting them is safe. */
function choiceIds(ids: ReadonlySet<string>): string {
  const shown = [...ids].slice(0, SHOWN_CHOICES).map((id) => JSON.stringify(id));
  const more = ids.size > SHOWN_CHOICES ? `, and ${ids.size - SHOWN_CHOICES} more` : '';
  return `${ids.size} choice id${ids.size === 1 ? '' : 's'}${shown.length ? ` (${shown.join(', ')}${more})` : ''}`;
}

const SHOWN_CHOICES = 5;

function fieldArgs(f: CompiledField): { field: string; fieldType: string } {
  return { field: f.id, fieldType: f.type };
}

/**
 * Problems of `values` against a form, one FormIssueKind per rule; capture is not checked at `none`
 * (`aep/capture-none`) nor when it is unknown (`undefined`: the event's `capture` failed the envelope).
 */
export function checkFormValues(
  form: CompiledForm,
  values: Readonly<Record<string, unknown>>,
  capture: AepCaptureLevel | undefined,
): FormIssue[] {
  const issues: FormIssue[] = [];
  const gate = capture !== undefined && capture !== 'none' && CAPTURE_RANK[capture] < CAPTURE_RANK.redacted;
  for (const f of form.values()) {
    // Below `redacted` a string (or `other`) answer MUST be omitted (AEP-0002 §5.1 rule 1), so its absence is no
    // partial answer; at an unknown capture (`undefined`) it may have been.
    if ((gate || capture === undefined) && (f.type === 'string' || (f.type === 'select' && f.other))) continue;
    if (f.required && !own(values, f.id)) {
      issues.push({
        kind: 'required',
        pointer: '',
        fieldId: f.id,
        fieldIndex: f.index,
        messageId: 'required',
        args: fieldArgs(f),
      });
    }
  }
  for (const key of Object.keys(values)) {
    const v = values[key];
    const ptr = '/' + escapeToken(key);
    const f = form.get(key);
    if (!f) {
      issues.push({
        kind: 'unknown-key',
        pointer: ptr,
        fieldId: key,
        messageId: 'unknown',
        args: { key, fields: form.size },
      });
      continue;
    }
    const wrongType = (expected: string) =>
      issues.push({
        kind: 'type',
        pointer: ptr,
        fieldId: f.id,
        fieldIndex: f.index,
        messageId: 'type',
        args: { ...fieldArgs(f), expected, found: describeValue(v) },
      });
    switch (f.type) {
      case 'string':
        if (typeof v !== 'string') wrongType('a string');
        break;
      case 'number':
        if (typeof v !== 'number') wrongType('a number');
        break;
      case 'boolean':
        if (typeof v !== 'boolean') wrongType('a boolean');
        break;
      case 'select':
        if (f.multi) {
          if (!Array.isArray(v)) {
            wrongType(`an array of choice ids (multi select)`);
            break;
          }
          v.forEach((x: unknown, i: number) => {
            if (typeof x !== 'string') {
              issues.push({
                kind: 'type',
                pointer: `${ptr}/${i}`,
                fieldId: f.id,
                fieldIndex: f.index,
                messageId: 'item',
                args: { ...fieldArgs(f), item: i, found: describeValue(x) },
              });
            } else if (!f.choices.has(x) && !f.other) {
              issues.push({
                kind: 'choice',
                pointer: `${ptr}/${i}`,
                fieldId: f.id,
                fieldIndex: f.index,
                messageId: 'item',
                args: { ...fieldArgs(f), item: i, found: describeValue(x), choices: choiceIds(f.choices) },
              });
            }
          });
        } else if (typeof v !== 'string') {
          wrongType('one choice id string');
        } else if (!f.choices.has(v) && !f.other) {
          issues.push({
            kind: 'choice',
            pointer: ptr,
            fieldId: f.id,
            fieldIndex: f.index,
            messageId: 'choice',
            args: { ...fieldArgs(f), found: describeValue(v), choices: choiceIds(f.choices) },
          });
        }
        break;
      default:
        break; // an unknown field type is a payload-schema finding on the request
    }
    if (gate && carriesFreeText(f, v)) {
      issues.push({
        kind: 'capture',
        pointer: ptr,
        fieldId: f.id,
        fieldIndex: f.index,
        messageId: 'capture',
        args: { ...fieldArgs(f), found: describeValue(v), capture },
      });
    }
  }
  return issues;
}
