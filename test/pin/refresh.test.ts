import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import {
  DEFAULT_EXTRACTION,
  DEFAULT_PIN_DIR,
  PinUsageError,
  extractElicitation,
  pinRefresh,
  pinVerify,
} from '../../src/pin/index.ts';
import { mirrorUrl } from '../../src/pin/model.ts';
import {
  HEAD_SHA,
  PIN_BASE,
  TAG_SHA,
  pinText,
  put,
  readShared,
  serve,
  sha256,
  snapshot,
  tempDir,
  type Route,
} from './helpers.ts';

const SCHEMA_TS = '// stand-in for schema/2025-11-25/schema.ts served by the test mirror\n';
const MIRROR_PATH = '/mirror/schema/2025-11-25/';

const ids = (fs: Finding[]): string[] => fs.map((f) => f.ruleId);

interface Layout {
  root: string;
  dir: string;
  extraction: string;
}

/** A temp package layout pinned to the tag schema.json and our stand-in schema.ts. */
async function layout(t: TestContext, tag: Buffer, opts: { vendored?: boolean; pin?: string } = {}): Promise<Layout> {
  const root = await tempDir(t);
  const dir = join(root, DEFAULT_PIN_DIR);
  const extraction = join(root, DEFAULT_EXTRACTION);
  await put(join(dir, 'pin.json'), opts.pin ?? pinText({ 'schema.ts': sha256(SCHEMA_TS), 'schema.json': TAG_SHA }));
  await put(join(dir, 'README.md'), 'pin folder\n');
  if (opts.vendored !== false) {
    await put(join(dir, 'schema.json'), tag);
    await put(join(dir, 'schema.ts'), SCHEMA_TS);
  }
  await put(extraction, extractElicitation(tag.toString('utf8')));
  return { root, dir, extraction };
}

/** A mirror serving `schema.json` bytes and the stand-in schema.ts. */
async function mirror(t: TestContext, schemaJson: Uint8Array, extra: Record<string, Route> = {}) {
  return serve(t, {
    [MIRROR_PATH + 'schema.json']: { body: schemaJson },
    [MIRROR_PATH + 'schema.ts']: { body: SCHEMA_TS },
    ...extra,
  });
}

const STAGING = join(DEFAULT_PIN_DIR, '.staging');

function editedSchema(tag: Buffer): Buffer {
  const src = JSON.parse(tag.toString('utf8'));
  src.$defs.PrimitiveSchemaDefinition.anyOf = src.$defs.PrimitiveSchemaDefinition.anyOf.filter(
    (r: { $ref: string }) => !r.$ref.endsWith('/LegacyTitledEnumSchema'),
  );
  return Buffer.from(JSON.stringify(src, null, 2) + '\n');
}

test('identical bytes: no change, nothing written outside staging', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const l = await layout(t, s.tag);
  const before = await snapshot(l.root);
  const srv = await mirror(t, s.tag);
  const logged: string[] = [];
  const r = await pinRefresh({
    dir: l.dir,
    extraction: l.extraction,
    baseUrl: srv.origin + '/mirror',
    log: (x) => logged.push(x),
  });
  assert.equal(r.changed, false);
  assert.deepEqual(r.findings, []);
  assert.match(r.report, /Result: no change\./);
  assert.match(r.report, new RegExp(`schema.json: unchanged \\(sha256 ${TAG_SHA}`));
  assert.deepEqual(srv.requests.sort(), [MIRROR_PATH + 'schema.json', MIRROR_PATH + 'schema.ts']);
  assert.deepEqual(logged, [`GET ${srv.origin}${MIRROR_PATH}schema.ts`, `GET ${srv.origin}${MIRROR_PATH}schema.json`]);
  assert.deepEqual(await snapshot(l.root, [STAGING]), before);
  const staged = await readFile(join(l.dir, '.staging', 'schema.json'));
  assert.ok(staged.equals(s.tag));
});

