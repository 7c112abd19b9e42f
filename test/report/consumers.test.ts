/**
 * The reports as their consumers read them: GitHub annotations name files from the workspace root (the runner reads a
 * relative `file` from GITHUB_WORKSPACE, not from where the tool ran); a SARIF log says its column unit and the exit
 * code of its run; JUnit is well-formed XML whatever the input holds; the html page runs nothing of the input; text
 * has colour only on a terminal nobody turned it off for; `-o NAME` picks the format its extension names.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { formatOfOutputName } from '../../src/cli/program.ts';
import { annotationFile } from '../../src/report/github.ts';
import { sarifReporter, sarifUri } from '../../src/report/sarif.ts';
import { REPO, runCli } from '../cli/helpers.ts';
import { tempDir } from '../temp.ts';
import { SUMMARY } from './helpers.ts';

const BROKEN = 'examples/aep/session-broken.jsonl';

test('github: a file is named from GITHUB_WORKSPACE; stdin, <names> and URLs name none', async () => {
  const ws = { root: '/w/repo', cwd: '/w/repo/sub' };
  assert.equal(annotationFile('logs/a.jsonl', ws), 'sub/logs/a.jsonl');
  assert.equal(annotationFile('../top.jsonl', ws), 'top.jsonl');
  assert.equal(annotationFile('/w/repo/x/y.jsonl', ws), 'x/y.jsonl');
  assert.equal(annotationFile('../../elsewhere.jsonl', ws), '/w/elsewhere.jsonl');
  assert.equal(annotationFile('/w/repository/a.jsonl', ws), '/w/repository/a.jsonl');
  assert.equal(annotationFile('..a.jsonl', { root: '/w', cwd: '/w' }), '..a.jsonl');
  assert.equal(annotationFile('logs/a.jsonl', undefined), 'logs/a.jsonl');
  for (const none of ['', '<stdin>', '<delivered>', 'http://127.0.0.1:8080/'])
    assert.equal(annotationFile(none, ws), undefined, none);

  const files = async (env: Record<string, string>, args: string[]) => {
    const r = await runCli('aep', ['validate', ...args, '--format', 'github'], '', { env: { NO_COLOR: '1', ...env } });
    assert.equal(r.code, 1, r.stderr);
    return new Set([...r.stdout.matchAll(/^::\w+ file=([^,]*),/gm)].map((m) => m[1]));
  };
  // the repository checked out one folder down in the workspace; the tool run from the repository
  assert.deepEqual(
    await files({ GITHUB_WORKSPACE: dirname(REPO) }, [BROKEN]),
    new Set([`${basename(REPO)}/${BROKEN}`]),
  );
  assert.deepEqual(await files({ GITHUB_WORKSPACE: REPO }, [join(REPO, BROKEN)]), new Set([BROKEN]));
  assert.deepEqual(await files({}, [BROKEN]), new Set([BROKEN]));
});

test('sarif: paths as GitHub code scanning reads them: relative to GITHUB_WORKSPACE, else as given; absolute ones file: URIs', async () => {
  const uris = async (env: Record<string, string>, args: string[]) => {
    const r = await runCli('aep', ['validate', ...args, '--format', 'sarif'], '', { env: { NO_COLOR: '1', ...env } });
    assert.equal(r.code, 1, r.stderr);
    const log = JSON.parse(r.stdout) as Log;
    return new Set(log.runs[0]!.results.map((x) => x.locations![0]!.physicalLocation.artifactLocation.uri));
  };
  assert.deepEqual(await uris({ GITHUB_WORKSPACE: dirname(REPO) }, [BROKEN]), new Set([`${basename(REPO)}/${BROKEN}`]));
  assert.deepEqual(await uris({ GITHUB_WORKSPACE: REPO }, [join(REPO, BROKEN)]), new Set([BROKEN]));
  assert.deepEqual(await uris({}, [BROKEN]), new Set([BROKEN]));
  assert.deepEqual(await uris({}, [join(REPO, BROKEN)]), new Set([pathToFileURL(join(REPO, BROKEN)).href]));
});

interface Invocation {
  executionSuccessful: boolean;
  exitCode?: number;
}
interface Log {
  runs: Array<{
    columnKind?: string;
    invocations: Invocation[];
    results: Array<{ locations?: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }>;
  }>;
}

test('sarif: the exit code of the run, executionSuccessful false only without a verdict, the column unit', async (t) => {
  const invocation = async (args: string[], stdin = '') => {
    const r = await runCli('aep', [...args, '--format', 'sarif'], stdin);
    const run = (JSON.parse(r.stdout) as Log).runs[0]!;
    return { code: r.code, run, inv: run.invocations[0]! };
  };
  const clean = await invocation(['validate', 'examples/aep/session.jsonl']);
  assert.deepEqual([clean.code, clean.inv.exitCode, clean.inv.executionSuccessful], [0, 0, true]);
  const broken = await invocation(['validate', BROKEN]);
  assert.deepEqual([broken.code, broken.inv.exitCode, broken.inv.executionSuccessful], [1, 1, true]);
  assert.equal(broken.run.columnKind, 'utf16CodeUnits');
  const warn = await invocation(['validate', BROKEN, '--fail-on', 'warning', '--max-findings', '0']);
  assert.deepEqual([warn.code, warn.inv.exitCode, warn.run.results.length], [1, 1, 0]);
  // stdin: a relative reference that names no file of the repository
  const stdin = await invocation(['validate', '-'], '{"aep":"0.1"}\n');
  assert.equal(stdin.run.results[0]!.locations![0]!.physicalLocation.artifactLocation.uri, '%3Cstdin%3E');

  // fixtures: a result per case that did not pass (SARIF 2.1.0 §3.14.27: columnKind whenever there are results);
  // a clean run has none, as a clean validate run
  const fixtures = await invocation(['fixtures', join(REPO, 'conformance/aep')]);
  assert.deepEqual([fixtures.code, fixtures.inv.exitCode, fixtures.inv.executionSuccessful], [0, 0, true]);
  assert.deepEqual([fixtures.run.results.length, fixtures.run.columnKind], [0, undefined]);
  const dir = tempDir(t, 'ac-consumers-');
  mkdirSync(join(dir, 'pass'));
  writeFileSync(join(dir, 'pass', 'aep.x.jsonl'), '{}\n');
  writeFileSync(join(dir, 'pass', 'aep.ok.jsonl'), readFileSync(join(REPO, 'examples/aep/session.jsonl')));
  const failing = await invocation(['fixtures', dir]);
  assert.deepEqual([failing.code, failing.run.results.length, failing.run.columnKind], [1, 1, 'utf16CodeUnits']);

  // exit 2 (a rule threw, nothing checked): no verdict, so not a successful execution; the library passes no code
  const end = (exitCode?: number) => {
    let s = '';
    const r = sarifReporter({ write: (c) => void (s += c) }, { protocol: 'aep', version: '0', color: false });
    r.finish(SUMMARY, exitCode === undefined ? undefined : { exitCode });
    return (JSON.parse(s) as Log).runs[0]!.invocations[0]!;
  };
  assert.deepEqual(end(2), { executionSuccessful: false, exitCode: 2, properties: { summary: SUMMARY } });
  assert.deepEqual(end(), { executionSuccessful: true, properties: { summary: SUMMARY } });
  const threw = { ...SUMMARY, byRule: { 'internal/rule-error': 1 } };
  let s = '';
  const r = sarifReporter({ write: (c) => void (s += c) }, { protocol: 'aep', version: '0', color: false });
  r.finish(threw);
  assert.equal((JSON.parse(s) as Log).runs[0]!.invocations[0]!.executionSuccessful, false);
});

test('sarif: a URL (aep live) is one relative segment that decodes to it (no scheme GitHub would refuse); a path a relative reference', () => {
  for (const url of ['http://127.0.0.1:8080/', 'https://h.example/a%20b?x=1#f']) {
    const uri = sarifUri(url);
    assert.ok(!uri.includes(':') && !uri.includes('/'), uri);
    assert.equal(decodeURIComponent(uri), url);
  }
  assert.equal(sarifUri('http:x/y'), './http:x/y');
  assert.equal(sarifUri('<delivered>'), '%3Cdelivered%3E');
});

/** Control characters, `]]>`, markup, lone surrogates and a long value, in member names, values and the file name. */
function hostileLines(): string {
  const long = 'L'.repeat(100_000);
  const nasty = 'a\u0001]]></script><img src=x onerror=alert(1)>\ud800\u001b[31m&amp;"\'';
  return [
    JSON.stringify({ aep: '0.1', id: nasty, type: `x${nasty}`, time: nasty, source: nasty, agent: 'a', [nasty]: 1 }),
    JSON.stringify({ aep: '0.1', id: long, type: `</script>${long}`, time: '2026-01-01T00:00:00Z', source: 'urn:a' }),
    '\u0001 ]]> <b>not json</b> \u00ff',
    `{"\\ud800]]>": "\\udc00", "x": "\\u0000"}`,
  ].join('\n');
}

