/**
 * `npm run validators:gen`: compile every schema both protocols validate against into ajv
 * standalone code (docs/architecture.md §Schema stage), so no schema is compiled at run time.
 * Writes, under src/generated/, per protocol (the AHP ones also hold the pinned MCP
 * elicitation extraction) CommonJS modules, committed and written one statement per line so
 * that a schema change reads as a diff of the code:
 * - `<protocol>-docs.cjs` (+ `.d.cts`): `DOCUMENTS`, the schema files the code reads (read from
 *   schemas/ at run time, no copy), and `GROUPS`, the group of each validator key;
 * - `<protocol>-verdicts-<group>.cjs`: a factory of the group's first-error validators, reading
 *   schema values by path into the documents (verdict code counts its errors: {@link countOnlyErrors});
 * - `<protocol>-diagnostics-<group>.cjs`: a factory of the group's all-errors, verbose
 *   validators over the copies of the documents that `prepareSchemas` prepares at run time, so
 *   their errors' `schema` / `parentSchema` are nodes of those copies, as the mapper's index expects.
 * Loaded by src/core/schema/generated.ts.
 * CommonJS because validation is synchronous and loads them on first use (`createRequire`):
 * `--version`, `--help` and a run that never validates that protocol load none of them.
 * Our formats (src/core/schema/formats.ts, plain functions) are passed in by the loader rather
 * than imported, so the same file works from src (tsx) and from the build. ajv's runtime
 * helpers are `require`d from its package. test/meta/generated-validators.test.ts fails when the
 * committed files differ from {@link buildValidatorModules}'s output, and checks that two
 * generations give the same bytes.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import standalone from 'ajv/dist/standalone/index.js';
import { _, type Code } from 'ajv/dist/compile/codegen/index.js';
import { _Code } from 'ajv/dist/compile/codegen/code.js';
import { createAjv, type Ajv2020 } from '../src/core/schema/ajv.ts';
import { prepareSchemas } from '../src/core/schema/annotations.ts';
import { AEP_SCHEMA_BASE_ID } from '../src/aep/schema/registry.ts';
import { AHP_SCHEMA_BASE, AHP_SCHEMA_FILES, MCP_DEFAULT_ID } from '../src/ahp/schema/schemas.ts';

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
  /** Export key, schema id or `id#/json-pointer` to compile, and the group (file) it goes in. */
  exports: Array<[string, string, string]>;
  /** Verdict code counts its errors ({@link countOnlyErrors}). */
  countOnly?: boolean;
}

/** Walk `doc`, recording every object/array node's [document index, path]. */
function locate(docs: Obj[]): WeakMap<object, string> {
  const where = new WeakMap<object, string>();
  docs.forEach((doc, i) => {
    const visit = (node: unknown, code: string): void => {
      if (node === null || typeof node !== 'object' || where.has(node)) return;
      where.set(node, code);
      if (Array.isArray(node)) for (const [k, v] of node.entries()) visit(v, `${code}[${k}]`);
      else for (const [k, v] of Object.entries(node)) visit(v, `${code}[${JSON.stringify(k)}]`);
    };
    visit(doc, `@DOCS@[${i}]`);
  });
  return where;
}

/**
 * Standalone code of each group of `spec.exports`, compiled by `ajv` over `docs` (already
 * added): each group's code is self-contained, with every schema value read from `docs[i]...`
 * instead of an inlined copy, and its exports set on `target`.
 */
