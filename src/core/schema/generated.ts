/**
 * Loader of the validators generated into src/generated/ (`npm run validators:gen`); each piece loads on first need.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { prepareSchemas, type SchemaIndex } from './annotations.ts';
import type { STRICT_FORMATS } from './formats.ts';
import { MEMO_FORMATS, memoPattern } from './memo-pattern.ts';
import { requireCached } from '../code-cache.ts';
import { codeUrl, packageUrl } from '../paths.ts';

type Docs = typeof import('../../generated/aep-docs.cjs');
type Factory = (
  docs: readonly Record<string, unknown>[],
  formats: typeof STRICT_FORMATS,
  pattern: typeof memoPattern,
) => Readonly<Record<string, ValidateFunction>>;

/** One protocol's generated validators. */
export interface GeneratedValidators {
  /** The schema documents as written (the generator's order); shared, do not mutate. */
  readonly docs: readonly Record<string, unknown>[];
  /** The verdict validator (first error only) of `key`, or `undefined` when none was generated. */
  verdict(key: string): ValidateFunction | undefined;
  /** The diagnostic validator (all errors, verbose) of `key`, or `undefined` when none was generated. */
  diagnostic(key: string): ValidateFunction | undefined;
  /** The schema nodes of the diagnostic validators' prepared documents, for `mapSchemaErrors`. */
  readonly index: SchemaIndex;
}

/** A generated module by name, through its code cache when the build made one. */
function requireGenerated(name: string): unknown {
  const file = fileURLToPath(codeUrl(`generated/${name}`));
  return name.endsWith('-docs.cjs') ? createRequire(file)(file) : requireCached(file);
}

/** A schema document from schemas/; @throws Error when it changed since generation (run `npm run validators:gen`). */
function readDocument({ file, id, length }: Docs['DOCUMENTS'][number]): Record<string, unknown> {
  const text = readFileSync(packageUrl(file), 'utf8').replaceAll('\r\n', '\n');
  if (text.length !== length)
    throw new Error(`${file} changed since src/generated/ was written: run \`npm run validators:gen\``);
  const doc = JSON.parse(text) as Record<string, unknown>;
  // a document without `$id` was compiled under the one the generator gave it
  doc.$id ??= id;
  return doc;
}

/** The generated validators of `protocol`. @throws Error when a module is missing or a document changed. */
export function loadGeneratedValidators(protocol: 'aep' | 'ahp', base: string): GeneratedValidators {
  const { DOCUMENTS, GROUPS } = requireGenerated(`${protocol}-docs.cjs`) as Docs;
  const DOCS = DOCUMENTS.map(readDocument);
  const groups = GROUPS as Readonly<Record<string, string>>;
  const group = (key: string): string | undefined => (Object.hasOwn(groups, key) ? groups[key] : undefined);
  const verdicts = new Map<string, Readonly<Record<string, ValidateFunction>>>();
  const diagnostics = new Map<string, Readonly<Record<string, ValidateFunction>>>();
  let prepared: { docs: Record<string, unknown>[]; index: SchemaIndex } | undefined;
  const prepare = () => {
    if (!prepared) {
      const docs = DOCS.map((d) => structuredClone(d) as Record<string, unknown>);
      prepared = { docs, index: prepareSchemas(new Map(docs.map((d) => [String(d.$id), d])), base) };
    }
    return prepared;
  };
  const from = (
    cache: typeof verdicts,
    kind: 'verdicts' | 'diagnostics',
    g: string,
    docs: () => readonly Record<string, unknown>[],
  ) => {
    let set = cache.get(g);
    if (!set) {
      set = (requireGenerated(`${protocol}-${kind}-${g}.cjs`) as Factory)(docs(), MEMO_FORMATS, memoPattern);
      cache.set(g, set);
    }
    return set;
  };
  return {
    docs: DOCS,
    verdict(key) {
      const g = group(key);
      return g === undefined ? undefined : from(verdicts, 'verdicts', g, () => DOCS)[key];
    },
    diagnostic(key) {
      const g = group(key);
      return g === undefined ? undefined : from(diagnostics, 'diagnostics', g, () => prepare().docs)[key];
    },
    get index() {
      return prepare().index;
    },
  };
}
