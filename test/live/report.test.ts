// `aep live`'s reports say which checks ran, passed, failed or were skipped (and why): text lists them compactly,
// json and ndjson carry them (kind "live", schemas/report.schema.json), sarif in its invocation's properties, junit a
// testcase each; the summary counts the delivered Events checked; a run in which no check asked for ran is no pass.
// Every server listens on 127.0.0.1 only and stops inside its test.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { runCli } from '../cli/helpers.ts';
import { startEndpoint, TOKEN } from './endpoint.ts';

const TIMEOUT = '5000';
const CHECKS = 'discovery,ingest,fanout,hello,roster,control-ack';
/** `aep live URL` with the token, the timeout and {@link CHECKS} of these tests, then `rest`. */
const liveCli = (url: string, rest: readonly string[], checks = CHECKS) =>
  runCli('aep', ['live', url, '--timeout', TIMEOUT, '--token', TOKEN, '--checks', checks, ...rest]);

test('aep live lists its checks in every report, and the summary counts the delivered Events', async () => {
  const ep = await startEndpoint('no-socket');
  try {
    const text = await liveCli(ep.url, []);
    assert.equal(text.code, 0, text.stderr + text.stdout);
    assert.match(text.stdout, /^checks: 3 passed, 0 failed, 3 skipped$/m);
    assert.match(text.stdout, /^ {2}passed {3}discovery, ingest, fanout$/m);
    assert.match(
      text.stdout,
      /^ {2}skipped {2}hello, roster, control-ack: the discovery document names no "socket" endpoint \(WebSocket\)$/m,
    );
    assert.match(text.stdout, /^✔ \d+ events, 0 errors, 0 warnings, \d+ infos$/m);
    const quiet = await liveCli(ep.url, ['-q']);
    assert.match(quiet.stdout, /^checks: 3 passed, 0 failed, 3 skipped\n✔/m);

    const json = await liveCli(ep.url, ['--format', 'json']);
    const doc = JSON.parse(json.stdout) as {
      kind: string;
      checks: { check: string; status: string }[];
      summary: { events: number; lines: number };
    };
    const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'));
    const validate = new Ajv2020({ strict: false }).compile(schema);
    assert.ok(validate(doc), JSON.stringify(validate.errors));
    assert.equal(doc.kind, 'live');
    assert.deepEqual(
      doc.checks.map((c) => `${c.check} ${c.status}`),
      ['discovery passed', 'ingest passed', 'fanout passed', 'hello skipped', 'roster skipped', 'control-ack skipped'],
    );
    assert.ok(doc.summary.events > 0, 'the delivered Events are counted');
    assert.equal(doc.summary.events, doc.summary.lines);
    // one endpoint checked (README §Check a running endpoint), whether or not it delivered Events
    assert.equal((doc.summary as { inputs?: number }).inputs, 1);
    const bare = await liveCli(ep.url, ['--format', 'json'], 'discovery');
    assert.equal(bare.code, 0, bare.stderr);
    const summary = (JSON.parse(bare.stdout) as { summary: { inputs: number; events: number } }).summary;
    assert.deepEqual([summary.inputs, summary.events], [1, 0]);

    const sarif = await liveCli(ep.url, ['--format', 'sarif']);
    const run = JSON.parse(sarif.stdout).runs[0];
    const props = run.invocations[0].properties;
    assert.equal(props.checks.length, 6);
    // SARIF 2.1.0 §3.20.13: the exit code of the run
    assert.deepEqual([run.invocations[0].exitCode, sarif.code], [0, 0]);
    assert.ok(props.summary.events > 0);

    const junit = await liveCli(ep.url, ['--format', 'junit']);
    assert.match(junit.stdout, /<testsuites name="aep live" tests="\d+" failures="0"/);
    assert.match(junit.stdout, /<testsuite name="[^"]+ checks" tests="6" failures="0" errors="0" skipped="3">/);
    assert.match(junit.stdout, /<testcase classname="[^"]+ checks" name="fanout"\/>/);
    assert.match(
      junit.stdout,
      /name="hello">\n {6}<skipped message="the discovery document names no &quot;socket&quot;/,
    );

    const nd = await liveCli(ep.url, ['--format', 'ndjson']);
    const last = JSON.parse(nd.stdout.trim().split('\n').at(-1)!);
    assert.equal(last.kind, 'summary');
    assert.equal(last.checks.length, 6);
  } finally {
    await ep.close();
  }
});