/** A well-formedness check of the XML our reporters write: tags nest, attributes quoted, text escaped, chars legal. */
function assertWellFormedXml(xml: string): void {
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'));
  const bad = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.exec(xml);
  assert.equal(bad, null, `a character XML 1.0 cannot carry: ${JSON.stringify(bad?.[0])}`);
  const body = xml.slice(xml.indexOf('\n') + 1);
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/gy;
  for (let m = token.exec(body); m; m = token.exec(body)) {
    if (m[6]) assert.fail(`a stray < at ${m.index}: ${body.slice(m.index, m.index + 60)}`);
    if (m[5] !== undefined) {
      assert.ok(!/&(?!(amp|lt|gt|quot|apos);)/.test(m[5]), 'text escapes &');
      assert.ok(!m[5].includes(']]>'), 'text has no ]]>');
      continue;
    }
    for (const [, v] of m[3]!.matchAll(/="([^"]*)"/g)) assert.ok(!/&(?!(amp|lt|gt|quot|apos);)/.test(v!));
    if (m[1]) assert.equal(stack.pop(), m[2], `</${m[2]}> closes the open element`);
    else if (!m[4]) stack.push(m[2]!);
  }
  assert.equal(token.lastIndex, 0, 'the whole document was read');
  assert.deepEqual(stack, []);
}

