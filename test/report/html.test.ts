/**
 * The data of `--format html` (src/report/html.ts, timeline.ts): every finding is on the page once in the list by rule,
 * with its severity, rule and message; no payload value is echoed; pairs are named on their lines; the timeline is
 * bounded and says what it left out; the page names no network resource. The browser test (html-browser.test.ts)
 * checks what a person sees.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { htmlReporter } from '../../src/report/html.ts';
import { htmlEscape } from '../../src/report/html-page.ts';
import { Timeline } from '../../src/report/timeline.ts';
import { runCli } from '../cli/helpers.ts';
import { CASES, renderFixtures } from './helpers.ts';

/** The finding rows of the list by rule: severity, rule, message (unescaped). */
function findingRows(html: string): { sev: string; rule: string; message: string }[] {
  const rows: { sev: string; rule: string; message: string }[] = [];
  const re =
    /<tr class="f" data-sev="(\w+)" data-rule="([^"]*)"><td class="loc mono">.*?<\/td><td class="msg">(.*?)<\/td>/g;
  for (const m of html.matchAll(re)) rows.push({ sev: m[1]!, rule: unHtml(m[2]!), message: unHtml(m[3]!) });
  return rows;
}

function unHtml(s: string): string {
  return s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
}

/** Every string leaf under `value`. */
function leaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) leaves(v, out);
  return out;
}