test('drifted bytes with the same extraction (HEAD): changed, digests reported, nothing written', async (t) => {
  const s = await readShared(t, 'tag', 'head');
  if (!s) return;
  const l = await layout(t, s.tag);
  const before = await snapshot(l.root);
  const srv = await mirror(t, s.head);
  const r = await pinRefresh({ dir: l.dir, extraction: l.extraction, baseUrl: srv.origin + '/mirror/' });
  assert.equal(r.changed, true);
  assert.deepEqual(ids(r.findings), ['pin/source-changed']);
  assert.deepEqual([r.findings[0].args?.pinned, r.findings[0].args?.fetched], [TAG_SHA, HEAD_SHA]);
  assert.match(r.report, new RegExp(`pinned  sha256 ${TAG_SHA}`));
  assert.match(r.report, new RegExp(`fetched sha256 ${HEAD_SHA}`));
  assert.match(r.report, /: unchanged\n/);
  assert.match(r.report, /Result: CHANGED\. Staged in .*nothing adopted/);
  assert.deepEqual(await snapshot(l.root, [STAGING]), before);
});

test('drifted bytes that change the extraction: unified diff printed, nothing written outside staging', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const l = await layout(t, s.tag);
  const before = await snapshot(l.root);
  const edited = editedSchema(s.tag);
  const srv = await mirror(t, edited);
  const r = await pinRefresh({ dir: l.dir, extraction: l.extraction, baseUrl: srv.origin + '/mirror' });
  assert.equal(r.changed, true);
  assert.deepEqual(ids(r.findings), ['pin/source-changed', 'pin/extraction-changed']);
  assert.ok(r.report.includes(`--- ${l.extraction}\n+++ ${l.extraction}\n@@ -`));
  assert.match(r.report, /^- {4}"LegacyTitledEnumSchema": \{$/m);
  assert.match(r.report, /^- {10}"\$ref": "#\/\$defs\/LegacyTitledEnumSchema"$/m);
  assert.doesNotMatch(r.report, /^\+.*LegacyTitledEnumSchema/m);
  assert.deepEqual(await snapshot(l.root, [STAGING]), before);
  const stagedExtraction = await readFile(join(l.dir, '.staging', 'extraction', 'mcp-elicitation.schema.json'), 'utf8');
  assert.equal(stagedExtraction, extractElicitation(edited.toString('utf8')));
});

test('adopt: pin.json digests, vendored file and extraction are replaced; verify then passes', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const l = await layout(t, s.tag, {
    pin: pinText({ 'schema.ts': sha256(SCHEMA_TS), 'schema.json': TAG_SHA }, { note: 'kept' }),
  });
  const edited = editedSchema(s.tag);
  const srv = await mirror(t, edited);
  const r = await pinRefresh({ dir: l.dir, extraction: l.extraction, baseUrl: srv.origin + '/mirror', adopt: true });
  assert.equal(r.changed, true, 'adopting a change still reports it');
  assert.deepEqual(ids(r.findings), ['pin/source-changed', 'pin/extraction-changed']);
  assert.match(r.report, /Result: CHANGED and adopted/);

  const pin = JSON.parse(await readFile(join(l.dir, 'pin.json'), 'utf8'));
  assert.equal(pin.sources['schema.json'].sha256, sha256(edited));
  assert.equal(pin.sources['schema.json'].url, PIN_BASE + 'schema.json', 'URLs are never rewritten');
  assert.equal(pin.sources['schema.ts'].sha256, sha256(SCHEMA_TS));
  assert.equal(pin.note, 'kept');
  assert.ok((await readFile(join(l.dir, 'schema.json'))).equals(edited));
  assert.equal(await readFile(l.extraction, 'utf8'), extractElicitation(edited.toString('utf8')));
  for (const d of [l.dir, join(l.root, 'schemas/mcp')]) {
    assert.deepEqual(
      (await readdir(d)).filter((n) => n.includes('.tmp-')),
      [],
      'no temporary files left',
    );
  }
  assert.deepEqual(await pinVerify({ dir: l.dir, extraction: l.extraction }), []);
  // adopted: the staging folder (copies of the adopted files) is gone, and the report says so
  assert.ok(!(await readdir(l.dir)).includes('.staging'), 'no staging folder after a successful adopt');
  assert.match(r.report, /staging folder .* removed/);

  // A second refresh against the same mirror is now a no-op.
  const again = await pinRefresh({ dir: l.dir, extraction: l.extraction, baseUrl: srv.origin + '/mirror' });
  assert.equal(again.changed, false);
  assert.deepEqual(again.findings, []);
});