test('junit: well-formed XML for any input and file name; the counts attributes add up', async (t) => {
  const dir = tempDir(t, 'ac-consumers-');
  const name = join(dir, 'we]]><b>&"\u0001.jsonl');
  writeFileSync(name, hostileLines());
  for (const protocol of ['aep', 'ahp'] as const) {
    const r = await runCli(protocol, ['validate', name, '-', '--format', 'junit'], hostileLines());
    assert.equal(r.code, 1, r.stderr);
    assertWellFormedXml(r.stdout);
    const head = /<testsuites [^>]*tests="(\d+)" failures="(\d+)"/.exec(r.stdout)!;
    const suites = [...r.stdout.matchAll(/<testsuite [^>]*tests="(\d+)" failures="(\d+)"/g)];
    assert.equal(suites.length, 2);
    const sum = (i: number) => suites.reduce((a, m) => a + Number(m[i]), 0);
    assert.deepEqual([sum(1), sum(2)], [Number(head[1]), Number(head[2])]);
    assert.equal(Number(head[1]), r.stdout.match(/<testcase /g)!.length);
    assert.equal(Number(head[2]), r.stdout.match(/<failure /g)!.length);
  }
});

test('html: nothing of the input runs or loads (values, member names, file names); a clean run renders too', async (t) => {
  const dir = tempDir(t, 'ac-consumers-');
  const name = join(dir, '<script>x<img src=x onerror=alert(1)>.jsonl');
  writeFileSync(name, hostileLines());
  for (const protocol of ['aep', 'ahp'] as const) {
    const r = await runCli(protocol, ['validate', name, '-', '--format', 'html'], hostileLines());
    assert.equal(r.code, 1, r.stderr);
    const page = r.stdout;
    assert.equal(page.match(/<script\b/gi)?.length, 1, 'one script: the page');
    assert.equal(page.match(/<\/script/gi)?.length, 1);
    assert.equal(page.match(/<img\b/gi), null);
    assert.equal(page.match(/<(link|iframe|object|embed|base|style\b[^>]*src)\b/gi), null);
    assert.equal(page.match(/<[a-z][^<>]*\s(src|srcset|on[a-z]+)=/gi), null, 'no tag loads or handles');
    // links are the spec citations, opened on a click; nothing is fetched
    for (const [, href] of page.matchAll(/href="([^"]*)"/g))
      assert.ok(href!.startsWith('#') || href!.startsWith('https://'), href);
    assert.ok(page.includes('&#60;script&#62;x&#60;img src=x onerror=alert(1)&#62;.jsonl'));
    assert.equal(/[\u0000-\u0008\u000B-\u001F]/.exec(page), null, 'no control character');
  }
  const clean = await runCli('aep', ['validate', 'examples/aep/session.jsonl', '--format', 'html']);
  assert.equal(clean.code, 0);
  assert.match(clean.stdout, /No findings\./);
  assert.ok(clean.stdout.trimEnd().endsWith('</html>'));
});

