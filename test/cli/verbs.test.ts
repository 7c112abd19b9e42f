/**
 * The catalogue, fixture and pin verbs as a first-time user meets them (issue 16 items 10-16):
 * `explain`, `rules`, `fixtures` and `pin`, in-process through {@link runCli}.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { AEP } from '../../src/aep/definition.ts';
import { AHP } from '../../src/ahp/definition.ts';
import { optionsFromFlags } from '../../src/core/protocol.ts';
import { HEAD_SHA, pinText, readShared, sha256, TAG_SHA } from '../pin/helpers.ts';
import { fixtureSample, REPO, runCli } from './helpers.ts';
import { tempDir } from '../temp.ts';

describe("one option mapping (src/run/protocol.ts optionsFromFlags over each definition's flags)", () => {
  it('maps the validate flags and sidecar names to the API options', () => {
    assert.deepEqual(
      optionsFromFlags(AEP, {
        rule: ['aep/ack-window'],
        ackWindow: 5,
        maxOpen: 3,
        maxSessions: 7,
        maxIds: 9,
        format: 'text',
        maxLineBytes: 100,
      }),
      {
        rules: ['aep/ack-window'],
        maxLineBytes: 100,
        stream: { ackWindowMs: 5, maxOpen: 3, maxSessions: 7, maxIds: 9 },
      },
    );
    assert.deepEqual(optionsFromFlags(AHP, { binding: 'http', maxPending: 2, maxEvents: 4, ackWindow: 5 }), {
      binding: 'http',
      stream: { maxPending: 2, maxEvents: 4 },
    });
  });
  it('each CLI takes its protocol from its definition module, not the table of both', () => {
    for (const [f, def] of [
      ['src/cli/aep.ts', 'aep/definition.ts'],
      ['src/cli/ahp.ts', 'ahp/definition.ts'],
    ] as const) {
      const text = readFileSync(`${REPO}${f}`, 'utf8');
      assert.match(text, new RegExp(def.replace('.', '\\.')), f);
      // one protocol's CLI loads only its own protocol (start-up): not the table of both
      assert.doesNotMatch(text, /run\/protocols\.ts|api\/protocols\.ts/, f);
    }
  });
  it('--ack-window reaches the driver', async () => {
    // the ack-window fail case acks later than the default window; a wide window accepts it
    const narrow = await runCli('aep', [
      'validate',
      '--rule',
      'aep/ack-window',
      'conformance/aep/fail/aep.ack-window.jsonl',
    ]);
    const wide = await runCli('aep', [
      'validate',
      '--rule',
      'aep/ack-window',
      '--ack-window',
      '100000000',
      'conformance/aep/fail/aep.ack-window.jsonl',
    ]);
    assert.match(narrow.stdout, /aep\/ack-window/);
    assert.doesNotMatch(wide.stdout, /aep\/ack-window {2}/);
  });
});

describe('unknown rule ids: a real nearest match, or none', () => {
  it('suggests the nearest id for a typo and none for an unrelated word', async () => {
    const typo = await runCli('aep', ['validate', '--rule', 'aep/time-formt', 'x']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /did you mean aep\/time-format\?/);
    const bare = await runCli('aep', ['explain', 'line-too-long']);
    assert.match(bare.stderr, /did you mean jsonl\/line-too-long\?/);
    const bogus = await runCli('aep', ['validate', '--rule', 'bogus', 'x']);
    assert.equal(bogus.code, 2);
    assert.doesNotMatch(bogus.stderr, /did you mean/);
    assert.match(bogus.stderr, /unknown rule "bogus"/);
    const ahp = await runCli('ahp', ['explain', 'bogus']);
    assert.doesNotMatch(ahp.stderr, /did you mean/);
  });
});

describe("fixtures refuses the other protocol's layout (item 14)", () => {
  it('aep fixtures conformance/ahp and ahp fixtures conformance/aep exit 2 with a hint', async () => {
    const a = await runCli('aep', ['fixtures', 'conformance/ahp']);
    assert.equal(a.code, 2);
    assert.equal(a.stdout, '');
    assert.match(a.stderr, /holds AHP cases .*run it with "ahp fixtures"/);
    const b = await runCli('ahp', ['fixtures', 'conformance/aep']);
    assert.equal(b.code, 2);
    assert.match(b.stderr, /holds AEP cases .*run it with "aep fixtures"/);
  });
});

/**
 * A manifest folder in the upstream AHP layout (`<tmp>/fixtures/draft/manifest.json`): one
 * present stdio case (our `ahp/attention-shape` message: a warning only, no error) declared
 * valid, and one case whose file is absent.
 */
