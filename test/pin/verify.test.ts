import { existsSync } from 'node:fs';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import {
  DEFAULT_EXTRACTION,
  DEFAULT_PIN_DIR,
  PIN_RULES,
  extractElicitation,
  headerOf,
  pinVerify,
} from '../../src/pin/index.ts';
import {
  AHP_EXTRACTION_SHA,
  HEAD_SHA,
  REPO_DIR,
  TAG_SHA,
  pinText,
  put,
  readShared,
  sha256,
  tempDir,
} from './helpers.ts';

const SCHEMA_TS = 'stand-in for schema.ts\n';

const ids = (fs: Finding[]): string[] => fs.map((f) => f.ruleId);
const errors = (fs: Finding[]): Finding[] => fs.filter((f) => f.severity === 'error');

/** Our layout in a temp folder: pin folder, vendored schema.json (+ optional schema.ts), extraction. */
async function ourLayout(
  t: TestContext,
  schemaJson: Uint8Array,
  opts: { schemaTs?: boolean; extraction?: string | null } = {},
): Promise<{ root: string; dir: string; extraction: string }> {
  const root = await tempDir(t);
  const dir = join(root, DEFAULT_PIN_DIR);
  const extraction = join(root, DEFAULT_EXTRACTION);
  await put(join(dir, 'pin.json'), pinText({ 'schema.ts': sha256(SCHEMA_TS), 'schema.json': TAG_SHA }));
  await put(join(dir, 'schema.json'), schemaJson);
  if (opts.schemaTs !== false) await put(join(dir, 'schema.ts'), SCHEMA_TS);
  if (opts.extraction !== null) {
    await put(extraction, opts.extraction ?? (await readFile(join(REPO_DIR, DEFAULT_EXTRACTION), 'utf8')));
  }
  return { root, dir, extraction };
}

function editedSchema(tag: Buffer): string {
  const src = JSON.parse(tag.toString('utf8'));
  src.$defs.PrimitiveSchemaDefinition.anyOf = src.$defs.PrimitiveSchemaDefinition.anyOf.filter(
    (r: { $ref: string }) => !r.$ref.endsWith('/LegacyTitledEnumSchema'),
  );
  return JSON.stringify(src, null, 2) + '\n';
}

test('our layout with the tag schema.json: digest and extraction verify', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const { dir, extraction } = await ourLayout(t, s.tag);
  assert.deepEqual(await pinVerify({ dir, extraction }), []);
});

test('a missing source is an error (pin/missing-source), or a warning with allowMissing (pin/missing-source-allowed); the extraction is still checked', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const { dir, extraction } = await ourLayout(t, s.tag, { schemaTs: false });
  const strict = await pinVerify({ dir, extraction });
  assert.deepEqual(ids(strict), ['pin/missing-source']);
  assert.equal(strict[0].severity, 'error');
  assert.equal(strict[0].source, join(dir, 'schema.ts'));
  const lenient = await pinVerify({ dir, extraction, allowMissing: true });
  assert.deepEqual(ids(lenient), ['pin/missing-source-allowed']);
  assert.equal(lenient[0].severity, 'warning');
});

test('without schema.json the extraction check is reported as skipped', async (t) => {
  const root = await tempDir(t);
  const dir = join(root, 'pin');
  await put(join(dir, 'pin.json'), pinText({ 'schema.ts': sha256(SCHEMA_TS), 'schema.json': TAG_SHA }));
  const fs = await pinVerify({ dir, extraction: join(root, 'x.json'), allowMissing: true });
  // nothing present: nothing verified is an error, never a pass
  assert.deepEqual(ids(fs), [
    'pin/missing-source-allowed',
    'pin/missing-source-allowed',
    'pin/nothing-verified',
    'pin/extraction-skipped',
  ]);
  assert.deepEqual(
    errors(fs).map((f) => f.ruleId),
    ['pin/nothing-verified'],
  );
  assert.equal(fs[3].severity, 'info');
  // one source present: its digest is checked and the run passes
  await put(join(dir, 'schema.ts'), SCHEMA_TS);
  const one = await pinVerify({ dir, extraction: join(root, 'x.json'), allowMissing: true });
  assert.deepEqual(ids(one), ['pin/missing-source-allowed', 'pin/extraction-skipped']);
  assert.deepEqual(errors(one), []);
});

