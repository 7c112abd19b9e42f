/**
 * `aep/metadata-content` (AEP-0003 §9 item 2) remembers the short texts its content screen passed and each capture-tree
 * member's last clean string (src/aep/capture-checks.ts): a remembered text is still judged by the name of the member
 * that holds it, and a member's next string is screened on its own.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { event, runRule } from './helpers.ts';

const tool = (name: string, over: Record<string, unknown> = {}) =>
  event('tool.requested', 0, { run: 'r1', capture: 'metadata', data: { tool: { name, call_id: 'c1' } }, ...over });

test("a member's string after a clean one is screened on its own", async () => {
  const events = [tool('Bash'), tool('token=abcdef123456'), tool('Bash'), tool('alice@example.com'), tool('Bash')];
  assert.deepEqual(await runRule('aep/metadata-content', events), [
    'error:aep/metadata-content@2/data/tool/name',
    'error:aep/metadata-content@4/data/tool/name',
  ]);
});

test('a text the screen passed is still a credential as the value of a credential-named member', async () => {
  const quiet = 'hunter2hunter2';
  const events = [
    tool(quiet, { subject: quiet }),
    tool('Read', { acmepassword: quiet }),
    event('run.started', 0, {
      run: 'r1',
      capture: 'metadata',
      data: { trigger: 'user', label: quiet, password: quiet, secret: [quiet] },
    }),
  ];
  assert.deepEqual(await runRule('aep/metadata-content', events), [
    'error:aep/metadata-content@2/acmepassword',
    'error:aep/metadata-content@3/data/password',
    'error:aep/metadata-content@3/data/secret/0',
  ]);
});
