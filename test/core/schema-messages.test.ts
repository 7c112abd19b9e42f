/**
 * Schema findings are data (docs/architecture.md §Schema stage): each carries a template key of its protocol's table
 * and the arguments the template names (plus the ajv keyword, and the format of a format error). Over every case of
 * ours, the upstream corpora and one-member mutants of the passing events: rendering the template with the finding's
 * arguments gives exactly its message, and an argument the template does not render is vocabulary (keyword, format),
 * never a string of the input; a planted string is never among the arguments unless the sentence named it before.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Finding, validate } from '../../src/index.ts';
import { bridgeOfCaseName, profileOfCaseName } from '../../src/core/case-names.ts';
import { placeholders, renderMessage } from '../../src/core/message.ts';
import type { Protocol } from '../../src/core/protocol.ts';
import type { RuleMeta } from '../../src/core/rule.ts';
import { visible } from '../../src/core/visible.ts';
import { FORMAT_WORDS } from '../../src/core/schema/wording.ts';
import { AEP_SCHEMA_TEMPLATES } from '../../src/aep/schema/templates.ts';
import { AHP_SCHEMA_TEMPLATES, MCP_BODY_TEMPLATES } from '../../src/ahp/schema/templates.ts';
import { PROTOCOLS } from '../../src/run/protocols.ts';
import { sweep } from '../scale.ts';
import { optionalShared, SHARED } from '../shared.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Case files below `dir` (JSONL; for AHP also single JSON documents), sidecars and manifests aside. */
function casesBelow(dir: string | undefined, json: boolean): string[] {
  if (dir === undefined || !existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...casesBelow(p, json));
    else if (name.endsWith('.jsonl')) out.push(p);
    else if (json && name.endsWith('.json') && !/(\.expected|manifest|deviations)\.json$/.test(name)) out.push(p);
  }
  return out;
}

/** Every string value of the JSON texts of `text` (each line, and the whole): what an argument must not carry. */
function inputStrings(text: string): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const t of [text, ...text.split('\n')]) {
    try {
      walk(JSON.parse(t));
    } catch {
      // not JSON: no values
    }
  }
  return out;
}

const SCHEMA_TABLES = new Set<unknown>([AEP_SCHEMA_TEMPLATES, AHP_SCHEMA_TEMPLATES, MCP_BODY_TEMPLATES]);
/** What an argument the sentence does not render may be: an ajv keyword, a format, the pointer of an MCP body part. */
const VOCABULARY = new Set(['keyword', 'format', 'partPointer']);
/** The ajv keywords of our schemas (JSON Schema 2020-12), and `false schema`. */
const KEYWORDS = new Set(
  'type const enum pattern format minimum maximum exclusiveMinimum exclusiveMaximum multipleOf minLength maxLength minItems maxItems uniqueItems contains minProperties maxProperties required additionalProperties unevaluatedProperties unevaluatedItems propertyNames dependentRequired oneOf anyOf not if false schema'
    .split(' ')
    .concat('false schema'),
);

/** The schema rules of a protocol's catalogue, by id. */
function schemaRules(protocol: Protocol): Map<string, RuleMeta> {
  return new Map(
    PROTOCOLS[protocol]
      .rules()
      .filter((r) => SCHEMA_TABLES.has(r.sharedMessages))
      .map((r) => [r.id, r]),
  );
}

interface Tally {
  findings: number;
  ids: Set<string>;
}

