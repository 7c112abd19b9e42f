/**
 * `npm run validators:gen`: compile every schema both protocols validate against into ajv
 * standalone code (docs/architecture.md §Schema stage), so no schema is compiled at run time.
 * Writes, under src/generated/, per protocol (the AHP ones also hold the pinned MCP
 * elicitation extraction) two CommonJS modules with their `.d.cts`:
 * - `<protocol>-validators.cjs`: `DOCS`, the schema documents as written (one JSON text each),
 *   and `verdicts(formats)`, the first-error validators by key, reading schema values by path
 *   into `DOCS`;
 * - `<protocol>-diagnostics.cjs`: a factory of the all-errors, verbose validators over `docs`,
 *   the copies of `DOCS` that `prepareSchemas` prepares at run time, so their errors' `schema` /
 *   `parentSchema` are nodes of those copies, as the mapper's index expects.
 * CommonJS because validation is synchronous and loads them on first use (`createRequire`):
 * `--version`, `--help` and a run that never validates that protocol load none of them.
 * Our formats (src/core/schema/formats.ts, plain functions) are passed in by the loader rather
 * than imported, so the same file works from src (tsx) and from the build. ajv's runtime
 * helpers are `require`d from its package. test/meta/generated-validators.test.ts fails when the
 * committed files differ from {@link buildValidatorModules}'s output.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import standalone from 'ajv/dist/standalone/index.js';
import { _, type Code } from 'ajv/dist/compile/codegen/index.js';
import { _Code } from 'ajv/dist/compile/codegen/code.js';
import { createAjv, type Ajv2020 } from '../src/core/schema/ajv.ts';
import { prepareSchemas } from '../src/core/schema/annotations.ts';
import { AEP_SCHEMA_BASE_ID } from '../src/aep/schemas.ts';
import { AHP_SCHEMA_BASE, AHP_SCHEMA_FILES, MCP_DEFAULT_ID } from '../src/ahp/schemas.ts';

const ROOT = new URL('../', import.meta.url);
/** Where the generated modules go. */
export const GENERATED_DIR = fileURLToPath(new URL('src/generated/', ROOT));

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function readDoc(rel: string): Obj {
  return JSON.parse(readFileSync(new URL(rel, ROOT), 'utf8')) as Obj;
}

/** One generated module's input: documents in order (each with its `$id`) and the validators to export. */
interface ModuleSpec {
  name: string;
  title: string;
  /** Repository paths of the documents, parallel to `docs`. */
  files: string[];
  docs: Obj[];
  base: string;
  /** Export key -> schema id or `id#/json-pointer` to compile. */
  exports: Array<[string, string]>;
}

/** Walk `doc`, recording every object/array node's [document index, path]. */
function locate(docs: Obj[]): WeakMap<object, string> {
  const where = new WeakMap<object, string>();
  docs.forEach((doc, i) => {
    const visit = (node: unknown, code: string): void => {
      if (node === null || typeof node !== 'object' || where.has(node)) return;
      where.set(node, code);
      if (Array.isArray(node)) node.forEach((v, k) => visit(v, `${code}[${k}]`));
      else for (const [k, v] of Object.entries(node)) visit(v, `${code}[${JSON.stringify(k)}]`);
    };
    visit(doc, `@DOCS@[${i}]`);
  });
  return where;
}

/**
 * Standalone code of `exports` compiled by `ajv` over `docs` (already added), with every schema
 * value read from `docsName[i]...` instead of an inlined copy, and the module-level `exports`
 * object renamed `target`.
 */