test('adopt never loses a local copy that is neither the pinned nor the downloaded bytes: kept beside, and said', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const l = await layout(t, s.tag);
  const mine = '// my own schema.ts, edited for a review\n';
  await put(join(l.dir, 'schema.ts'), mine);
  const edited = editedSchema(s.tag);
  const srv = await mirror(t, edited);
  const r = await pinRefresh({ dir: l.dir, extraction: l.extraction, baseUrl: srv.origin + '/mirror', adopt: true });
  assert.match(r.report, /Result: CHANGED and adopted/);
  assert.equal(await readFile(join(l.dir, 'schema.ts'), 'utf8'), SCHEMA_TS, 'the download is adopted');
  const aside = `schema.ts.local-${sha256(mine).slice(0, 12)}`;
  assert.equal(await readFile(join(l.dir, aside), 'utf8'), mine, 'the local copy is kept');
  assert.ok(r.report.includes(`is kept as ${join(l.dir, aside)}`), r.report);
  // the vendored schema.json was the pinned bytes: replaced as the pin moves, nothing kept
  assert.deepEqual(
    (await readdir(l.dir)).filter((n) => n.includes('.local-')),
    [aside],
  );
});

test('adopt keeps the header of an existing extraction file (AHP layout)', async (t) => {
  const s = await readShared(t, 'tag', 'ahpExtraction');
  if (!s) return;
  const root = await tempDir(t);
  const dir = join(root, 'upstream/mcp/2025-11-25');
  const extraction = join(root, 'schema/draft/mcp-elicitation.schema.json');
  await put(join(dir, 'pin.json'), pinText({ 'schema.ts': sha256(SCHEMA_TS), 'schema.json': TAG_SHA }));
  await put(extraction, s.ahpExtraction);
  const edited = editedSchema(s.tag);
  const srv = await mirror(t, edited);
  const r = await pinRefresh({ dir, extraction, baseUrl: srv.origin + '/mirror', adopt: true });
  assert.equal(r.changed, true);
  const written = await readFile(extraction, 'utf8');
  assert.ok(written.startsWith(s.ahpExtraction.toString('utf8').split('"$defs"')[0]), 'AHP header kept as is');
  assert.doesNotMatch(written, /LegacyTitledEnumSchema/);
});

test('adopt with unchanged upstream installs the verified vendored copies only', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const l = await layout(t, s.tag, { vendored: false });
  const pinBefore = await readFile(join(l.dir, 'pin.json'), 'utf8');
  const extractionBefore = await readFile(l.extraction, 'utf8');
  const srv = await mirror(t, s.tag);
  const r = await pinRefresh({ dir: l.dir, extraction: l.extraction, baseUrl: srv.origin + '/mirror', adopt: true });
  assert.equal(r.changed, false);
  assert.deepEqual(r.findings, []);
  assert.match(r.report, /local copy absent/);
  assert.equal(await readFile(join(l.dir, 'pin.json'), 'utf8'), pinBefore);
  assert.equal(await readFile(l.extraction, 'utf8'), extractionBefore);
  assert.ok((await readFile(join(l.dir, 'schema.json'))).equals(s.tag));
  assert.equal(await readFile(join(l.dir, 'schema.ts'), 'utf8'), SCHEMA_TS);
  assert.deepEqual(await pinVerify({ dir: l.dir, extraction: l.extraction }), []);
  assert.ok(!(await readdir(l.dir)).includes('.staging'), 'no staging folder after a successful adopt');
});

