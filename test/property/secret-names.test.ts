/**
 * Well-known secret names beyond the AEP-0003 §9.4(a) words (the `secret-name` hardening class, src/core/secret-patterns.ts
 * SECRET_NAME): a value assigned to one is flagged whole and redacted without a trace, in a text, a `.env` line, JSON
 * and code; the ordinary names that share their letters (the shell's `PWD`, a `FIRST_PASS`, `public_key`, a DynamoDB
 * `gsi1_sk`) are flagged by nothing; and a payload member so named is redacted by its name, as AHP reads it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createRedactor } from '../../src/aep/redact.ts';
import { isCredentialName } from '../../src/aep/credential-names.ts';
import { findSecrets, secretTier } from '../../src/core/secrets.ts';
import { ALNUM, chars, clean, holds, RUNS } from './secret-shapes.ts';

/** The names of the class, in the spellings they are written. */
const NAMES = [
  'passphrase',
  'PASSPHRASE',
  'key_passphrase',
  'sshKeyPassphrase',
  'pass_phrase',
  'MYSQL_PWD',
  'db_pwd',
  'ldap-pwd',
  'DB_PASS',
  'SMTP_PASS',
  'APP_DB_PASS',
  'mail_pass',
  'KEYSTORE_PASS',
  'private_key',
  'PRIVATE_KEY',
  'SSH_PRIVATE_KEY',
  'privateKey',
  'signing_key',
  'JWT_SIGNING_KEY',
  'encryption_key',
  'encryptionKey',
  'RAILS_MASTER_KEY',
  'master_key',
  'SSHPASS',
  'REDISCLI_AUTH',
  '_auth',
  'AWS_SK',
  'aws_sk',
  'HUAWEICLOUD_SDK_SK',
  'OBS_SK',
];

/** Assignments the way logs, `.env` files, JSON and code write them. */
const WRAP = fc.constantFrom(
  (k: string, v: string) => `${k}=${v}`,
  (k: string, v: string) => `export ${k}="${v}"`,
  (k: string, v: string) => `running with ${k}: ${v} set`,
  (k: string, v: string) => `{"${k}": "${v}", "region": "eu"}`,
  (k: string, v: string) => `cfg = {'${k}': '${v}'}`,
  (k: string, v: string) => `line one\n${k} = ${v}\nline three`,
);

test('a value assigned to a well-known secret name is flagged whole (hardening) and redacted without a trace', () => {
  fc.assert(
    fc.property(fc.constantFrom(...NAMES), chars(ALNUM, 12, 40), WRAP, (k, v, wrap) =>
      holds(wrap(k, v), v, 'secret-name', 4),
    ),
    RUNS,
  );
  assert.equal(secretTier('secret-name'), 'hardening');
  // an .npmrc line: the registry's `_auth` is base64 of user:password
  holds('//registry.npmjs.org/:_auth=dXNlcjpzM2NyM3RQYXNz', 'dXNlcjpzM2NyM3RQYXNz', 'secret-name');
});

test('ordinary names that share the letters of a secret name are flagged by nothing', () => {
  for (const k of [
    'PWD', // the shell's working directory, printed by `env`
    'OLDPWD',
    'pwd',
    'pass',
    'FIRST_PASS',
    'TESTS_PASS',
    'BYPASS',
    'COMPASS',
    'public_key',
    'private_key_id',
    'privateKeyPath',
    'passphrase_hint',
    'master',
    'master_branch',
    'gsi1_sk', // a DynamoDB sort key
    'pk_sk',
    'DISK',
    'TASK',
    'basic_auth',
    'oauth',
    'use_auth',
    'bos_token_id',
  ])
    for (const t of [`${k}=/home/u/proj`, `"${k}": "v2x9"`, `${k}: 3`]) clean(t);
  clean('cd $PWD && ls');
  clean('git checkout master && git pull');
  clean('a second pass over the input; 3 tests pass');
});

test('a payload member named a secret name is redacted by its name (aep redact), and not an ordinary one', () => {
  const r = createRedactor({ home: false, pii: false });
  for (const k of ['AWS_SK', 'MYSQL_PWD', 'DB_PASS', 'signing_key', 'SSHPASS', 'REDISCLI_AUTH', 'key_passphrase']) {
    assert.ok(isCredentialName(k), k);
    assert.deepEqual(r.value({ [k]: 'plainword' }), { [k]: '[REDACTED:secret]' }, k);
  }
  for (const k of ['PWD', 'OLDPWD', 'FIRST_PASS', 'public_key', 'gsi1_sk', 'task']) {
    assert.ok(!isCredentialName(k), k);
    assert.deepEqual(r.value({ [k]: 'plainword' }), { [k]: 'plainword' }, k);
  }
});

test('a secret name and the §9.4(a) words: one match a value, no class twice', () => {
  assert.deepEqual(
    findSecrets('AWS_SK=abcdEFGH1234').map((m) => m.class),
    ['secret-name'],
  );
  // `AWS_SECRET` holds the floor's `secret`: the floor class, as before
  assert.ok(findSecrets('AWS_SECRET=abcdEFGH1234').some((m) => m.class === 'assignment'));
});

test('ahp/event-secret reads a secret name in native metadata as the name of a credential, and not PWD', async () => {
  const { runCli } = await import('../cli/helpers.ts');
  const line = (payload: Record<string, string>) =>
    `${JSON.stringify({
      jsonrpc: '2.0',
      method: 'hooks/observe',
      params: {
        protocolVersion: 'draft',
        event: {
          id: 'evt_sn',
          source: 'urn:uuid:7e2a3b4c-1d5f-4e6a-8b9c-0a1b2c3d4e5f',
          time: '2026-09-15T12:00:00Z',
          type: 'tool.before',
          session: { id: 'sess_s' },
          call: { id: 'c1' },
          tool: { name: 'shell', kind: 'shell', input: { command: 'ls' }, origin: 'native' },
          path: 'shell',
          native: { provider: 'acme', eventName: 'PreToolUse', payload },
        },
      },
    })}\n`;
  const flagged = await runCli('ahp', ['validate', '--rule', 'ahp/event-secret', '-'], line({ AWS_SK: 'plainword' }));
  assert.match(flagged.stdout, /ahp\/event-secret/);
  const plain = await runCli('ahp', ['validate', '--rule', 'ahp/event-secret', '-'], line({ PWD: '/home/u/proj' }));
  assert.doesNotMatch(plain.stdout, /ahp\/event-secret/);
});
