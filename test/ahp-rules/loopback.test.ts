/**
 * Loopback, the local development boundary where ahp/endpoint-insecure and ahp/elicitation-url-insecure let plain
 * http pass. Replays of https://github.com/dotnet/corefx/issues/35454 and nanocurrency/nano-node#2912 (an IPv4-mapped
 * ::ffff:127.0.0.1 is loopback) and of TestSprite/testsprite-cli#37 and w3c/webappsec-secure-contexts#77 (`localhost.`,
 * the absolute form RFC 6761 §6.3 names, is loopback): both read as remote before.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isLoopback } from '../../src/core/loopback.ts';
import { registration, text } from '../ahp/builders.ts';
import { obsOf, ruleRows } from './helpers.ts';

const LOOPBACK = [
  'localhost',
  'LOCALHOST',
  'localhost.',
  'app.localhost',
  'app.localhost.',
  '127.0.0.1',
  '127.1',
  '127.255.255.254',
  '2130706433',
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:127.9.8.7]',
  '[::ffff:7f00:1]',
];
const REMOTE = [
  'localhost..',
  'localhost.example',
  'notlocalhost',
  'localhost-1',
  '127.0.0.1.nip.io',
  '0.0.0.0',
  '128.0.0.1',
  '[::2]',
  '[::ffff:8.8.8.8]',
  '[::ffff:128.0.0.1]',
  '[::127.0.0.1]',
  'example.com',
];

describe('loopback hosts', () => {
  test('isLoopback reads a WHATWG hostname: the loopback spellings pass, their near misses do not', () => {
    for (const h of LOOPBACK) assert.ok(isLoopback(new URL(`http://${h}/`).hostname), h);
    for (const h of REMOTE) assert.ok(!isLoopback(new URL(`http://${h}/`).hostname), h);
  });

  const { validate, invalid } = ruleRows(['ahp/endpoint-insecure', 'ahp/elicitation-url-insecure']);
  const R = { root: 'registration' } as const;
  const reg = (host: string) => {
    const d = registration();
    (d as { hooks: Array<{ transport: { url: string } }> }).hooks[0]!.transport.url = `http://${host}:8080/hooks`;
    return d;
  };
  const url = (host: string) =>
    obsOf('user.elicitation.request', {
      elicitation: {
        server: 'mcp:x',
        mode: 'url',
        request: text(JSON.stringify({ mode: 'url', message: 'm', url: `http://${host}/cb`, elicitationId: 'e' })),
      },
    });

  // the insecure-URL rules only: a URL with host `0.0.0.0` or a bare name is otherwise valid
  const rules = (v: unknown, o?: { root: 'registration' }) =>
    validate(v, o)
      .filter((f) => f.ruleId === 'ahp/endpoint-insecure' || f.ruleId === 'ahp/elicitation-url-insecure')
      .map((f) => `${f.ruleId} ${f.severity}`);
  test('relation: one verdict per host for both rules, an error and a warning exactly for the remote ones', () => {
    for (const h of LOOPBACK) {
      assert.deepEqual(rules(reg(h), R), [], h);
      assert.deepEqual(rules(url(h)), [], h);
    }
    for (const h of REMOTE) {
      assert.deepEqual(rules(reg(h), R), ['ahp/endpoint-insecure error'], h);
      assert.deepEqual(rules(url(h)), ['ahp/elicitation-url-insecure warning'], h);
    }
    invalid(reg('localhost.example'), 'ahp/endpoint-insecure', '/hooks/0/transport/url', R);
  });
});