test('a redirect to another host is refused; a same-origin redirect is followed', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const l = await layout(t, s.tag);
  const before = await snapshot(l.root);
  const srv = await mirror(t, s.tag, {});
  const port = new URL(srv.origin).port;
  const other = await serve(t, {
    [MIRROR_PATH + 'schema.ts']: { status: 302, headers: { location: `${srv.origin}${MIRROR_PATH}schema.ts` } },
    [MIRROR_PATH + 'schema.json']: {
      status: 301,
      headers: { location: `http://localhost:${port}${MIRROR_PATH}schema.json` },
    },
  });
  const r = await pinRefresh({ dir: l.dir, extraction: l.extraction, baseUrl: other.origin + '/mirror', adopt: true });
  assert.deepEqual(ids(r.findings), ['pin/redirect-refused', 'pin/redirect-refused', 'pin/adopt-refused']);
  assert.equal(r.findings[1].args?.location, `http://localhost:${port}${MIRROR_PATH}schema.json`);
  assert.deepEqual(srv.requests, [], 'the other host was never contacted');
  assert.deepEqual(await snapshot(l.root, [STAGING]), before);

  const same = await serve(t, {
    '/mirror/moved.json': { body: s.tag },
    [MIRROR_PATH + 'schema.json']: { status: 307, headers: { location: '/mirror/moved.json' } },
    [MIRROR_PATH + 'schema.ts']: { body: SCHEMA_TS },
  });
  const ok = await pinRefresh({ dir: l.dir, extraction: l.extraction, baseUrl: same.origin + '/mirror' });
  assert.deepEqual(ok.findings, []);
  assert.equal(ok.changed, false);
});

test('an oversize body is refused (declared length and streamed chunks)', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const l = await layout(t, s.tag);
  const before = await snapshot(l.root);
  for (const chunked of [false, true]) {
    const srv = await serve(t, {
      [MIRROR_PATH + 'schema.json']: { body: s.tag, chunked },
      [MIRROR_PATH + 'schema.ts']: { body: SCHEMA_TS },
    });
    const r = await pinRefresh({
      dir: l.dir,
      extraction: l.extraction,
      baseUrl: srv.origin + '/mirror',
      maxBytes: 64 * 1024,
      adopt: true,
    });
    assert.deepEqual(ids(r.findings), ['pin/response-too-large', 'pin/adopt-refused'], `chunked=${chunked}`);
    assert.equal(r.changed, false);
    // a refused adopt says where what was downloaded is left
    assert.ok(r.report.includes(`left in ${join(l.dir, '.staging')}`), r.report);
  }
  assert.deepEqual(await snapshot(l.root, [STAGING]), before);
});

test('a "../" source name is refused before any download', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const pin = JSON.parse(pinText({ 'schema.ts': sha256(SCHEMA_TS), 'schema.json': TAG_SHA }));
  pin.sources['../evil.json'] = { url: 'https://raw.githubusercontent.com/o/r/2025-11-25/evil.json', sha256: TAG_SHA };
  const l = await layout(t, s.tag, { pin: JSON.stringify(pin, null, 2) + '\n' });
  const before = await snapshot(l.root);
  const srv = await mirror(t, s.tag, { '/mirror/evil.json': { body: 'x' } });
  const r = await pinRefresh({ dir: l.dir, extraction: l.extraction, baseUrl: srv.origin + '/mirror', adopt: true });
  assert.deepEqual(ids(r.findings), ['pin/unsafe-source-name']);
  assert.equal(r.changed, false);
  assert.deepEqual(srv.requests, []);
  assert.deepEqual(await snapshot(l.root), before, 'not even a staging folder');
  for (const bad of ['/etc/passwd', 'a/b', 'a\\b', '..', 'C:x', 'pin.json', '.staging']) {
    const p = JSON.parse(pinText({ 'schema.ts': sha256(SCHEMA_TS), 'schema.json': TAG_SHA }));
    p.sources[bad] = { url: 'https://raw.githubusercontent.com/o/r/2025-11-25/x', sha256: TAG_SHA };
    await put(join(l.dir, 'pin.json'), JSON.stringify(p));
    const rr = await pinRefresh({ dir: l.dir, extraction: l.extraction, baseUrl: srv.origin + '/mirror' });
    assert.ok(ids(rr.findings).includes('pin/unsafe-source-name'), bad);
  }
  assert.deepEqual(srv.requests, []);
});