test('text: colour only on a terminal, never with NO_COLOR or --no-color; FORCE_COLOR wins over a pipe', async () => {
  const colour = async (tty: boolean, env: Record<string, string>, extra: string[] = []) => {
    const r = await runCli('aep', ['validate', BROKEN, '--no-progress', ...extra], '', { stdoutIsTTY: tty, env });
    return r.stdout.includes('\u001b[');
  };
  assert.equal(await colour(false, {}), false);
  assert.equal(await colour(true, {}), true);
  assert.equal(await colour(true, { NO_COLOR: '1' }), false);
  assert.equal(await colour(true, {}, ['--no-color']), false);
  assert.equal(await colour(false, { FORCE_COLOR: '1' }), true);
  assert.equal(await colour(true, { FORCE_COLOR: '0' }), false);
  assert.equal(await colour(false, { FORCE_COLOR: '1' }, ['--no-color']), false);
});

test('-o NAME: the extension picks the format when --format is not given; --format wins', async (t) => {
  const cases = {
    'r.html': 'html',
    'r.HTM': 'html',
    'r.sarif': 'sarif',
    'r.sarif.json': 'sarif',
    'r.json': 'json',
    'r.ndjson': 'ndjson',
    'r.jsonl': 'ndjson',
    'r.xml': 'junit',
    'r.txt': undefined,
  } as const;
  for (const [name, format] of Object.entries(cases)) assert.equal(formatOfOutputName(name), format, name);
  const dir = tempDir(t, 'ac-consumers-');
  const out = join(dir, 'findings.ndjson');
  assert.equal((await runCli('aep', ['validate', BROKEN, '-o', out])).code, 1);
  const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
  assert.ok(lines.length > 1);
  for (const l of lines) JSON.parse(l);
  assert.equal((await runCli('aep', ['validate', BROKEN, '-o', out, '--format', 'text'])).code, 1);
  assert.match(readFileSync(out, 'utf8'), /^examples\/aep\/session-broken\.jsonl:\d+:\d+ {2}error/);
  // fixtures has no ndjson: the name implies nothing there, and text is written
  const fx = join(dir, 'cases.ndjson');
  assert.equal((await runCli('aep', ['fixtures', 'conformance/aep', '-o', fx])).code, 0);
  assert.match(readFileSync(fx, 'utf8'), /✔ pass/);
});
