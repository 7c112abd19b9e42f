import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { registration } from '../ahp/builders.ts';
import { ruleRows } from './helpers.ts';

const { valid, invalid } = ruleRows([
  'ahp/protocol-version',
  'ahp/content-selection',
  'ahp/registration',
  'ahp/registration-duplicate-id',
  'ahp/registration-literal-secret',
  'ahp/endpoint-insecure',
]);

describe('registration', () => {
  const R = { root: 'registration' };
  // biome-ignore lint/suspicious/noExplicitAny: the cases edit a registration document at any depth
  const edit = (f: (d: any) => void) => {
    const d = registration();
    f(d);
    return d;
  };
  test('portable registration and wildcards', () => {
    valid(registration(), R);
    valid(
      edit((d) => (d.hooks[0].subscriptions[0].events = ['*'])),
      R,
    );
    valid(
      edit((d) => (d.hooks[1].subscriptions[0].events = ['model.*', 'user.attention'])),
      R,
    ); // model-family-selection (absent)
    valid(
      edit(
        (d) =>
          (d.hooks[0].subscriptions[0].upload = {
            endpoint: 'http://127.0.0.1:8080/bytes',
            timeoutMs: 500,
            maxBytes: 0,
            auth: { type: 'bearer', tokenRef: 'secrets/upload' },
          }),
      ),
      R,
    );
    valid(
      edit(
        (d) =>
          (d.hooks[0].authentication = {
            type: 'oauth',
            issuer: 'https://id.example',
            resource: 'https://policy.example.com',
            clientId: 'c',
            flow: 'client_credentials',
            clientSecretRef: 'secrets/c',
          }),
      ),
      R,
    );
    valid(
      edit((d) => (d.hooks[0].futureField = { x: 1 })),
      R,
    );
  });
  test('schema rules', () => {
    invalid(
      edit((d) => (d.hooks[0].subscriptions[0].events = ['tool.be*'])),
      'ahp/registration',
      '/hooks/0/subscriptions/0/events/0',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].subscriptions[0].events = [])),
      'ahp/registration',
      '/hooks/0/subscriptions/0/events',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].subscriptions[0].events = ['hook.failure'])),
      'ahp/registration',
      '/hooks/0/subscriptions/0/events/0',
      R,
    );
    invalid(
      edit((d) => delete d.hooks[0].subscriptions[0].failurePolicy),
      'ahp/registration',
      '/hooks/0/subscriptions/0',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].subscriptions[0].timeoutMs = 0)),
      'ahp/registration',
      '/hooks/0/subscriptions/0/timeoutMs',
      R,
    );
    invalid(
      edit((d) => (d.hooks[1].subscriptions[0].failurePolicy = 'fail-open')),
      'ahp/registration',
      '/hooks/1/subscriptions/0/failurePolicy',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].id = 'policy')),
      'ahp/registration',
      '/hooks/0/id',
      R,
    );
    invalid(
      edit((d) => delete d.hooks[1].transport.lifecycle),
      'ahp/registration',
      '/hooks/1/transport',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].transport = { type: 'http', url: 'ftp://policy.example.com' })),
      'ahp/registration',
      '/hooks/0/transport/url',
      R,
    );
    // "absolute endpoint URL": an http(s) URL with a host to connect to. `https://` names none; a URL parser repairs
    // `https:host`, `https:/host` and `https:///host` into `https://host/`, which no one wrote (replays of
    // https://github.com/colinhacks/zod/issues/5284 and https://github.com/nodejs/node/issues/50919)
    for (const url of [
      'https://',
      'https:///policy.example.com/h',
      'https://:443/h',
      'https://?q',
      'https:policy.example.com',
      'https://policy.example.com:65536/',
    ])
      invalid(
        edit((d) => (d.hooks[0].transport.url = url)),
        'ahp/registration',
        '/hooks/0/transport/url',
        R,
      );
    for (const url of ['https://policy.example.com:443/h', 'https://[::1]:8443/h', 'https://x.example:/'])
      valid(
        edit((d) => (d.hooks[0].transport.url = url)),
        R,
      );
    for (const [member, value] of [
      ['endpoint', 'https:///u.example'],
      ['endpoint', 'http:/127.0.0.1/bytes'],
    ])
      invalid(
        edit(
          (d) =>
            (d.hooks[0].subscriptions[0].upload = {
              endpoint: 'https://u.example',
              timeoutMs: 1,
              maxBytes: 1,
              [member]: value,
            }),
        ),
        'ahp/registration',
        `/hooks/0/subscriptions/0/upload/${member}`,
        R,
      );
    invalid(
      edit(
        (d) =>
          (d.hooks[0].authentication = {
            type: 'oauth',
            issuer: 'https://',
            resource: 'https://r',
            clientId: 'c',
            flow: 'f',
          }),
      ),
      'ahp/registration',
      '/hooks/0/authentication/issuer',
      R,
    );
    invalid(
      edit(
        (d) =>
          (d.hooks[0].authentication = { type: 'mtls', certificateRef: 'a', privateKeyRef: 'b', trustRootsRef: 'c' }),
      ),
      'ahp/registration',
      '/hooks/0/authentication/type',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].authentication = { type: 'bearer', tokenEnv: 'A', tokenRef: 'b' })),
      'ahp/registration',
      '/hooks/0/authentication',
      R,
    );
    invalid(
      edit(
        (d) =>
          (d.hooks[0].authentication = {
            type: 'oauth',
            issuer: 'http://id.example',
            resource: 'https://r',
            clientId: 'c',
            flow: 'f',
          }),
      ),
      'ahp/registration',
      '/hooks/0/authentication/issuer',
      R,
    );
    invalid(
      edit(
        (d) =>
          (d.hooks[0].subscriptions[0].upload = {
            endpoint: 'http://uploads.example/bytes',
            timeoutMs: 1,
            maxBytes: 1,
          }),
      ),
      'ahp/endpoint-insecure',
      '/hooks/0/subscriptions/0/upload/endpoint',
      R,
    );
    invalid(
      edit((d) => (d.protocolVersion = '2026-08-27')),
      'ahp/protocol-version',
      '/protocolVersion',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].subscriptions[0].content = { default: 'full' })),
      'ahp/content-selection',
      '/hooks/0/subscriptions/0/content/default',
      R,
    );
    const images = invalid(
      edit((d) => (d.hooks[1].subscriptions[0].content = { default: 'body', images: 'upload' })),
      'ahp/content-selection',
      '/hooks/1/subscriptions/0/content/images',
      R,
    );
    // the sentence names the category key, not a `selection` member (there is none in a selection map)
    assert.equal(images[0]!.message, 'The content selection of `images` must be "body", "metadata" or "omit".');
    const odd = invalid(
      edit((d) => (d.hooks[1].subscriptions[0].content = { default: 'body', 'my key!': 'upload' })),
      'ahp/content-selection',
      undefined,
      R,
    );
    assert.match(odd[0]!.message, /^A content selection value \(`default` and each category key\) must be/);
  });
  test('literal-token (absent upstream case): credentials are references, never literal values', () => {
    invalid(
      edit((d) => (d.hooks[0].authentication = { type: 'bearer', tokenEnv: 'AHP_TOKEN', token: 'abc123' })),
      'ahp/registration-literal-secret',
      '/hooks/0/authentication/token',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].authentication = { type: 'bearer', token: 'abc123' })),
      ['ahp/registration', 'ahp/registration-literal-secret'],
      '/hooks/0/authentication/token',
      R,
    );
    invalid(
      edit(
        (d) =>
          (d.hooks[0].subscriptions[0].upload = {
            endpoint: 'https://u.example',
            timeoutMs: 1,
            maxBytes: 1,
            auth: {
              type: 'oauth',
              issuer: 'https://i',
              resource: 'https://r',
              clientId: 'c',
              flow: 'f',
              client_secret: 's',
            },
          }),
      ),
      'ahp/registration-literal-secret',
      '/hooks/0/subscriptions/0/upload/auth/client_secret',
      R,
    );
  });
  test('backend ids are unique', () => {
    invalid(
      edit((d) => (d.hooks[1].id = d.hooks[0].id)),
      'ahp/registration-duplicate-id',
      '/hooks/1/id',
      R,
    );
  });
});