test('a pinned branch URL is refused before any download', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const pin = pinText({ 'schema.ts': sha256(SCHEMA_TS), 'schema.json': TAG_SHA }).replace(
    '/modelcontextprotocol/2025-11-25/schema/2025-11-25/schema.json',
    '/modelcontextprotocol/main/schema/draft/schema.json',
  );
  const l = await layout(t, s.tag, { pin });
  const srv = await mirror(t, s.tag);
  const r = await pinRefresh({ dir: l.dir, extraction: l.extraction, baseUrl: srv.origin + '/mirror' });
  assert.deepEqual(ids(r.findings), ['pin/unpinned-url']);
  assert.deepEqual(srv.requests, []);
});

test('HTTP errors and timeouts are fetch failures', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const l = await layout(t, s.tag);
  const srv = await serve(t, { [MIRROR_PATH + 'schema.ts']: { hang: true } });
  const r = await pinRefresh({ dir: l.dir, extraction: l.extraction, baseUrl: srv.origin + '/mirror', timeoutMs: 300 });
  assert.deepEqual(ids(r.findings), ['pin/fetch-failed', 'pin/fetch-failed']);
  assert.deepEqual(
    r.findings.map((f) => [f.messageId, f.args?.timeoutMs ?? f.args?.status]),
    [
      ['timeout', 300],
      ['status', 404],
    ],
  );
  assert.match(r.report, /refresh incomplete/);
});

test('baseUrl must be https or loopback http; options are checked', async (t) => {
  const root = await tempDir(t);
  const o = { dir: root, extraction: join(root, 'x.json') };
  await assert.rejects(pinRefresh({ ...o, baseUrl: 'http://example.com/mirror' }), PinUsageError);
  await assert.rejects(pinRefresh({ ...o, baseUrl: 'ftp://127.0.0.1/' }), PinUsageError);
  await assert.rejects(pinRefresh({ ...o, baseUrl: 'http://user:pw@127.0.0.1/' }), PinUsageError);
  await assert.rejects(pinRefresh({ ...o, maxBytes: 0 }), PinUsageError);
  await assert.rejects(pinRefresh({ ...o, timeoutMs: -1 }), PinUsageError);
  const r = await pinRefresh({ ...o, baseUrl: 'http://127.0.0.1:9/' });
  assert.deepEqual(ids(r.findings), ['pin/invalid-pin'], 'a missing pin.json is a finding, and nothing is fetched');
});

test('baseUrl replaces the prefix up to and including the tag segment', () => {
  const url = PIN_BASE + 'schema.json';
  assert.equal(
    mirrorUrl(url, '2025-11-25', 'http://127.0.0.1:8000/m'),
    'http://127.0.0.1:8000/m/schema/2025-11-25/schema.json',
  );
  assert.equal(
    mirrorUrl(url, '2025-11-25', 'https://mirror.example/x/'),
    'https://mirror.example/x/schema/2025-11-25/schema.json',
  );
});

test('adopt that cannot write: the user files are untouched, and the error names what is left over', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const l = await layout(t, s.tag);
  // the extraction's folder is a file: its temporary cannot be written, after the vendored files' were
  const blocked = join(l.root, 'not-a-folder');
  await put(blocked, 'a file\n');
  const extraction = join(blocked, 'mcp-elicitation.schema.json');
  const before = await snapshot(l.root);
  const srv = await mirror(t, editedSchema(s.tag));
  await assert.rejects(
    pinRefresh({ dir: l.dir, extraction, baseUrl: srv.origin + '/mirror', adopt: true }),
    (e: Error) => {
      assert.match(e.message, /nothing adopted/);
      assert.ok(e.message.includes(`left in ${join(l.dir, '.staging')}`), e.message);
      return true;
    },
  );
  assert.deepEqual(await snapshot(l.root, [STAGING]), before, 'no user file changed, no temporary left');
});
