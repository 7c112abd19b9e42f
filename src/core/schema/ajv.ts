/**
 * The one ajv factory: JSON Schema 2020-12 strict, minus `strictRequired` (blind to `properties` around `if`),
 * `strictTypes` (a lint) and `strictNumbers` (it would type `1e400` as no number; we decide such literals from the
 * text).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { ANNOTATION_KEYWORDS } from './annotations.ts';
import { STRICT_FORMATS } from './formats.ts';

/** Options of {@link createAjv}. */
export interface AjvOptions {
  /** Diagnostic: every error with `parentSchema` (for annotations); verdict instances stop at the first error. */
  diagnostic: boolean;
  /** Track evaluated properties and items (default true); false only for schemas without `unevaluated*` keywords. */
  evaluated?: boolean;
  /** ajv code options: `tools/gen-validators.ts` passes `{lines: true, source: true, optimize: 1, formats}` for standalone code. */
  code?: {
    lines?: boolean;
    source?: boolean;
    esm?: boolean;
    optimize?: number;
    formats?: import('ajv').CodeOptions['formats'];
    regExp?: import('ajv').CodeOptions['regExp'];
  };
}

/**
 * A new ajv instance; only tools/gen-validators.ts and tests compile with it. Optimisation passes are off by default
 * (no measurable speed-up, docs/benchmarks.md); formats are plain functions standalone code can call.
 */
export function createAjv(opts: AjvOptions): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    strictTypes: false,
    strictNumbers: false,
    allowUnionTypes: true,
    allErrors: opts.diagnostic,
    verbose: opts.diagnostic,
    validateFormats: true,
    code: { optimize: false, ...opts.code },
  });
  // Ajv2020 forces `unevaluated: true` in its constructor; code generation reads the option later
  if (opts.evaluated === false) (ajv.opts as { unevaluated?: boolean }).unevaluated = false;
  for (const [name, validate] of Object.entries(STRICT_FORMATS)) ajv.addFormat(name, validate);
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword });
  return ajv;
}

export type { Ajv2020, ErrorObject, ValidateFunction };
