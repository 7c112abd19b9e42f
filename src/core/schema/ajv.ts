/**
 * The one ajv factory of the schema stage (docs/architecture.md §Schema stage): JSON Schema
 * 2020-12 in strict mode (unknown keywords and formats are errors) minus three checks:
 * `strictRequired` cannot see the `properties` around an `if`/`then`; `strictTypes` is a
 * lint on applicators without `type`; `strictNumbers` would type a literal beyond the double
 * range (`1e400`, parsed as Infinity) as no number, while we decide such literals from the JSON
 * text (AEP `seq`/`epoch`). Union types are allowed; formats are {@link STRICT_FORMATS};
 * annotation keywords are {@link ANNOTATION_KEYWORDS}. AEP envelopes and payloads, AHP messages
 * and the pinned MCP elicitation subset all compile through it.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { ANNOTATION_KEYWORDS } from './annotations.ts';
import { STRICT_FORMATS } from './formats.ts';

/** Options of {@link createAjv}. */
export interface AjvOptions {
  /**
   * A diagnostic instance: every error, each carrying `parentSchema` (so the mapper can read
   * the annotations at the failing schema location). A verdict instance stops at the first
   * error and is the one to run on the hot path.
   */
  diagnostic: boolean;
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
 * A new ajv instance. Nothing compiles schemas at run time: `tools/gen-validators.ts` compiles
 * them through this factory into standalone modules (src/generated/); tests use it directly.
 * Code optimisation passes are off unless `code.optimize` says otherwise: no measurable
 * validation speed-up (docs/benchmarks.md), but at build time they cost nothing and trim the
 * generated code. Formats are registered as plain functions, so standalone code calls
 * {@link STRICT_FORMATS} entries directly.
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
  for (const [name, validate] of Object.entries(STRICT_FORMATS)) ajv.addFormat(name, validate);
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword });
  return ajv;
}

export type { Ajv2020, ErrorObject, ValidateFunction };
