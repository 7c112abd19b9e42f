/**
 * Shared setup for the AEP schema tests: one ajv instance of the schema stage's factory (our
 * strict formats and annotation keywords), compiled validators for the envelope and every
 * payload schema, and the location of the upstream fixture corpus.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadAepSchemas, type AepSchemas } from '../../src/aep/schema/registry.ts';
import { SHARED, sharedPath } from '../shared.ts';
import {
  createAjv as createSchemaStageAjv,
  type Ajv2020,
  type ErrorObject,
  type ValidateFunction,
} from '../../src/core/schema/ajv.ts';

/** Capture levels a field may be annotated with (AEP-0002 §5.1). */
export const CAPTURE_ANNOTATIONS = ['metadata', 'redacted', 'full'] as const;

/** A fresh ajv with our options (src/core/schema/ajv.ts): strict mode, all errors, our formats and annotation keywords. */
export function createAjv(): Ajv2020 {
  return createSchemaStageAjv({ diagnostic: true });
}

/** Compiled validators for the envelope and each registered payload schema. */
export interface Compiled {
  schemas: AepSchemas;
  envelope: ValidateFunction;
  payload(type: string): ValidateFunction | undefined;
}

let compiled: Compiled | undefined;

/** Compile everything once per test process. */
export function compileAll(): Compiled {
  if (compiled) return compiled;
  const schemas = loadAepSchemas();
  const ajv = createAjv();
  const envelope = ajv.compile(schemas.envelope);
  const payloads = new Map<string, ValidateFunction>();
  for (const row of schemas.registry.types) {
    const s = schemas.payload(row.type);
    if (s) payloads.set(row.type, ajv.compile(s));
  }
  compiled = { schemas, envelope, payload: (t) => payloads.get(t) };
  return compiled;
}

/** The upstream AEP fixture corpus; it may be absent (test/shared.ts). */
export const CORPUS_DIR = sharedPath(SHARED.aepCorpus);

/** Compact one-line rendering of ajv errors for assertion messages. */
export function showErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`).join('; ');
}

/** Validate an event's envelope and, when it has `data` and a registered payload schema, its payload. */
export function validateEvent(
  c: Compiled,
  event: unknown,
): { envelope: boolean; payload: boolean | undefined; errors: string } {
  const envOk = c.envelope(event) as boolean;
  const envErr = envOk ? '' : `envelope: ${showErrors(c.envelope.errors)}`;
  const e = event as { type?: unknown; data?: unknown };
  const v = typeof e?.type === 'string' ? c.payload(e.type) : undefined;
  if (!v || e.data === undefined) return { envelope: envOk, payload: undefined, errors: envErr };
  const payOk = v(e.data) as boolean;
  const payErr = payOk ? '' : `payload: ${showErrors(v.errors)}`;
  return { envelope: envOk, payload: payOk, errors: [envErr, payErr].filter(Boolean).join(' | ') };
}

/** Every `.json` and `.jsonl` file under `dir`, recursively. */
export function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? jsonFiles(p) : /\.jsonl?$/.test(n) ? [p] : [];
  });
}

/** Every object `isEvent` accepts inside the JSON texts of `path` (each line of a `.jsonl`); unparsable texts are skipped. */
export function eventsOfFile(
  path: string,
  isEvent: (o: Record<string, unknown>) => boolean,
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x);
      return;
    }
    const o = v as Record<string, unknown>;
    if (isEvent(o)) out.push(o);
    for (const x of Object.values(o)) visit(x);
  };
  const text = readFileSync(path, 'utf8');
  for (const d of path.endsWith('.jsonl') ? text.split('\n') : [text]) {
    let v: unknown;
    try {
      v = JSON.parse(d);
    } catch {
      continue; // a framing case: not an event
    }
    visit(v);
  }
  return out;
}