function compileGroups(ajv: Ajv2020, docs: Obj[], spec: ModuleSpec): Map<string, string> {
  const groups = new Map<string, Record<string, string>>();
  for (const [key, ref, group] of spec.exports) {
    if (!ajv.getSchema(ref)) throw new Error(`${spec.name}: no schema ${ref}`);
    const refs = groups.get(group) ?? {};
    refs[key] = ref;
    groups.set(group, refs);
  }
  const where = locate(docs);
  // ajv's schema scope values (one per compiled schema root) default to an inlined JSON copy
  const scope = (
    ajv as unknown as { scope: { _values: Record<string, Map<unknown, { value?: { ref: unknown; code?: Code } }>> } }
  ).scope;
  for (const name of scope._values.schema?.values() ?? []) {
    const ref = name.value?.ref;
    const at = ref !== null && typeof ref === 'object' ? where.get(ref) : undefined;
    // the rest are the meta-schemas ajv compiled to check ours; the check below catches any used
    if (at !== undefined) name.value!.code = new _Code(at.replace('@DOCS@', 'docs')) as Code;
  }
  const out = new Map<string, string>();
  for (const [group, refs] of groups) {
    // a CommonJS module: the default import is `module.exports`, whose `default` is the function
    let code = standalone.default(ajv, refs);
    code = code.replace(/^"use strict";\n?/, '');
    if (/\bschema\d+ = \{/.test(code)) throw new Error(`${spec.name}: an inlined schema copy is left`);
    out.set(group, code.replace(/\bexports(?=[.[])/g, 'target'));
  }
  return out;
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
  return verdictCallPaths(out + code.slice(from));
}

/**
 * Verdict code whose calls of referenced validators pass the caller's `instancePath` on instead
 * of building the callee's (`instancePath+"/params"`, or with a member name escaped by two
 * regex replacements): in verdict code the path is only ever written into error objects, which
 * {@link placeholderErrors} has emptied, so no verdict changes and no string is built per call.
 * @throws Error when a path expression is left (ajv's code shape changed).
 */
function verdictCallPaths(code: string): string {
  const out = code.replace(/\{instancePath:instancePath\+.*?,parentData:/g, '{instancePath,parentData:');
  if (/\{instancePath:instancePath\+/.test(out)) throw new Error('verdict code: a call path expression is left');
  return verdictCallOptions(out);
}

/**
 * Verdict code whose calls of referenced validators all pass one frozen options object,
 * `VERDICT_CALL`, instead of a new `{instancePath, parentData, parentDataProperty, rootData,
 * dynamicAnchors}` per call (and the callee's fresh `dynamicAnchors = {}` default): verdict
 * code reads none of them (no `$data`, no `$dynamicRef`, errors are placeholders), which the
 * check below holds. @throws Error when a call's options are left or the code reads one.
 */
function verdictCallOptions(code: string): string {
  const out = code.replace(
    /\{instancePath,parentData(?::[A-Za-z0-9_]+)?,parentDataProperty(?::(?:"(?:[^"\\]|\\.)*"|[A-Za-z0-9_]+))?,rootData,dynamicAnchors\}/g,
    'VERDICT_CALL',
  );
  if (/\{instancePath,parentData/.test(out)) throw new Error('verdict code: a call options object is left');
  if (/(parentData|parentDataProperty|rootData|dynamicAnchors)\s*\[|\$data/.test(out))
    throw new Error('verdict code reads its call options');
  return out;
}

/**
 * Verdict code that counts its errors instead of listing them: ajv's error bookkeeping (push a placeholder, truncate the
 * list back, concatenate a callee's list) becomes `errors++` and the resets alone, and no validator sets `.errors`.
 * Sound because verdict code compares `errors` only with 0 and with a count it saved earlier, and resets it only to
 * such a count: a failing callee adding one error instead of its own count changes no comparison. The call options go
 * too (verdict code reads none, {@link verdictCallOptions}). @throws Error when a list or an option is left (ajv's code
 * shape changed).
 */
function countOnlyErrors(code: string): string {
  const out = code
    .replace(
      /^const (err\d+) = \{\};\nif\(vErrors === null\)\{\nvErrors = \[\1\];\n\}\nelse \{\nvErrors\.push\(\1\);\n\}\nerrors\+\+;$/gm,
      'errors++;',
    )
    .replace(
      /^if\(vErrors !== null\)\{\nif\((_errs\d+)\)\{\nvErrors\.length = \1;\n\}\nelse \{\nvErrors = null;\n\}\n\}\n/gm,
      '',
    )
    .replace(
      /^vErrors = vErrors === null \? (validate\d+)\.errors : vErrors\.concat\(\1\.errors\);\nerrors = vErrors\.length;$/gm,
      'errors++;',
    )
    .replace(/^let vErrors = null;\n|^validate\d+\.errors = (?:vErrors|\[\{\}\]);\n/gm, '')
    .replace(
      /^function (validate\d+)\(data, \{instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors=\{\}\}=\{\}\)\{$/gm,
      'function $1(data){',
    )
    .replaceAll(', VERDICT_CALL)', ')');
  if (/vErrors|\.errors\b|VERDICT_CALL|instancePath|parentData|rootData|dynamicAnchors/.test(out))
    throw new Error('verdict code: an error list or a call option is left');
  return out;
}

/**
 * Verdict code whose string length bounds read `.length` before counting code points: ajv counts a string's code points
 * (`ucs2length`, one pass over the string) for every `minLength` / `maxLength`, and most of ours are `minLength: 1`
 * (`nonEmptyString`). A string's code points are at most its length and at least one when it is not empty, so `< 1`
 * is `.length === 0`, and a bound that the length alone decides skips the count; no verdict changes.
 * @throws Error when a count is left in another form (ajv's code shape changed).
 */
function lengthFirst(code: string): string {
  const m = /^const (func\d+) = require\("ajv\/dist\/runtime\/ucs2length"\)\.default;$/m.exec(code);
  if (!m) return code;
  const f = m[1]!;
  let seen = 0;
  const out = code.replace(
    new RegExp(`\\b${f}\\((\\w+)\\) ([<>]) (\\d+)\\)`, 'g'),
    (_all, x: string, op: string, n: string) => {
      seen++;
      if (op === '<' && n === '1') return `${x}.length === 0)`;
      return op === '<' ? `(${x}.length < ${n} || ${f}(${x}) < ${n}))` : `(${x}.length > ${n} && ${f}(${x}) > ${n}))`;
    },
  );
  if (code.split(`${f}(`).length - 1 !== seen) throw new Error('verdict code: a ucs2length call of another form');
  return out;
}

/**
 * Standalone code (written one statement per line) split into its top-level statements: a
 * function declaration with its body is one, each other line at depth 0 one.
 * @throws Error when the braces do not balance (ajv's code shape changed).
 */
function topLevelStatements(code: string): string[] {
  const out: string[] = [];
  let current = '';
  let depth = 0;
  for (const line of code.split('\n')) {
    current += current === '' ? line : `\n${line}`;
    // braces outside string literals; ajv writes every string with JSON.stringify
    for (let k = 0; k < line.length; k++) {
      const c = line[k];
      if (c === '"') for (k++; line[k] !== '"'; k++) k += line[k] === '\\' ? 1 : 0;
      else if (c === '{') depth++;
      else if (c === '}') depth--;
    }
    if (depth < 0) throw new Error('standalone code: unbalanced braces');
    if (depth === 0) {
      out.push(current);
      current = '';
    }
  }
  if (current !== '') throw new Error('standalone code: unbalanced braces');
  return out;
}

const VALIDATE_NAME = /\bvalidate\d+\b/g;

/**
 * Standalone code with identical validators merged into one. ajv compiles a `$ref` target once
 * per document that refers to it (and once more as an export), so a definition shared by
 * several documents is written several times. Two validators are identical when their code (the
 * declaration and its `.evaluated` statement) is the same text once each validator name in it is
 * read as its class: the classes are refined from "same text up to validator names" until they
 * are stable, as in DFA minimisation. Each class keeps its first validator; the others are
 * removed and every reference is renamed, so the code runs the same checks in the same order.
 */
function mergeIdenticalValidators(code: string): string {
  const statements = topLevelStatements(code);
  const own = new Map<string, number[]>();
  statements.forEach((s, i) => {
    const m = /^function (validate\d+)\(|^(validate\d+)\.evaluated = /.exec(s);
    if (!m) return;
    const name = (m[1] ?? m[2]) as string;
    own.set(name, [...(own.get(name) ?? []), i]);
  });
  const names = [...own.keys()];
  const text = new Map(
    names.map((n) => [
      n,
      own
        .get(n)!
        .map((i) => statements[i])
        .join('\n'),
    ]),
  );
  // classes as numbers: first by text up to validator names, then split by the classes named
  const classify = (signature: (n: string) => string): Map<string, number> => {
    const ids = new Map<string, number>();
    return new Map(
      names.map((n) => {
        const key = signature(n);
        if (!ids.has(key)) ids.set(key, ids.size);
        return [n, ids.get(key)!];
      }),
    );
  };
  let classOf = classify((n) => text.get(n)!.replace(VALIDATE_NAME, 'V'));
  for (;;) {
    const before = classOf;
    classOf = classify((n) => `${before.get(n)}:${text.get(n)!.replace(VALIDATE_NAME, (v) => `V${before.get(v)}`)}`);
    // refinement only splits classes: an unchanged count is a stable partition
    if (new Set(classOf.values()).size === new Set(before.values()).size) break;
  }
  const first = new Map<number, string>();
  for (const n of names) if (!first.has(classOf.get(n)!)) first.set(classOf.get(n)!, n);
  const rename = (v: string) => (own.has(v) ? first.get(classOf.get(v)!)! : v);
  const dropped = new Set(names.filter((n) => rename(n) !== n).flatMap((n) => own.get(n)!));
  return statements
    .filter((_, i) => !dropped.has(i))
    .map((s) => s.replace(VALIDATE_NAME, rename))
    .join('\n');
}

function aepSpec(): ModuleSpec {
  const registry = readDoc('schemas/aep/registry.json') as { types: Array<{ type: string; schema: string | null }> };
  const files = ['schemas/aep/envelope.schema.json'];
  const exports: Array<[string, string, string]> = [['envelope', `${AEP_SCHEMA_BASE_ID}envelope.schema.json`, 'all']];
  for (const row of registry.types) {
    if (row.schema === null) continue;
    files.push(`schemas/aep/types/${row.schema}`);
    exports.push([row.type, `${AEP_SCHEMA_BASE_ID}types/${row.type}.schema.json`, 'all']);
  }
  return {
    name: 'aep',
    title: 'AEP 0.1 envelope and payload schemas (schemas/aep/)',
    files,
    docs: files.map(readDoc),
    base: AEP_SCHEMA_BASE_ID,
    exports,
    countOnly: true,
  };
}

function ahpSpec(): ModuleSpec {
  const files = [...AHP_SCHEMA_FILES.map((f) => `schemas/ahp/${f}`), 'schemas/mcp/mcp-elicitation.schema.json'];
  const docs = files.map(readDoc);
  const mcp = docs[docs.length - 1];
  if (typeof mcp.$id !== 'string') mcp.$id = MCP_DEFAULT_ID;
  // the refs the AHP checks name: the wire and registration roots, every event and message
  // shape (validation roots named by upstream `$schema` values map onto these), the effect,
  // and every definition of the MCP extraction (its request/result variants). One group: the
  // wire validator alone holds most of the code (every message and event shape), so splitting
  // saves a valid stdio run little and costs a failing one a second copy of the shapes
  const exports: Array<[string, string, string]> = [];
  const add = (group: string, file: string, def?: string) => {
    const doc =
      docs[files.indexOf(file.includes(':') ? 'schemas/mcp/mcp-elicitation.schema.json' : `schemas/ahp/${file}`)];
    const id = doc.$id as string;
    exports.push(def === undefined ? [file, id, group] : [`${file}#/$defs/${def}`, `${id}#/$defs/${def}`, group]);
  };
  const defsOf = (i: number) => (isObj(docs[i].$defs) ? Object.keys(docs[i].$defs as Obj) : []);
  add('all', 'wire.schema.json');
  add('all', 'registration.schema.json');
  add('all', 'effects.schema.json', 'effect');
  // the boundary contracts of `return` values and the schema-backed modify targets (src/ahp/analyzers/effects-*.ts)
  const effectsDefs = docs[AHP_SCHEMA_FILES.indexOf('effects.schema.json')].$defs as Obj;
  for (const table of ['returnContracts', 'modifyValues']) {
    const inner = (effectsDefs[table] as Obj).$defs as Obj;
    for (const key of Object.keys(inner)) add('all', 'effects.schema.json', `${table}/$defs/${key}`);
  }
  const eventsAt = AHP_SCHEMA_FILES.indexOf('events.schema.json');
  for (const def of defsOf(eventsAt)) add('all', 'events.schema.json', def);
  // each event's overlay apart from the envelope (`allOf` [envelope, overlay]) and the common definitions the envelope
  // names: src/ahp/schema/wire-fast.ts checks a dominant event's envelope by hand and its overlay alone
  for (const def of defsOf(eventsAt)) {
    const ref = ((docs[eventsAt].$defs as Obj)[def] as { allOf?: { $ref?: unknown }[] }).allOf?.[1]?.$ref;
    const m = typeof ref === 'string' ? /^([a-z-]+\.schema\.json)#\/\$defs\/([a-z.]+)$/.exec(ref) : null;
    if (m) add('all', m[1]!, m[2]);
  }
  for (const def of ['session', 'turn', 'gaps', 'native', 'extensions', 'synthesized'])
    add('all', 'common.schema.json', def);
  for (const def of defsOf(AHP_SCHEMA_FILES.indexOf('messages.schema.json'))) add('all', 'messages.schema.json', def);
  for (const def of defsOf(docs.length - 1)) add('all', mcp.$id as string, def);
  return {
    name: 'ahp',
    title: 'AHP draft schemas (schemas/ahp/) and the pinned MCP elicitation extraction (schemas/mcp/)',
    files,
    docs,
    base: AHP_SCHEMA_BASE,
    exports,
    countOnly: true,
  };
}

/** Whether any of `docs` has an `unevaluatedProperties` or `unevaluatedItems` keyword (ajv must then track evaluation). */
export function usesUnevaluated(docs: readonly unknown[]): boolean {
  const visit = (node: unknown): boolean => {
    if (node === null || typeof node !== 'object') return false;
    if (Array.isArray(node)) return node.some(visit);
    return Object.entries(node).some(([k, v]) => k === 'unevaluatedProperties' || k === 'unevaluatedItems' || visit(v));
  };
  return docs.some(visit);
}

const HEADER = (
  spec: ModuleSpec,
) => `// GENERATED by tools/gen-validators.ts (\`npm run validators:gen\`) from ${spec.title}.
// Do not edit: test/meta/generated-validators.test.ts fails when this file is stale.
`;

/** The generated files of one spec, by file name. */
function buildModule(spec: ModuleSpec): Map<string, string> {
  const out = new Map<string, string>();
  // ajv's code optimiser costs nothing at run time here (it runs at build time) and trims the
  // code; one statement per line, so that a schema change reads as a diff of the code
  const code = { lines: true, source: true, esm: false, optimize: 1, formats: _`STRICT_FORMATS` };
  // verdict code tests its patterns through `memoPattern` (src/core/schema/memo-pattern.ts, passed in by the loader)
  // at build time a plain RegExp: ajv keys each pattern's scope value by the engine result's
  // toString(), which only a RegExp makes unique
  const memoEngine = Object.assign((source: string, flags: string) => new RegExp(source, flags), {
    code: 'memoPattern',
  });
  const verdictAjv = createAjv({
    diagnostic: false,
    evaluated: usesUnevaluated(spec.docs),
    code: { ...code, regExp: memoEngine },
  });
  for (const doc of spec.docs) verdictAjv.addSchema(structuredClone(doc));
  // compile from the ajv's own copies, located in the same order as DOCS
  const verdictDocs = spec.docs.map((d) => verdictAjv.getSchema(d.$id as string)!.schema as Obj);
  const verdicts = compileGroups(verdictAjv, verdictDocs, spec);

  const prepared = new Map(spec.docs.map((d) => [d.$id as string, structuredClone(d)]));
  prepareSchemas(prepared, spec.base);
  const diagAjv = createAjv({ diagnostic: true, code });
  for (const doc of prepared.values()) diagAjv.addSchema(doc);
  const diagnostics = compileGroups(diagAjv, [...prepared.values()], spec);

  // the documents are read from schemas/ at run time (the package ships them); the length of
  // each text (line ends as LF) lets the loader refuse a schema edited since this generation
  const documents = spec.files
    .map((file, i) => {
      const length = readFileSync(new URL(file, ROOT), 'utf8').replaceAll('\r\n', '\n').length;
      return `  { file: ${JSON.stringify(file)}, id: ${JSON.stringify(spec.docs[i].$id)}, length: ${length} },`;
    })
    .join('\n');
  const groups = spec.exports.map(([key, , group]) => `  ${JSON.stringify(key)}: ${JSON.stringify(group)},`).join('\n');
  out.set(
    `${spec.name}-docs.cjs`,
    `${HEADER(spec)}'use strict';

/**
 * The schema documents the validators read, in this order: the repository path of each, its
 * \`$id\` (set when the file has none) and the length of its text when generated.
 */
exports.DOCUMENTS = [
${documents}
];

/** The group of each validator key: its code is in \`${spec.name}-verdicts-<group>.cjs\` and \`${spec.name}-diagnostics-<group>.cjs\`. */
exports.GROUPS = {
${groups}
};
`,
  );
  const keys = spec.exports.map(([k]) => `  | ${JSON.stringify(k)}`).join('\n');
  out.set(
    `${spec.name}-docs.d.cts`,
    `${HEADER(spec)}
/** A validator key: ${spec.name === 'aep' ? '`envelope` or a registered type' : 'a document file name, or with `#/$defs/<name>` (the MCP extraction by its `$id`)'}. */
export type ValidatorKey =
${keys};

/** The schema documents the validators read (repository path, \`$id\`, text length), in order. */
export declare const DOCUMENTS: readonly { file: string; id: string; length: number }[];

/** The group (file) of each validator key. */
export declare const GROUPS: Readonly<Record<ValidatorKey, string>>;
`,
  );
  for (const [group, text] of verdicts) {
    out.set(
      `${spec.name}-verdicts-${group}.cjs`,
      `${HEADER(spec)}'use strict';

/**
 * The verdict validators (first error only) of group \`${group}\` by key, over \`docs\` (the
 * documents the docs module's \`DOCUMENTS\` lists, as read); \`STRICT_FORMATS\` is
 * src/core/schema/formats.ts's, \`memoPattern\` src/core/schema/memo-pattern.ts's. Call once.
 */
module.exports = function verdicts(docs, STRICT_FORMATS, memoPattern) {
${spec.countOnly ? '' : 'const VERDICT_CALL = Object.freeze({ instancePath: "", dynamicAnchors: Object.freeze({}) });\n'}const target = {};
${mergeIdenticalValidators(lengthFirst(spec.countOnly ? countOnlyErrors(placeholderErrors(text)) : placeholderErrors(text)))}
return target;
};
`,
    );
  }
  for (const [group, text] of diagnostics) {
    out.set(
      `${spec.name}-diagnostics-${group}.cjs`,
      `${HEADER(spec)}'use strict';

/**
 * The diagnostic validators (all errors, verbose) of group \`${group}\` by key, over \`docs\`:
 * copies of the documents (same order) prepared by \`prepareSchemas\`. Call once.
 */
module.exports = function diagnostics(docs, STRICT_FORMATS) {
const target = {};
${mergeIdenticalValidators(text)}
return target;
};
`,
    );
  }
  return out;
}

/** Every generated file, by file name under src/generated/. */
export function buildValidatorModules(): Map<string, string> {
  const out = new Map<string, string>();
  for (const spec of [aepSpec(), ahpSpec()]) {
    for (const [name, text] of buildModule(spec)) out.set(name, text);
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
