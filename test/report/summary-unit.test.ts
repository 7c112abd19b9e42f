/**
 * The unit a summary counts: AHP's is a JSON-RPC message (a response carries no event), AEP's an event. Every reporter
 * that writes the count in words (text, github, html, the fixtures' case runs) names the protocol's unit; the JSON
 * reports keep the `events` field of schemas/report.schema.json for both.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixtureSample, runCli } from '../cli/helpers.ts';

const SESSION = { aep: 'examples/aep/session.jsonl', ahp: 'examples/ahp/session.jsonl' } as const;
const UNIT = { aep: 'event', ahp: 'message' } as const;
const OTHER = { aep: 'message', ahp: 'event' } as const;

for (const protocol of ['aep', 'ahp'] as const)
  test(`${protocol}: text, --each, github, html and fixtures summaries count ${UNIT[protocol]}s`, async () => {
    const unit = UNIT[protocol];
    const other = OTHER[protocol];
    const text = await runCli(protocol, ['validate', SESSION[protocol]]);
    assert.match(text.stdout, new RegExp(`^✔ \\d+ ${unit}s, 0 errors`, 'm'));
    assert.doesNotMatch(text.stdout, new RegExp(`\\d+ ${other}s?,`));
    const broken = SESSION[protocol].replace('session', 'session-broken');
    const each = await runCli(protocol, ['validate', '--each', SESSION[protocol], broken]);
    assert.match(each.stdout, new RegExp(`session\\.jsonl: \\d+ ${unit}s, 0 errors`));
    assert.match(each.stdout, new RegExp(`^✖ 2 inputs: \\d+ ${unit}s, \\d+ errors?`, 'm'));
    const github = await runCli(protocol, ['validate', '-f', 'github', SESSION[protocol]]);
    assert.match(github.stdout, new RegExp(`^${protocol}: \\d+ ${unit}s, 0 errors`, 'm'));
    const html = await runCli(protocol, ['validate', '-f', 'html', SESSION[protocol]]);
    assert.match(html.stdout, new RegExp(`<span>${unit}s</span>`));
    assert.match(html.stdout, new RegExp(`class="line-sum">\\d+ ${unit}s ·`));
    assert.doesNotMatch(html.stdout, new RegExp(`<span>${other}s</span>|line-sum">\\d+ ${other}s`));
    const fixtures = await runCli(protocol, ['fixtures', fixtureSample(protocol)]);
    assert.match(fixtures.stdout, new RegExp(`case runs: \\d+ inputs: \\d+ ${unit}s?(,| checked)`));
  });

test('ahp: lines set aside (an AEP log given to ahp) are counted beside 0 messages checked', async () => {
  const r = await runCli('ahp', ['validate', SESSION.aep]);
  assert.match(r.stdout, /^✖ 0 messages checked \(9 lines of another format not checked\), 1 error/m);
});