/** Check the relation for every schema finding of `text`; `planted`: a string that must only appear where rendered. */
async function check(protocol: Protocol, file: string, text: string, tally: Tally, planted?: string): Promise<void> {
  const from = protocol === 'aep' ? bridgeOfCaseName(file) : undefined;
  const profile = protocol === 'aep' ? profileOfCaseName(file) : undefined;
  const source = file.endsWith('.json') ? file : 'case.jsonl';
  const input = file.endsWith('.json') ? { path: file } : { text, source };
  const run = await validate(protocol, input, { ...(from ? { from } : {}), ...(profile ? { profile } : {}) });
  const rules = schemaRules(protocol);
  const strings = inputStrings(text);
  const where = (f: Finding) => `${relative(ROOT, file)} line ${f.line} ${f.ruleId} ${f.messageId}`;
  for (const f of run.findings) {
    const rule = rules.get(f.ruleId);
    if (!rule) continue;
    const id = f.messageId ?? '';
    const template = rule.messages?.[id] ?? rule.sharedMessages?.[id];
    assert.ok(template !== undefined, `${where(f)}: no template`);
    assert.ok(!template.includes('{sentence}'), `${where(f)}: a sentence composed at check time`);
    assert.equal(visible(renderMessage(template, f.args, f.source)), f.message, where(f));
    // the rest holds the schema stage's messages (a rule's own templates are any rule's)
    if (rule.messages?.[id] !== undefined) continue;
    tally.findings++;
    tally.ids.add(`${protocol} ${id}`);
    const rendered = new Set(placeholders(template));
    for (const [name, a] of Object.entries(f.args ?? {})) {
      if (rendered.has(name)) continue;
      assert.ok(VOCABULARY.has(name), `${where(f)}: argument ${name} is not in the sentence`);
      // vocabulary: an ajv keyword, a format the table words; the same string in the input is a coincidence
      const ok =
        name === 'format'
          ? Object.hasOwn(FORMAT_WORDS, String(a))
          : name === 'partPointer'
            ? /^\/params\/event\/elicitation\/(request|result)$/.test(String(a))
            : KEYWORDS.has(String(a));
      assert.ok(
        ok,
        `${where(f)}: ${name} ${JSON.stringify(a)}${strings.has(String(a)) ? ' (a string of the input)' : ''}`,
      );
    }
    if (planted !== undefined)
      for (const [name, a] of Object.entries(f.args ?? {}))
        if (typeof a === 'string' && a.includes(planted))
          assert.ok(rendered.has(name), `${where(f)}: the planted string in ${name}, which the sentence does not show`);
  }
}

const CORPORA: Record<Protocol, () => Array<string | undefined>> = {
  aep: () => [join(ROOT, 'conformance/aep'), join(ROOT, 'examples')],
  ahp: () => [join(ROOT, 'conformance/ahp')],
};

for (const protocol of ['aep', 'ahp'] as const) {
  test(`${protocol}: every schema finding of the cases and the upstream corpus renders from its template and args`, async (t) => {
    const upstream = optionalShared(t, protocol === 'aep' ? SHARED.aepCorpus : SHARED.ahpCorpus);
    const files = [...CORPORA[protocol](), upstream].flatMap((d) => casesBelow(d, protocol === 'ahp'));
    const tally: Tally = { findings: 0, ids: new Set() };
    for (const file of files) await check(protocol, file, readFileSync(file, 'utf8'), tally);
    t.diagnostic(`${tally.findings} schema findings, ${tally.ids.size} shared templates`);
    assert.ok(tally.findings > 20, `only ${tally.findings} schema findings`);
  });

  test(`${protocol}: one-member mutants of the passing cases: the relation holds, and a planted string stays out of unrendered args`, async (t) => {
    const PLANTED = 'PLANTED-9f3c';
    const VALUES: unknown[] = [null, [], {}, 0, '', true, 1.5, PLANTED, `${PLANTED} ${'x'.repeat(300)}`];
    const pass = casesBelow(join(ROOT, 'conformance', protocol, 'pass'), false);
    const tally: Tally = { findings: 0, ids: new Set() };
    const tried = new Set<string>();
    for (const file of sweep(t, pass)) {
      const out: string[] = [];
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          continue;
        }
        const v0 = value as { type?: unknown; method?: unknown; params?: { event?: { type?: unknown } } } | null;
        const kind = `${String(v0?.type)}|${String(v0?.method)}|${String(v0?.params?.event?.type)}`;
        const visit = (node: unknown, at: string) => {
          if (node === null || typeof node !== 'object') return;
          for (const [k, child] of Object.entries(node)) {
            const pointer = `${at}/${k}`;
            if (!tried.has(kind + pointer)) {
              tried.add(kind + pointer);
              for (const v of VALUES) {
                (node as Record<string, unknown>)[k] = v;
                out.push(JSON.stringify(value));
              }
              (node as Record<string, unknown>)[k] = child;
            }
            visit(child, pointer);
          }
        };
        visit(value, '');
      }
      if (out.length) await check(protocol, file, out.join('\n') + '\n', tally, PLANTED);
    }
    t.diagnostic(`${tally.findings} schema findings, ${tally.ids.size} shared templates`);
    assert.ok(tally.findings > 100, `only ${tally.findings} schema findings`);
  });
}

test('a schema rule names no template of its own that the shared table words too', () => {
  for (const protocol of ['aep', 'ahp'] as const)
    for (const r of schemaRules(protocol).values())
      for (const k of Object.keys(r.messages ?? {}))
        assert.equal(r.sharedMessages?.[k], undefined, `${r.id}: ${k} is in its messages and the shared table`);
});
