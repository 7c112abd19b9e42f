/**
 * The credential-name heuristic of ahp/elicitation-form-sensitive and ahp/elicitation-url-secret
 * (src/ahp/sensitive-names.ts): what it matches and the ordinary names it must leave alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { credentialAsked, nameWords } from '../../src/ahp/sensitive-names.ts';

test('names split into words at case, separator and digit boundaries', () => {
  assert.deepEqual(nameWords('APIKey'), ['api', 'key']);
  assert.deepEqual(nameWords('githubAccessToken'), ['github', 'access', 'token']);
  assert.deepEqual(nameWords('client-secret_2'), ['client', 'secret', '2']);
  assert.deepEqual(nameWords('Card number'), ['card', 'number']);
});

test('credential names and titles are recognised', () => {
  const cases: Array<[string, string]> = [
    ['password', 'a password'],
    ['Passphrase', 'a password'],
    ['db_passwd', 'a password'],
    ['apiKey', 'an API or private key'],
    ['api_key', 'an API or private key'],
    ['AWS_SECRET_ACCESS_KEY', 'a secret'],
    ['privateKey', 'an API or private key'],
    ['GITHUB_TOKEN', 'an access token'],
    ['refresh-token', 'an access token'],
    ['credentials', 'a credential'],
    ['Card number', 'payment-card data'],
    ['creditCard', 'payment-card data'],
    ['CVV', 'payment-card data'],
    ['otp', 'a one-time authentication code'],
  ];
  for (const [name, want] of cases) assert.equal(credentialAsked(name), want, name);
});

test('ordinary names are not credentials', () => {
  for (const name of [
    'secretary',
    'Secretary on duty',
    'passport',
    'max_tokens',
    'tokens_used',
    'token_count',
    'maxTokens',
    'token_type',
    'tokenizer',
    'keyboard',
    'sort_key',
    'key',
    'pin',
    'pwd',
    'code',
    'auth_method',
    'mfa_enabled',
    'name',
    'email',
  ]) {
    assert.equal(credentialAsked(name), undefined, name);
  }
});

test('URL parameters also count key and signatures', () => {
  assert.equal(credentialAsked('key', true), 'an API key');
  assert.equal(credentialAsked('X-Amz-Signature', true), 'a URL signature');
  assert.equal(credentialAsked('sig', true), 'a URL signature');
  assert.equal(credentialAsked('keyboard', true), undefined);
  assert.equal(credentialAsked('state', true), undefined);
});