function manifestDir(t: TestContext): { dir: string } {
  const root = tempDir(t, 'ac-verbs-manifest-');
  const dir = join(root, 'fixtures', 'draft');
  mkdirSync(join(dir, 'stdio'), { recursive: true });
  const bytes = readFileSync(join(REPO, 'conformance/ahp/fail/ahp.attention-shape.jsonl'));
  writeFileSync(join(dir, 'stdio', 'warned.valid.jsonl'), bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const common = {
    binding: 'stdio-jsonl',
    schema: 'schema/draft/observe-notification.schema.json',
    expectedValid: true,
    aggregateExpectedValid: true,
    sha256,
  };
  const cases = [
    { id: 'stdio.warned.valid', path: 'fixtures/draft/stdio/warned.valid.jsonl', ...common },
    { id: 'stdio.absent.valid', path: 'fixtures/draft/stdio/absent.valid.jsonl', ...common },
  ];
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ cases }));
  return { dir };
}

describe('fixtures on the AHP manifest: --require-all and a summary of cases (item 12)', () => {
  it("counts cases by verdict and the case runs' events and types", async (t) => {
    const m = manifestDir(t);
    const r = await runCli('ahp', ['fixtures', m.dir]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    // a run that skipped a case says so in its mark and names --require-all (exit 0 still: skips are allowed)
    assert.match(r.stdout, /◐ 2 cases: 1 passed, 0 failed, 1 skipped \(file absent\), 0 known deviations\n/);
    assert.match(
      r.stdout,
      /1 case not run \(file absent\): only the rest passed; --require-all fails a run that skips any/,
    );
    assert.doesNotMatch(r.stdout, /^✔ \d+ cases/m);
    assert.match(r.stdout, /case runs: 1 message, 0 errors, 1 warning, 0 infos/);
    assert.match(r.stdout, /types: 1 of 33 known event types exercised/);
  });
  it('no case-run statistics when no case validated a stream (the capture cases)', async () => {
    const r = await runCli('aep', ['fixtures', 'conformance/aep-capture']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /✔ \d+ cases: \d+ passed, 0 failed/);
    assert.doesNotMatch(r.stdout, /case runs:|known event types exercised/);
  });
  it('a case file that is a folder or cannot be read is a harness error (exit 2), never a crash', async (t) => {
    const m = manifestDir(t);
    mkdirSync(join(m.dir, 'stdio', 'absent.valid.jsonl'));
    const r = await runCli('ahp', ['fixtures', m.dir]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stdout, /stdio\.absent\.valid[^\n]*\n\s+Cannot read the case file: it is a folder\./);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
  });
  it('--require-all makes an absent case fail the run', async (t) => {
    const m = manifestDir(t);
    const r = await runCli('ahp', ['fixtures', m.dir, '--require-all']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /✖ fail\s+stdio\.absent\.valid/);
    assert.match(r.stdout, /--require-all makes an absent case fail/);
    assert.match(r.stdout, /2 cases: 1 passed, 1 failed, 0 skipped/);
    const json = JSON.parse((await runCli('ahp', ['fixtures', m.dir, '--require-all', '-f', 'json'])).stdout) as {
      summary: { counts: Record<string, number> };
    };
    assert.equal(json.summary.counts.fail, 1);
    assert.equal(json.summary.counts.skip, 0);
  });
});

describe('fixtures: the summary mark is a pass only when the exit code is', () => {
  it('a run that checked no case (every file absent, or only a folder not run) is marked as failing, text and html', async (t) => {
    // the AHP manifest with its one present case file removed: every case skipped
    const m = manifestDir(t);
    rmSync(join(m.dir, 'stdio', 'warned.valid.jsonl'));
    // our layout with its one case in a subfolder: not run
    const ours = tempDir(t, 'ac-verbs-nothing-');
    mkdirSync(join(ours, 'pass', 'sub'), { recursive: true });
    cpSync(join(REPO, 'conformance/aep/pass/aep.version.jsonl'), join(ours, 'pass', 'sub', 'aep.version.jsonl'));
    for (const [bin, dir] of [
      ['ahp', m.dir],
      ['aep', ours],
    ] as const) {
      const r = await runCli(bin, ['fixtures', dir]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stdout, /^✖ \d+ cases?: 0 passed/m, bin);
      const html = await runCli(bin, ['fixtures', dir, '-f', 'html']);
      assert.match(html.stdout, /class="verdict fail">✖ no case was checked/, bin);
    }
  });
});

describe('--strict and --fail-on in fixtures (item 13)', () => {
  it('AHP manifest: a warning makes a message invalid under --strict or --fail-on warning', async (t) => {
    const m = manifestDir(t);
    assert.equal((await runCli('ahp', ['fixtures', m.dir])).code, 0);
    for (const flags of [['--strict'], ['--fail-on', 'warning'], ['--fail-on', 'info']]) {
      const r = await runCli('ahp', ['fixtures', m.dir, ...flags]);
      assert.equal(r.code, 1, `${flags.join(' ')}: ${r.stdout}`);
      assert.match(
        r.stdout,
        /aggregateExpectedValid: the manifest says valid, we find it invalid \(ahp\/attention-shape/,
      );
    }
  });
  it('AEP corpus: a rejected case needs a finding at or above --fail-on; an accepted one none at or above min(--fail-on, warning)', async (t) => {
    const root = tempDir(t, 'ac-verbs-aep-');
    mkdirSync(join(root, 'golden'));
    // a valid stream whose only finding is an info (a last line without newline)
    const golden = readFileSync(join(REPO, 'conformance/aep/pass/aep.time-format.jsonl'), 'utf8').replace(/\n$/, '');
    writeFileSync(join(root, 'golden', 'golden.jsonl'), golden);
    assert.equal((await runCli('aep', ['fixtures', root])).code, 0);
    const info = await runCli('aep', ['fixtures', root, '--fail-on', 'info']);
    assert.equal(info.code, 1, info.stdout);
    assert.match(info.stdout, /jsonl\/no-final-newline/);
  });
  it('our layout: exact sidecars, so the options are said to leave verdicts unchanged', async () => {
    const ours = fixtureSample('aep');
    const r = await runCli('aep', ['fixtures', ours, '--quiet', '--strict', '--fail-on', 'info']);
    assert.equal(r.code, 0);
    assert.match(r.stderr, /--strict and --fail-on do not change the verdicts of our layout/);
    const plain = await runCli('aep', ['fixtures', ours, '--quiet']);
    assert.equal(plain.stderr, '');
  });
});

/** A pin folder of our own: pin.json pinning our stand-in schema.ts (present) and a schema.json (absent). */
function pinDir(t: TestContext, withSource: boolean): { dir: string } {
  const root = tempDir(t, 'ac-verbs-pin-');
  const schemaTs = '// stand-in for the pinned schema.ts\n';
  writeFileSync(join(root, 'pin.json'), pinText({ 'schema.ts': sha256(schemaTs), 'schema.json': TAG_SHA }));
  if (withSource) writeFileSync(join(root, 'schema.ts'), schemaTs);
  return { dir: root };
}

describe('pin verify says what it verified (item 15)', () => {
  it("prints each source's digest and the extraction check", async (t) => {
    const p = pinDir(t, true);
    const r = await runCli('ahp', ['pin', 'verify', '--dir', p.dir, '--allow-missing']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const ts = sha256('// stand-in for the pinned schema.ts\n');
    assert.match(r.stdout, new RegExp(`✔ schema\\.ts: sha256 ${ts} \\(\\d+ bytes\\) equals pin\\.json`));
    assert.match(r.stdout, new RegExp(`○ schema\\.json: absent, not checked \\(pinned sha256 ${TAG_SHA}\\)`));
    assert.match(r.stdout, /○ extraction .*: not checked \(schema\.json absent\)/);
    // beside a machine format, the same lines go to stderr and stdout stays one document
    const json = await runCli('ahp', ['pin', 'verify', '--dir', p.dir, '--allow-missing', '-f', 'json']);
    assert.equal(
      (JSON.parse(json.stdout) as { kind: string }).kind,
      'pin-verify',
      'the JSON report names what produced it',
    );
    assert.match(json.stderr, /✔ schema\.ts: sha256/);
  });
  it('a drifted schema.json whose extraction is unchanged is named as not the pinned one (issue 26 item 5)', async (t) => {
    const s = await readShared(t, 'head');
    if (!s) return;
    const p = pinDir(t, true);
    writeFileSync(join(p.dir, 'schema.json'), s.head);
    const r = await runCli('ahp', ['pin', 'verify', '--dir', p.dir]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`✖ schema\\.json: sha256 ${HEAD_SHA} .*pin\\.json pins ${TAG_SHA}`));
    assert.match(
      r.stdout,
      /✖ extraction .*: equals the extraction of the schema\.json present, which is not the pinned one/,
    );
    assert.doesNotMatch(r.stdout, /pinned schema\.json/);
  });
  it('--allow-missing with nothing present: "nothing verified", exit 1, no green tick', async (t) => {
    const p = pinDir(t, false);
    const r = await runCli('ahp', ['pin', 'verify', '--dir', p.dir, '--allow-missing']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /nothing verified/i);
    assert.match(r.stdout, /pin\/nothing-verified/);
    assert.doesNotMatch(r.stdout, /✔ \d+ errors?/);
  });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((res) => srv.listen(0, '127.0.0.1', res));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((res) => srv.close(() => res()));
  return port;
}

describe('pin refresh: machine formats stay parseable, an unreachable source is explained and cleaned up (item 16)', () => {
  it('-f json writes one JSON document on stdout; the prose goes to stderr; no empty staging folder', async (t) => {
    const p = pinDir(t, true);
    const port = await closedPort();
    const r = await runCli('ahp', [
      'pin',
      'refresh',
      '--dir',
      p.dir,
      '--base-url',
      `http://127.0.0.1:${port}/mirror`,
      '--timeout',
      '5000',
      '-f',
      'json',
    ]);
    // a network failure is no pin mismatch: exit 2 (README §Exit codes)
    assert.equal(r.code, 2, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout) as {
      kind: string;
      findings: Array<{ ruleId: string; messageId?: string; args?: Record<string, unknown> }>;
    };
    assert.equal(doc.kind, 'pin-refresh');
    assert.ok(doc.findings.length > 0 && doc.findings.every((f) => f.ruleId === 'pin/fetch-failed'));
    assert.deepEqual([doc.findings[0]!.messageId, doc.findings[0]!.args?.code], ['mirrorDown', 'ECONNREFUSED']);
    assert.match(r.stderr, /MCP pin refresh: .*Result: refresh incomplete/s);
    assert.ok(!existsSync(join(p.dir, '.staging')), 'an empty staging folder was left behind');
  });
  it('text: every message printed once; a network failure exits 2, an unusable pin.json 1 (issue 26 items 2, 5)', async (t) => {
    const p = pinDir(t, true);
    const port = await closedPort();
    const r = await runCli('ahp', [
      'pin',
      'refresh',
      '--dir',
      p.dir,
      '--base-url',
      `http://127.0.0.1:${port}/mirror`,
      '--timeout',
      '5000',
    ]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    const all = r.stdout + r.stderr;
    const messages = all.match(/Downloading \S+ failed[^\n]*?reached/g) ?? [];
    assert.equal(messages.length, 2, all);
    assert.equal(new Set(messages).size, 2, all);
    writeFileSync(join(p.dir, 'pin.json'), '{');
    const bad = await runCli('ahp', [
      'pin',
      'refresh',
      '--dir',
      p.dir,
      '--base-url',
      `http://127.0.0.1:${port}/mirror`,
    ]);
    assert.equal(bad.code, 1, bad.stdout + bad.stderr);
    const lines = (bad.stdout + bad.stderr).split('\n').filter((l) => /pin\/invalid-pin/.test(l));
    const sentence = /pin\/invalid-pin {2}(.*?) {2}\[/.exec(bad.stdout)?.[1];
    assert.ok(sentence, bad.stdout);
    assert.equal((bad.stdout + bad.stderr).split(sentence).length - 1, 1, bad.stdout + bad.stderr);
    assert.ok(lines.length >= 1);
  });
});

describe('rules: whole citations, each protocol citing its own binding (item 11)', () => {
  it('piped output never cuts a citation; jsonl/* cite AHP stdio framing in ahp, AEP-0003 in aep', async () => {
    const ahp = await runCli('ahp', ['rules']);
    assert.equal(ahp.code, 0);
    assert.doesNotMatch(ahp.stdout, /…/);
    for (const line of ahp.stdout.split('\n').filter((l) => /^jsonl\//.test(l))) {
      assert.doesNotMatch(line, /AEP-/, line);
      // our limits cite the README, gzip its RFC: neither is a binding's
      if (!/line-too-long|max-depth|gzip-corrupt/.test(line))
        assert.match(line, /AHP base\/transports\/stdio §Framing/, line);
    }
    assert.match(ahp.stdout, /ahp\/state-cap +warning +agent-conformance limits \(README §Options of validate\)/);
    const aep = await runCli('aep', ['rules']);
    assert.match(aep.stdout, /jsonl\/blank-line +error +AEP-0003 §3\.1; JSON Lines/);
    assert.doesNotMatch(aep.stdout, /…|docs\/architecture/);
    // every rule's whole citation appears on its row
    const rows = JSON.parse((await runCli('ahp', ['rules', '-f', 'json'])).stdout) as Array<{
      id: string;
      spec: string;
    }>;
    for (const r of rows)
      assert.ok(
        ahp.stdout.split('\n').some((l) => l.startsWith(r.id + ' ') && l.includes(r.spec)),
        r.id,
      );
  });
  it('in a terminal the citation and description wrap inside their columns, nothing cut', async () => {
    const { renderRulesText } = await import('../../src/report/catalogue.ts');
    const { ahpRules } = await import('../../src/ahp/driver.ts');
    const rules = ahpRules();
    const text = renderRulesText(rules, 100);
    const lines = text.split('\n');
    assert.ok(
      lines.every((l) => l.length <= 100),
      'a line is wider than the terminal',
    );
    assert.doesNotMatch(text, /…/);
    // each rule is stacked: id, severity and citation first (continued 6 deep), the description 4 deep;
    // reassemble each citation and compare
    let i = 0;
    for (const r of rules) {
      while (!lines[i]!.startsWith(`${r.id}  ${r.severity}  `)) i++;
      const parts = [lines[i]!.slice(`${r.id}  ${r.severity}  `.length)];
      while (lines[++i]!.startsWith('      ')) parts.push(lines[i]!.trim());
      assert.equal(parts.join(' '), r.spec, r.id);
    }
  });
  it('findings carry the citation of their protocol binding', async () => {
    const r = await runCli('ahp', ['validate', '-f', 'json', '-'], '\n');
    const doc = JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; spec: string }> };
    const blank = doc.findings.find((f) => f.ruleId === 'jsonl/blank-line');
    assert.ok(blank, r.stdout);
    assert.equal(blank.spec, 'AHP base/transports/stdio §Framing');
    const a = JSON.parse((await runCli('aep', ['validate', '-f', 'json', '-'], '\n')).stdout) as {
      findings: Array<{ ruleId: string; spec: string }>;
    };
    assert.equal(a.findings.find((f) => f.ruleId === 'jsonl/blank-line')?.spec, 'AEP-0003 §3.1; JSON Lines');
  });
});

describe('explain: whole examples, their options, each expected finding once (item 10)', () => {
  it('shows every character of a long line and the options the failing case needs', async () => {
    const r = await runCli('aep', ['explain', 'jsonl/line-too-long']);
    assert.equal(r.code, 0);
    const text = readFileSync(join(REPO, 'conformance/aep/fail/jsonl.line-too-long.jsonl'), 'utf8');
    for (const line of text.split('\n').filter(Boolean)) assert.ok(r.stdout.includes(line), 'an example line is cut');
    assert.match(r.stdout, /needs: --max-line-bytes 200/);
    assert.match(
      r.stdout,
      /run: aep validate --max-line-bytes 200 conformance\/aep\/fail\/jsonl\.line-too-long\.jsonl/,
    );
    assert.match(r.stdout, />\s+2 \| /, 'the line with the finding is marked');
    // the shown command reproduces the finding
    const again = await runCli('aep', [
      'validate',
      '--max-line-bytes',
      '200',
      'conformance/aep/fail/jsonl.line-too-long.jsonl',
    ]);
    assert.equal(again.code, 1);
    assert.match(again.stdout, /jsonl\/line-too-long/);
  });
  it('lists a repeated expected finding once, with its count', async () => {
    const r = await runCli('ahp', ['explain', 'ahp/elicitation-content-schema']);
    const entries = r.stdout.split('\n').filter((l) => /^ {4}ahp\/elicitation-content-schema line 2/.test(l));
    assert.equal(entries.length, 1, r.stdout);
    assert.match(entries[0]!, /\(10 times\)$/);
  });
  it('wraps long lines on a terminal, never cutting them, and never prints raw control characters', async () => {
    const { renderExplain } = await import('../../src/report/catalogue.ts');
    const { findExamples } = await import('../../src/fixture-runner/examples.ts');
    const { aepRules } = await import('../../src/aep/protocol.ts');
    const ids = aepRules().map((r) => r.id);
    const rule = aepRules().find((r) => r.id === 'jsonl/line-too-long')!;
    const out = renderExplain(rule, findExamples('aep', rule.id, ids), { protocol: 'aep', width: 80 });
    assert.ok(
      out.split('\n').every((l) => l.length <= 80 || l.startsWith('  run:') || /^(Spec| {6}http)/.test(l)),
      out,
    );
    const line2 = readFileSync(join(REPO, 'conformance/aep/fail/jsonl.line-too-long.jsonl'), 'utf8').split('\n')[1]!;
    const lines = out.split('\n');
    const start = lines.findIndex((l) => /^ {2}> +2 \| /.test(l));
    let end = start + 1;
    while (/^ {4} +: /.test(lines[end]!)) end++;
    const shown = lines
      .slice(start, end)
      .map((l) => l.replace(/^.*? [|:] /, ''))
      .join('');
    assert.equal(shown, line2);
    const cr = await runCli('ahp', ['explain', 'jsonl/carriage-return']);
    assert.doesNotMatch(cr.stdout, /\r/);
    assert.match(cr.stdout, /<U\+000D>/);
  });
});

describe('explain in an installed package: examples come from the build (leftover c)', () => {
  it('a package without conformance/ still shows the failing and passing examples', (t) => {
    const root = tempDir(t, 'ac-verbs-pkg-');
    // the package's shape: bin/, dist/ (built), schemas/, package.json; no conformance/
    for (const d of ['bin', 'dist', 'schemas']) cpSync(join(REPO, d), join(root, d), { recursive: true });
    cpSync(join(REPO, 'package.json'), join(root, 'package.json'));
    symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
    assert.ok(
      existsSync(join(root, 'dist/fixture-runner/examples.json.gz')),
      'npm run build writes the examples bundle',
    );
    const r = spawnSync(process.execPath, [join(root, 'bin/aep.js'), 'explain', 'jsonl/line-too-long'], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /Failing example \(conformance\/aep\/fail\/jsonl\.line-too-long\.jsonl in the repository; a copy is bundled with this package\)/,
    );
    assert.match(r.stdout, /needs: --max-line-bytes 200/);
    assert.match(r.stdout, /run: aep validate --max-line-bytes 200 FILE/);
    assert.match(r.stdout, /Passing example \(conformance\/aep\/pass\/jsonl\.line-too-long\.jsonl/);
    assert.doesNotMatch(r.stdout, /none yet/);
  });
});