test('aep live: a failed check is listed as failed; when no check asked for ran, nothing was verified (exit 2)', async () => {
  const ep = await startEndpoint('no-socket');
  try {
    const none = await liveCli(ep.url, [], 'hello,roster');
    assert.equal(none.code, 2);
    assert.match(
      none.stdout,
      /^checks: none asked for ran \(2 skipped\): nothing was verified\n {2}read {5}discovery\n/m,
    );
    assert.equal(none.stderr, 'aep live: none of the checks asked for ran (2 skipped): nothing was verified\n');
    // no verdict: the SARIF log says so (exit 2, not a successful execution)
    const sarif = await liveCli(ep.url, ['-f', 'sarif'], 'hello,roster');
    assert.equal(sarif.code, 2);
    const inv = JSON.parse(sarif.stdout).runs[0].invocations[0];
    assert.deepEqual([inv.exitCode, inv.executionSuccessful], [2, false]);
  } finally {
    await ep.close();
  }
  const broken = await startEndpoint('ingest-201');
  try {
    const r = await liveCli(broken.url, ['--format', 'junit'], 'ingest');
    assert.equal(r.code, 1);
    assert.match(r.stdout, /name="ingest">\n {6}<failure type="ingest" message="\d+ errors?"\/>/);
    const sarif = await liveCli(broken.url, ['-f', 'sarif'], 'ingest');
    const uris = new Set(
      (
        JSON.parse(sarif.stdout) as {
          runs: [
            { results: Array<{ locations?: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> },
          ];
        }
      ).runs[0].results.flatMap((x) => (x.locations ?? []).map((l) => l.physicalLocation.artifactLocation.uri)),
    );
    assert.ok(uris.has(encodeURIComponent(new URL(broken.url).href)), [...uris].join(' '));
    const text = await liveCli(broken.url, [], 'ingest');
    assert.match(
      text.stdout,
      /^checks: 1 passed, 1 failed, 0 skipped\n {2}passed {3}discovery\n {2}failed {3}ingest \(\d+ errors?\)$/m,
    );
  } finally {
    await broken.close();
  }
});

test('aep live, discovery failing: text says the cause once and the skipped checks on one line; json keeps every check', async () => {
  const ep = await startEndpoint('no-discovery');
  try {
    const text = await runCli('aep', ['live', ep.url, '--timeout', TIMEOUT, '--token', TOKEN]);
    assert.equal(text.code, 1, text.stderr + text.stdout);
    const lines = text.stdout.split('\n');
    assert.equal(lines.filter((l) => / {2}error {2}aep\/live-discovery {2}/.test(l)).length, 1, text.stdout);
    // no line per skipped check: the check list names them together, with the reason, once
    assert.deepEqual(
      lines.filter((l) => / {2}aep\/live-skipped {2}/.test(l)),
      [],
      text.stdout,
    );
    const skipped = lines.filter((l) => /^ {2}skipped {2}/.test(l));
    assert.equal(skipped.length, 1, text.stdout);
    assert.match(skipped[0]!, /fanout, (?:[a-z-]+, )*filter, .*: discovery failed \(aep\/live-discovery\)/);
    assert.equal(lines.filter((l) => l.includes('discovery failed')).length, 1, 'the reason is said once');

    const json = await runCli('aep', ['live', ep.url, '--timeout', TIMEOUT, '--token', TOKEN, '--format', 'json']);
    const doc = JSON.parse(json.stdout) as {
      checks: { check: string; status: string; reason?: string }[];
      findings: { ruleId: string; args?: { check?: string } }[];
    };
    const skippedChecks = doc.checks.filter((c) => c.status === 'skipped').map((c) => c.check);
    assert.ok(skippedChecks.length > 10);
    assert.ok(doc.checks.every((c) => c.status !== 'skipped' || /discovery failed/.test(c.reason ?? '')));
    // the machine formats keep a skip finding per skipped check, consistent with the check list
    assert.deepEqual(
      doc.findings.filter((f) => f.ruleId === 'aep/live-skipped').map((f) => f.args?.check),
      skippedChecks,
    );
  } finally {
    await ep.close();
  }
});

test('aep live html lists every check with its status (and skip reason), and names the endpoint and the delivered Events', async () => {
  const ep = await startEndpoint('no-socket');
  try {
    const r = await liveCli(ep.url, ['--format', 'html']);
    assert.equal(r.code, 0, r.stderr);
    const html = r.stdout;
    const json = JSON.parse((await liveCli(ep.url, ['--format', 'json'])).stdout) as {
      checks: { check: string; status: string; reason?: string }[];
    };
    // one row per check, in the order and with the status json gives
    const rows = [
      ...html.matchAll(/<tr class="check" data-status="(\w+)"><td[^>]*>[^<]*<\/td><td><code>([\w-]+)<\/code>/g),
    ];
    assert.deepEqual(
      rows.map((m) => `${m[2]} ${m[1]}`),
      json.checks.map((c) => `${c.check} ${c.status}`),
    );
    assert.match(html, /3 passed, 0 failed, 3 skipped/);
    assert.match(html, /<code>hello<\/code>.*the discovery document names no &#34;socket&#34; endpoint \(WebSocket\)/);
    // the sources are labelled for what they are, not counted as "1 input" beside two names
    assert.doesNotMatch(html, /<span>inputs?<\/span>/);
    assert.match(html, /<h2>endpoint http:\/\/127\.0\.0\.1:\d+\/<\/h2>/);
    assert.doesNotMatch(html, /<h2>endpoint [^<]*<\/h2><div class="line-sum">0 events/);
    assert.match(html, /<h2>&#60;delivered&#62; <span class="dim">the Events the endpoint delivered<\/span><\/h2>/);
  } finally {
    await ep.close();
  }
});