test('AHP checkout layout (schema/draft/mcp-elicitation.schema.json) verifies and reproduces 52473b9e…', async (t) => {
  const s = await readShared(t, 'tag', 'ahpExtraction', 'ahpPin');
  if (!s) return;
  const root = await tempDir(t);
  const dir = join(root, 'upstream/mcp/2025-11-25');
  const extraction = join(root, 'schema/draft/mcp-elicitation.schema.json');
  await put(join(dir, 'pin.json'), s.ahpPin);
  await put(join(dir, 'schema.json'), s.tag);
  await put(extraction, s.ahpExtraction);
  // schema.ts is not available offline: allowMissing turns its absence into a warning.
  const fs = await pinVerify({ dir, extraction, allowMissing: true });
  assert.deepEqual(errors(fs), []);
  assert.deepEqual(ids(fs), ['pin/missing-source-allowed']);
  assert.equal(fs[0].source, join(dir, 'schema.ts'));
  const again = extractElicitation(s.tag.toString('utf8'), headerOf(s.ahpExtraction.toString('utf8')));
  assert.equal(sha256(again), AHP_EXTRACTION_SHA);
});

test('the HEAD schema.json: digest mismatch for schema.json only, extraction check passes', async (t) => {
  const s = await readShared(t, 'head');
  if (!s) return;
  const { dir, extraction } = await ourLayout(t, s.head);
  const fs = await pinVerify({ dir, extraction });
  assert.deepEqual(ids(fs), ['pin/digest-mismatch']);
  assert.equal(fs[0].source, join(dir, 'schema.json'));
  assert.equal(fs[0].severity, 'error');
  assert.equal(fs[0].spec, 'AHP interaction-payloads §Pinned upstream maintenance');
  assert.deepEqual(
    { expected: fs[0].args?.expected, actual: fs[0].args?.actual },
    { expected: TAG_SHA, actual: HEAD_SHA },
  );
});

test('a hand-edited schema.json (LegacyTitledEnumSchema variant removed) fails both checks', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const { dir, extraction } = await ourLayout(t, Buffer.from(editedSchema(s.tag)));
  const fs = await pinVerify({ dir, extraction });
  assert.deepEqual(ids(fs), ['pin/digest-mismatch', 'pin/extraction-mismatch']);
  assert.equal(fs[1].source, extraction);
  assert.equal(typeof fs[1].line, 'number');
});

test('the comparison is header-insensitive but byte-exact below the header', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const own = extractElicitation(s.tag.toString('utf8'), { $id: 'urn:x', title: 'another header' });
  const a = await ourLayout(t, s.tag, { extraction: own });
  assert.deepEqual(await pinVerify(a), []);

  const edited = own.replace('"type": "boolean"', '"type": "string"');
  const b = await ourLayout(t, s.tag, { extraction: edited });
  const fs = await pinVerify(b);
  assert.deepEqual(ids(fs), ['pin/extraction-mismatch']);
  const line = edited.split('\n').findIndex((l) => l.includes('"type": "string"')) + 1;
  assert.equal(fs[0].line, line);

  const crlf = await ourLayout(t, s.tag, { extraction: own.replace(/\n/g, '\r\n') });
  assert.deepEqual(ids(await pinVerify(crlf)), ['pin/extraction-mismatch']);
  const notJson = await ourLayout(t, s.tag, { extraction: 'not json' });
  assert.deepEqual(ids(await pinVerify(notJson)), ['pin/extraction-mismatch']);
  const missing = await ourLayout(t, s.tag, { extraction: null });
  assert.deepEqual(ids(await pinVerify(missing)), ['pin/missing-extraction']);
});

test('a schema.json that cannot be extracted is reported, not thrown', async (t) => {
  const { dir, extraction } = await ourLayout(t, Buffer.from('{"$defs": {}}'), { extraction: '{}' });
  assert.deepEqual(ids(await pinVerify({ dir, extraction })), ['pin/digest-mismatch', 'pin/extraction-failed']);
});

