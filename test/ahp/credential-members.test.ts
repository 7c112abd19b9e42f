/**
 * The one source of credential member names (src/ahp/sensitive-names.ts) read by `ahp/event-secret` (any event
 * member) and `ahp/registration-literal-secret` (an authentication block): each scope's names as the two rules had them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCredentialMember } from '../../src/ahp/sensitive-names.ts';

const EVENT = [
  'token',
  'accessToken',
  'bearer_token',
  'id-token',
  'refreshToken',
  'password',
  'secret',
  'client_secret',
  'apiKey',
  'Authorization',
];
const AUTHENTICATION_ONLY = ['privateKey', 'private_key', 'credential', 'Credentials'];
const NEITHER = ['tokenEnv', 'tokenRef', 'clientSecretRef', 'tokens', 'secretary', 'passwords', 'api.key', 'key', ''];

test('an event member is a credential by its name: the ten names, any case, without - and _', () => {
  for (const n of EVENT) assert.equal(isCredentialMember(n, 'event'), true, n);
  for (const n of [...AUTHENTICATION_ONLY, ...NEITHER]) assert.equal(isCredentialMember(n, 'event'), false, n);
});

test('an authentication member also by the names of key material and credential objects; references never', () => {
  for (const n of [...EVENT, ...AUTHENTICATION_ONLY]) assert.equal(isCredentialMember(n, 'authentication'), true, n);
  for (const n of NEITHER) assert.equal(isCredentialMember(n, 'authentication'), false, n);
});