function compileModule(ajv: Ajv2020, docs: Obj[], spec: ModuleSpec, docsName: string): string {
  const refs: Record<string, string> = {};
  for (const [key, ref] of spec.exports) {
    if (!ajv.getSchema(ref)) throw new Error(`${spec.name}: no schema ${ref}`);
    refs[key] = ref;
  }
  const where = locate(docs);
  // ajv's schema scope values (one per compiled schema root) default to an inlined JSON copy
  const scope = (ajv as unknown as { scope: { _values: Record<string, Map<unknown, { value?: { ref: unknown; code?: Code } }>> } }).scope;
  for (const name of scope._values.schema?.values() ?? []) {
    const ref = name.value?.ref;
    const at = ref !== null && typeof ref === 'object' ? where.get(ref) : undefined;
    // the rest are the meta-schemas ajv compiled to check ours; the check below catches any used
    if (at !== undefined) name.value!.code = new _Code(at.replace('@DOCS@', docsName)) as Code;
  }
  // a CommonJS module: the default import is `module.exports`, whose `default` is the function
  let code = standalone.default(ajv, refs);
  code = code.replace(/^"use strict";\n?/, '');
  if (/\bschema\d+ = \{/.test(code)) throw new Error(`${spec.name}: an inlined schema copy is left`);
  return code.replace(/\bexports(?=[.[])/g, 'target');
}

/**
 * Verdict code with every error object literal (`{instancePath,schemaPath:...,message:...}`)
 * replaced by `{}`, as ajv itself writes for errors it discards: a verdict's errors are never
 * read (a failure is diagnosed again by the diagnostic validator), only counted, and each
 * error still adds one entry, so every verdict is unchanged. About a third of the code.
 */
function placeholderErrors(code: string): string {
  let out = '';
  let from = 0;
  for (let at = code.indexOf('{instancePath', from); at >= 0; at = code.indexOf('{instancePath', from)) {
    // the object's extent, skipping string literals
    let depth = 0;
    let k = at;
    for (; k < code.length; k++) {
      const c = code[k];
      if (c === '"') {
        for (k++; code[k] !== '"'; k++) if (code[k] === '\\') k++;
      } else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) break;
    }
    const obj = code.slice(at, k + 1);
    // a referenced validator's call options (`{instancePath:..., parentData, ...}`) stay
    const isError = obj.includes('schemaPath:"') && obj.includes('keyword:"') && !obj.includes('parentDataProperty');
    out += code.slice(from, at) + (isError ? '{}' : obj);
    from = k + 1;
  }
  return out + code.slice(from);
}

function aepSpec(): ModuleSpec {
  const registry = readDoc('schemas/aep/registry.json') as { types: Array<{ type: string; schema: string | null }> };
  const files = ['schemas/aep/envelope.schema.json'];
  const exports: Array<[string, string]> = [['envelope', `${AEP_SCHEMA_BASE_ID}envelope.schema.json`]];
  for (const row of registry.types) {
    if (row.schema === null) continue;
    files.push(`schemas/aep/types/${row.schema}`);
    exports.push([row.type, `${AEP_SCHEMA_BASE_ID}types/${row.type}.schema.json`]);
  }
  return { name: 'aep', title: 'AEP 0.1 envelope and payload schemas (schemas/aep/)', files, docs: files.map(readDoc), base: AEP_SCHEMA_BASE_ID, exports };
}

function ahpSpec(): ModuleSpec {
  const files = [...AHP_SCHEMA_FILES.map((f) => `schemas/ahp/${f}`), 'schemas/mcp/mcp-elicitation.schema.json'];
  const docs = files.map(readDoc);
  const mcp = docs[docs.length - 1];
  if (typeof mcp.$id !== 'string') mcp.$id = MCP_DEFAULT_ID;
  // the refs the AHP checks name: the wire and registration roots, every event and message
  // shape (validation roots named by upstream `$schema` values map onto these), the effect,
  // and every definition of the MCP extraction (its request/result variants)
  const exports: Array<[string, string]> = [];
  const add = (file: string, def?: string) => {
    const doc = docs[files.indexOf(file.includes(':') ? 'schemas/mcp/mcp-elicitation.schema.json' : `schemas/ahp/${file}`)];
    const id = doc.$id as string;
    exports.push(def === undefined ? [file, id] : [`${file}#/$defs/${def}`, `${id}#/$defs/${def}`]);
  };
  const defsOf = (i: number) => (isObj(docs[i].$defs) ? Object.keys(docs[i].$defs as Obj) : []);
  add('wire.schema.json');
  add('registration.schema.json');
  add('effects.schema.json', 'effect');
  for (const def of defsOf(AHP_SCHEMA_FILES.indexOf('events.schema.json'))) add('events.schema.json', def);
  for (const def of defsOf(AHP_SCHEMA_FILES.indexOf('messages.schema.json'))) add('messages.schema.json', def);
  for (const def of defsOf(docs.length - 1)) add(mcp.$id as string, def);
  return { name: 'ahp', title: 'AHP draft schemas (schemas/ahp/) and the pinned MCP elicitation extraction (schemas/mcp/)', files, docs, base: AHP_SCHEMA_BASE, exports };
}

const HEADER = (spec: ModuleSpec) => `// GENERATED by tools/gen-validators.ts (\`npm run validators:gen\`) from ${spec.title}.
// Do not edit: test/meta/generated-validators.test.ts fails when this file is stale.
`;

/** The `.js` module and its `.d.ts` for one spec. */
function buildModule(spec: ModuleSpec): { js: string; dts: string; cjs: string; dcts: string } {
  // ajv's code optimiser costs nothing at run time here (it runs at build time) and trims the code
  const code = { source: true, esm: false, optimize: 1, formats: _`STRICT_FORMATS` };
  const verdictAjv = createAjv({ diagnostic: false, code });
  for (const doc of spec.docs) verdictAjv.addSchema(structuredClone(doc));
  // compile from the ajv's own copies, located in the same order as DOCS
  const verdictDocs = spec.docs.map((d) => verdictAjv.getSchema(d.$id as string)!.schema as Obj);
  const verdict = placeholderErrors(compileModule(verdictAjv, verdictDocs, spec, 'DOCS'));

  const prepared = new Map(spec.docs.map((d) => [d.$id as string, structuredClone(d)]));
  prepareSchemas(prepared, spec.base);
  const diagAjv = createAjv({ diagnostic: true, code });
  for (const doc of prepared.values()) diagAjv.addSchema(doc);
  const diagnostic = compileModule(diagAjv, [...prepared.values()], spec, 'docs');

  const docsText = spec.docs.map((d, i) => `  // ${spec.files[i]}\n  JSON.parse(${JSON.stringify(JSON.stringify(d))}),`).join('\n');
  const js = `${HEADER(spec)}'use strict';

/** The schema documents as written, in this order; do not mutate (the verdict validators read them). */
exports.DOCS = [
${docsText}
];

/**
 * The verdict validators (first error only) by key. \`STRICT_FORMATS\` is the formats module's
 * export of that name (src/core/schema/formats.ts). Call once.
 */
exports.verdicts = function verdicts(STRICT_FORMATS) {
const DOCS = exports.DOCS;
const target = {};
${verdict}
return target;
};
`;
  const cjs = `${HEADER(spec)}'use strict';

/**
 * The diagnostic validators (all errors, verbose) by key, over \`docs\`: copies of the verdict
 * module's \`DOCS\` in the same order, prepared by \`prepareSchemas\`. Call once.
 */
module.exports = function diagnostics(docs, STRICT_FORMATS) {
const target = {};
${diagnostic}
return target;
};
`;
  const keys = spec.exports.map(([k]) => `  | ${JSON.stringify(k)}`).join('\n');
  const dts = `${HEADER(spec)}import type { ValidateFunction } from 'ajv/dist/2020.js';

/** A validator key: ${spec.name === 'aep' ? '`envelope` or a registered type' : 'a document file name, or with `#/$defs/<name>` (the MCP extraction by its `$id`)'}. */
export type ValidatorKey =
${keys};

/** The schema documents as written; do not mutate. */
export declare const DOCS: readonly Record<string, unknown>[];

/** The verdict validators (first error only) by key; \`formats\` is \`STRICT_FORMATS\` (src/core/schema/formats.ts). */
export declare function verdicts(formats: Readonly<Record<string, (s: string) => boolean>>): Readonly<Record<ValidatorKey, ValidateFunction>>;
`;
  const dcts = `${HEADER(spec)}import type { ValidateFunction } from 'ajv/dist/2020.js';

/** The diagnostic validators (all errors, verbose) over prepared copies of the verdict module's \`DOCS\` (same order). */
declare function diagnostics(docs: readonly Record<string, unknown>[], formats: Readonly<Record<string, (s: string) => boolean>>): Readonly<Record<string, ValidateFunction>>;
export = diagnostics;
`;
  return { js, dts, cjs, dcts };
}

/** Every generated file, by file name under src/generated/. */
export function buildValidatorModules(): Map<string, string> {
  const out = new Map<string, string>();
  for (const spec of [aepSpec(), ahpSpec()]) {
    const { js, dts, cjs, dcts } = buildModule(spec);
    out.set(`${spec.name}-validators.cjs`, js);
    out.set(`${spec.name}-validators.d.cts`, dts);
    out.set(`${spec.name}-diagnostics.cjs`, cjs);
    out.set(`${spec.name}-diagnostics.d.cts`, dcts);
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(GENERATED_DIR, { recursive: true });
  for (const [name, text] of buildValidatorModules()) {
    writeFileSync(new URL(name, new URL('src/generated/', ROOT)), text);
    console.log(`wrote src/generated/${name} (${text.length} bytes)`);
  }
}