test('invalid pins', async (t) => {
  const root = await tempDir(t);
  const dir = join(root, 'p');
  const extraction = join(root, 'x.json');
  const run = async (text: string | null): Promise<Finding[]> => {
    if (text !== null) await put(join(dir, 'pin.json'), text);
    return pinVerify({ dir, extraction, allowMissing: true });
  };
  assert.deepEqual(ids(await run(null)), ['pin/invalid-pin']);
  assert.deepEqual(ids(await run('{')), ['pin/invalid-pin']);
  assert.deepEqual(ids(await run('{"version": "2025-11-25"}')), ['pin/invalid-pin']);
  assert.deepEqual(ids(await run('{"version": "../x", "sources": {}}')), ['pin/invalid-pin']);
  type PinShape = { version: string; sources: Record<string, { url: string; sha256: string }> };
  const good = JSON.parse(pinText({ 'schema.ts': TAG_SHA, 'schema.json': TAG_SHA })) as PinShape;
  const variant = (f: (p: PinShape) => void): string => {
    const p = structuredClone(good);
    f(p);
    return JSON.stringify(p);
  };
  assert.deepEqual(ids(await run(variant((p) => delete p.sources['schema.json']))), ['pin/invalid-pin']);
  assert.deepEqual(ids(await run(variant((p) => (p.sources['schema.ts'].sha256 = 'ABC')))), ['pin/invalid-pin']);
  const unsafe = await run(variant((p) => (p.sources['../x'] = { url: 'https://h/2025-11-25/x', sha256: TAG_SHA })));
  assert.deepEqual(
    errors(unsafe).map((f) => f.ruleId),
    ['pin/unsafe-source-name'],
  );
  assert.equal(unsafe[0].source, join(dir, 'pin.json'));
  const branch = await run(
    variant(
      (p) => (p.sources['schema.ts'].url = p.sources['schema.ts'].url.replace('/2025-11-25/schema/', '/main/schema/')),
    ),
  );
  assert.ok(ids(branch).includes('pin/unpinned-url'));
  const http = await run(
    variant((p) => (p.sources['schema.ts'].url = p.sources['schema.ts'].url.replace('https:', 'http:'))),
  );
  assert.ok(ids(http).includes('pin/unpinned-url'));
});

test("the repository's own pin folder: pin.json is valid; without the upstream bytes nothing is verified", async () => {
  const fs = await pinVerify({
    dir: join(REPO_DIR, DEFAULT_PIN_DIR),
    extraction: join(REPO_DIR, DEFAULT_EXTRACTION),
    allowMissing: true,
  });
  // the upstream bytes are git-ignored: a checkout without them verifies no digest (an error, not a pass)
  const present = ['schema.ts', 'schema.json'].filter((n) => existsSync(join(REPO_DIR, DEFAULT_PIN_DIR, n)));
  assert.deepEqual(
    errors(fs).map((f) => f.ruleId),
    present.length ? [] : ['pin/nothing-verified'],
  );
  const pin = JSON.parse(await readFile(join(REPO_DIR, DEFAULT_PIN_DIR, 'pin.json'), 'utf8'));
  assert.equal(pin.sources['schema.json'].sha256, TAG_SHA);
  assert.equal(pin.sources['schema.ts'].sha256, '0845473b20273dae35df6651b831540be3d5866a42d0ad324e4a06caaa398a07');
});

test('every rule in PIN_RULES has a citation and a one-sentence description', () => {
  const seen = new Set<string>();
  for (const r of PIN_RULES) {
    assert.match(r.id, /^pin\/[a-z-]+$/);
    assert.ok(!seen.has(r.id), `duplicate ${r.id}`);
    seen.add(r.id);
    assert.ok(r.spec.length > 0 && r.description.endsWith('.'));
  }
});

test('pin verify --format json names every source it looked at, absent ones included', async () => {
  const { runCli } = await import('../cli/helpers.ts');
  const r = await runCli('ahp', ['pin', 'verify', '--allow-missing', '--format', 'json']);
  const doc = JSON.parse(r.stdout) as { sources: string[]; findings: { source: string }[] };
  for (const name of ['schema.ts', 'schema.json'])
    assert.ok(
      doc.sources.some((s) => s.endsWith(`/${name}`)),
      `${name} in ${JSON.stringify(doc.sources)}`,
    );
  for (const f of doc.findings) assert.ok(doc.sources.includes(f.source), f.source);
});