/** The findings of `args` as `--format json` lists them. */
async function jsonFindings(bin: 'aep' | 'ahp', args: string[], stdin = ''): Promise<Finding[]> {
  const r = await runCli(bin, ['validate', '--format', 'json', ...args], stdin);
  return (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
}

/** No request leaves the page: no URL it loads (src, link href, url(), @import), only links a person may follow. */
function assertNoResource(html: string): void {
  assert.doesNotMatch(html, /\s(src|srcset)=/i);
  assert.doesNotMatch(html, /<link\b/i);
  assert.doesNotMatch(html, /url\(|@import/i);
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  // only the page's own script runs: the policy names its digest, and no script element but that one is there
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  assert.equal(scripts.length, 1);
  const digest = createHash('sha256').update(scripts[0]!).digest('base64');
  assert.match(html, new RegExp(`script-src 'sha256-${digest.replace(/[+/]/g, '\\$&')}';`));
  assert.doesNotMatch(html, /script-src[^;]*unsafe-inline/);
}

for (const [bin, file] of [
  ['aep', 'examples/aep/session-broken.jsonl'],
  ['ahp', 'examples/ahp/session-broken.jsonl'],
] as const) {
  test(`${bin} validate --format html ${file}: every finding once, by rule, with its citation; no payload value`, async () => {
    const r = await runCli(bin, ['validate', '--format', 'html', file]);
    assert.equal(r.code, 1, r.stderr);
    const html = r.stdout;
    const expected = await jsonFindings(bin, [file]);
    assert.ok(expected.length > 0);
    const rows = findingRows(html);
    const key = (x: { sev?: string; severity?: string; rule?: string; ruleId?: string; message: string }) =>
      `${x.sev ?? x.severity}|${x.rule ?? x.ruleId}|${x.message}`;
    assert.deepEqual(rows.map(key).sort(), expected.map(key).sort());
    // grouped by rule: each rule's rows are consecutive, under its one header with its citation
    const seen = new Set<string>();
    let last = '';
    for (const row of rows) {
      if (row.rule !== last) assert.ok(!seen.has(row.rule), `${row.rule} listed in two places`);
      seen.add(row.rule);
      last = row.rule;
    }
    for (const f of expected) {
      assert.ok(html.includes(`data-rule="${htmlEscape(f.ruleId)}" data-sev=`), f.ruleId);
      assert.ok(html.includes(`>${htmlEscape(f.spec)}</`), f.spec);
    }
    assert.match(html, /<a class="cite" href="https:\/\/github\.com\/[^"]+#[^"]+"/);
    // every finding with a line is also drawn on its event in the timeline (a small run keeps every event)
    const drawn = [...html.matchAll(/<div class="tf" data-sev="(\w+)" data-rule="([^"]*)">/g)].length;
    assert.equal(drawn, expected.filter((f) => f.line !== undefined).length);
    // payload values (distinctive strings of the payload) are never echoed
    const payload = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((l) => {
        const v = JSON.parse(l) as Record<string, unknown> & { params?: { event?: Record<string, unknown> } };
        const inner = bin === 'aep' ? v.data : { ...v.params?.event, id: undefined, type: undefined, time: undefined };
        return leaves(inner).filter((s) => s.length >= 10 && !/^\d{4}-\d\d-\d\dT/.test(s));
      });
    assert.ok(payload.length > 3);
    // a value may appear only where the json report has it too (a rule's own wording, e.g. a media type it names)
    const json = (await runCli(bin, ['validate', '--format', 'json', file])).stdout;
    const catalogue = (await runCli(bin, ['rules', '--format', 'json'])).stdout;
    for (const p of payload)
      assert.ok(
        !html.includes(htmlEscape(p)) || json.includes(p) || catalogue.includes(p),
        `payload value echoed: ${p}`,
      );
    assertNoResource(html);
  });
}

test('html: sentinel values in a payload, an extension and unknown members never reach the page', async () => {
  const base = {
    aep: '0.1',
    source: 'aep://h/agent/a/session/s1',
    agent: 'a',
    session: 's1',
    epoch: 0,
  };
  const lines = [
    {
      ...base,
      id: 'e1',
      type: 'session.started',
      time: '2026-11-30T09:00:00Z',
      seq: 0,
      data: { client: { name: 'SENTINEL_A' } },
    },
    {
      ...base,
      id: 'e2',
      type: 'tool.requested',
      time: 'nope',
      seq: 1,
      data: { tool: { name: 'SENTINEL_B', input: { x: 'SENTINEL_C' } } },
      ext_Bad: 'SENTINEL_D',
    },
    { ...base, id: 'e3', type: 'x.unknown', time: '2026-11-30T09:00:02Z', seq: 2, data: { v: 'SENTINEL_E' } },
  ];
  const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"broken": "SENTINEL_F"\n`;
  const r = await runCli('aep', ['validate', '--format', 'html', '-'], text);
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stdout, /SENTINEL/);
  // the line that is not an event is a row of its own, with its finding
  assert.match(r.stdout, /lines that are not events/);
  assert.match(r.stdout, /data-rule="jsonl\/invalid-json"/);
});

test('html: attention request -> answer -> resolution and command -> ack are named on their lines', async () => {
  const r = await runCli('aep', ['validate', '--format', 'html', 'examples/aep/session-broken.jsonl']);
  assert.match(r.stdout, /<tr id="e-0-6"[^>]*>.*answered ← line 5/);
  assert.match(r.stdout, /<tr id="e-0-7"[^>]*>.*resolved ← line 5/);
  // a lane of the attention kind starts on the request's row and ends on the resolution's
  assert.match(r.stdout, /<tr id="e-0-5"[^>]*><td class="g"[^>]*><span class="lane start dot k-attention"/);
  assert.match(r.stdout, /<tr id="e-0-7"[^>]*><td class="g"[^>]*><span class="lane end dot k-attention"/);
  const ack = await runCli('aep', ['validate', '--format', 'html', 'conformance/aep/pass/aep.ack-cause.jsonl']);
  assert.match(ack.stdout, /accepted ← line 1/);
  assert.match(ack.stdout, /class="link k-control">command</);
});

test('Timeline: a large run keeps the events around findings, at most maxEvents, and counts the rest', () => {
  const limits = { keepAll: 50, maxEvents: 400, context: 2 };
  const t = new Timeline(limits);
  const withFinding = new Set<number>();
  for (let line = 1; line <= 20_000; line++) {
    const finding = line % 97 === 0;
    if (finding && withFinding.size < 50) {
      withFinding.add(line);
      t.finding({ ruleId: 'aep/x', severity: 'error', message: 'm', spec: 's', source: 'in', line });
    }
    t.event({ source: 'in', line, type: 't', session: line % 2 ? 'a' : 'b', seq: line });
  }
  t.end();
  const sessions = t.sessionsOf('in');
  const kept = sessions.flatMap((s) => s.events);
  assert.ok(kept.length <= limits.maxEvents, `${kept.length} kept`);
  assert.equal(
    sessions.reduce((n, s) => n + s.seen, 0),
    20_000,
  );
  // every finding's event is kept with its session neighbours on each side
  const keptLines = new Set(kept.map((e) => e.line));
  for (const line of withFinding) {
    assert.ok(keptLines.has(line), `event of line ${line}`);
    for (const d of [-4, -2, 2, 4]) assert.ok(keptLines.has(line + d), `line ${line + d} near ${line}`);
    assert.equal(t.eventAt('in', line)?.findings.length, 1);
  }
  // far from any finding, nothing is kept but each session's last events
  assert.ok(!keptLines.has(48) && !keptLines.has(10_001));
});

test('Timeline: past maxEvents, further events and their findings are counted, never held', () => {
  const t = new Timeline({ keepAll: 10, maxEvents: 30, context: 1 });
  let findings = 0;
  for (let line = 1; line <= 5000; line++) {
    t.finding({ ruleId: 'aep/x', severity: 'warning', message: 'm', spec: 's', source: 'in', line });
    findings++;
    t.event({ source: 'in', line, type: 't', session: 's' });
  }
  t.end();
  const s = t.sessionsOf('in')[0]!;
  assert.ok(s.events.length <= 30);
  assert.equal(s.seen, 5000);
  assert.equal(s.findings + t.inputFacts('in')!.offTimeline, findings);
});

test('html page of a large run says what the timeline left out and still lists every finding', () => {
  const findings: Finding[] = [];
  for (let line = 1; line <= 3000; line++)
    findings.push({
      ruleId: 'aep/time-format',
      severity: 'error',
      message: `bad ${line}`,
      spec: 'AEP-0001 §5.1',
      source: 'big.jsonl',
      line,
    });
  // through the reporter with events: facts first then findings of a later verdict, as `aep live` gives them
  let out = '';
  const r = htmlReporter(
    { write: (c) => void (out += c) },
    {
      protocol: 'aep',
      version: 't',
      color: false,
      sources: ['big.jsonl'],
      timelineLimits: { keepAll: 100, maxEvents: 200 },
      memoryFindings: 500,
    },
  );
  for (const f of findings) {
    r.finding(f);
    r.event!({ source: 'big.jsonl', line: f.line!, type: 'session.started', session: 's' });
  }
  r.finish({
    inputs: 1,
    bytes: 0,
    lines: 3000,
    events: 3000,
    errors: 3000,
    warnings: 0,
    infos: 0,
    byRule: { 'aep/time-format': 3000 },
    omitted: 0,
  });
  assert.equal(findingRows(out).length, 3000);
  assert.match(out, /Left out of the timeline: [\d,]+ findings whose event is not kept/);
  const drawnRows = [...out.matchAll(/<tr id="e-0-\d+"/g)].length;
  assert.ok(drawnRows <= 200, `${drawnRows} timeline rows`);
});

test('fixtures --format html: a row per case with its status, the findings of a failing case, no resource', () => {
  const html = renderFixtures('html');
  // a case is named by its id, or by its file when it is one (as the text report names it)
  for (const c of CASES)
    assert.ok(
      html.includes(`<code>${htmlEscape(c.id)}</code>`) || html.includes(`<code>${htmlEscape(c.file ?? '')}</code>`),
      c.id,
    );
  assert.equal([...html.matchAll(/<tr class="case" data-status="(\w[\w-]*)"/g)].length, CASES.length);
  const findings = CASES.flatMap((c) => c.findings ?? []);
  assert.equal([...html.matchAll(/<tr class="f" /g)].length, findings.length);
  assertNoResource(html);
});

test('aep live --format html: the live findings by rule and the delivered events on the timeline', async () => {
  const { startEndpoint, TOKEN } = await import('../live/endpoint.ts');
  const bad = await startEndpoint('rewrites');
  try {
    const args = ['live', bad.url, '--token', TOKEN, '--timeout', '1500', '--checks', 'fanout'];
    const r = await runCli('aep', [...args, '--format', 'html']);
    assert.equal(r.code, 1, r.stderr);
    const json = JSON.parse((await runCli('aep', [...args, '--format', 'json'])).stdout) as { findings: Finding[] };
    const rows = findingRows(r.stdout);
    assert.ok(rows.some((row) => row.rule === 'aep/live-delivery-identity'));
    assert.deepEqual(rows.map((row) => row.rule).sort(), json.findings.map((f) => f.ruleId).sort());
    assert.match(r.stdout, /<h2>&#60;delivered&#62; <span class="dim">the Events the endpoint delivered<\/span><\/h2>/);
    assert.match(r.stdout, /<tr id="e-1-1" class="ev/);
    assertNoResource(r.stdout);
  } finally {
    await bad.close();
  }
});
