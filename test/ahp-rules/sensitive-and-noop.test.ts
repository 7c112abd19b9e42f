/**
 * Sensitive elicitation, exposed credentials and no-op changes (warnings and the errors of `ahp/credential-exposed`).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAhpValid } from '../../src/run/ahp-message.ts';
import { text } from '../ahp/builders.ts';
import { show } from '../ahp/helpers.ts';
import { obsOf, ruleRows } from './helpers.ts';

const { validate, valid, invalid, stdio } = ruleRows([
  'ahp/overlay',
  'ahp/elicitation-form-sensitive',
  'ahp/elicitation-url-secret',
  'ahp/elicitation-url-insecure',
  'ahp/elicitation-form-link',
  'ahp/config-after-unchanged',
  'ahp/change-after-noop',
  'ahp/file-change-noop',
  'ahp/credential-exposed',
  'ahp/event-secret',
  'ahp/currency-unknown',
  'ahp/error-data-secret',
]);

describe('sensitive elicitation and no-op changes', () => {
  const req = (mcp: unknown, mode: string) =>
    obsOf('user.elicitation.request', { elicitation: { server: 'mcp:x', mode, request: text(JSON.stringify(mcp)) } });
  // `severity`: the rule's own; an error rule's findings make the message invalid
  const warned = (value: unknown, rule: string, count: number, severity = 'warning') => {
    const issues = validate(value);
    if (severity === 'warning' || count === 0) assert.ok(isAhpValid(issues), show(issues));
    assert.deepEqual(
      issues.map((i) => [i.ruleId, i.severity]),
      Array.from({ length: count }, () => [rule, severity]),
      show(issues),
    );
  };
  // a credential the detector sees is an error in every AHP rule that reads it (issue 43: one string, one answer)
  const exposed = (value: unknown, count: number) => {
    const issues = validate(value);
    assert.deepEqual(
      issues.map((i) => [i.ruleId, i.severity]),
      Array.from({ length: count }, () => ['ahp/credential-exposed', 'error']),
      show(issues),
    );
  };
  test('a form asking for a credential, a URL carrying one', () => {
    const form = (properties: unknown) =>
      req({ message: 'm', requestedSchema: { type: 'object', properties } }, 'form');
    warned(
      form({
        password: { type: 'string' },
        f: { type: 'string', title: 'API key' },
        pin: { type: 'integer', title: 'Card number' },
      }),
      'ahp/elicitation-form-sensitive',
      3,
    );
    warned(
      form({ max_tokens: { type: 'integer' }, secretary: { type: 'string' }, remember_password: { type: 'boolean' } }),
      'ahp/elicitation-form-sensitive',
      0,
    );
    const url = (u: string) => req({ mode: 'url', message: 'm', url: u, elicitationId: 'e' }, 'url');
    warned(url('https://deploy@x.example/a?otp=1&step=2'), 'ahp/elicitation-url-secret', 2);
    warned(url('https://x.example/a?step=2&max_tokens=5'), 'ahp/elicitation-url-secret', 0);
  });
  test('an elicitation URL: a credential the detector sees is an error, under any parameter name (issue 43)', () => {
    const url = (u: string) => req({ mode: 'url', message: 'm', url: u, elicitationId: 'e' }, 'url');
    const jwt = `eyJhbGciOiJIUzI1NiJ9.${btoa('{"sub":"1234567890"}').replace(/=+$/, '')}.SflKxwRJSMeKKF2QT4fwpMeJf36P`;
    const q = encodeURIComponent;
    // one error per URL and no name warning beside it: the URL gets one answer
    for (const u of [
      `https://x.example/a?ref=${jwt}`,
      `https://x.example/a#${jwt}`,
      `https://x.example/a?ctx=${q('Bearer abcDEF12345678xyz')}`,
      `https://x.example/a?next=${q('https://u:s3cretPw@db.example/x')}`,
      `https://x.example/a?k=ghp_${'a1B2'.repeat(9)}`,
      'https://u:p4ssw0rd@x.example/a?token=1&step=2',
      'https://x.example/a?access_token=x&sig=y',
    ])
      exposed(url(u), 1);
    // an email login hint is PII, not a credential; PKCE and OAuth values have no credential shape
    exposed(
      url(
        `https://auth.example/authorize?response_type=code&client_id=abc&redirect_uri=${q('https://x.example/cb')}` +
          '&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256' +
          '&state=xyzABC123def&nonce=n-0S6_WzA2Mj&login_hint=alice%40example.com',
      ),
      0,
    );
    exposed(url('https://auth.example/authorize?login_hint=alice@example.com&token_type=bearer&max_tokens=5'), 0);
    // the same credential in a form request's message is not this rule's (model-visible text is not read)
    exposed(req({ mode: 'form', message: jwt, requestedSchema: { type: 'object', properties: {} } }, 'form'), 0);
  });
  test('a URL elicitation uses https, plain http only to loopback (MCP §Safe URL Handling #4)', () => {
    const url = (u: string) => req({ mode: 'url', message: 'm', url: u, elicitationId: 'e' }, 'url');
    const loopback = ['localhost:8080', 'app.localhost', '127.0.0.1', '127.9.0.1:3000', '[::1]'];
    const remote = ['x.example', 'localhost.example.com', '128.0.0.1', '10.0.0.1', '[::2]'];
    // the relation: a warning exactly when the scheme is not https and not plain http to a loopback host
    const rows: [string, string, number][] = [
      ...loopback.flatMap((h): [string, string, number][] => [
        ['https', h, 0],
        ['http', h, 0],
        ['ftp', h, 1],
      ]),
      ...remote.flatMap((h): [string, string, number][] => [
        ['https', h, 0],
        ['HTTP', h, 1],
        ['ws', h, 1],
      ]),
    ];
    for (const [scheme, host, expected] of rows)
      warned(url(`${scheme}://${host}/cb`), 'ahp/elicitation-url-insecure', expected);
    warned(url('javascript:alert(1)'), 'ahp/elicitation-url-insecure', 1);
    warned(url('vscode://ext/auth'), 'ahp/elicitation-url-insecure', 1);
  });
  test('a form request shows no link (MCP §Safe URL Handling #3); its values are answers, not read', () => {
    const form = (message: string, properties: unknown) =>
      req({ message, requestedSchema: { type: 'object', properties } }, 'form');
    const link = 'see https://x.example/doc';
    warned(form(link, {}), 'ahp/elicitation-form-link', 1);
    warned(
      form('m', {
        a: { type: 'string', title: link, description: link },
        b: { type: 'string', oneOf: [{ const: 'x', title: link }] },
        c: { type: 'array', items: { anyOf: [{ const: 'x', title: link }] } },
        d: { type: 'string', enum: ['x'], enumNames: [link] },
      }),
      'ahp/elicitation-form-link',
      5,
    );
    warned(
      form('Your account at example.com; reply over HTTP or https', {
        a: { type: 'string', format: 'uri', default: 'https://x.example' },
        b: { type: 'string', enum: ['https://x.example'] },
        c: { type: 'string', oneOf: [{ const: 'https://x.example', title: 'X' }] },
      }),
      'ahp/elicitation-form-link',
      0,
    );
    // a URL request's own message is not a form's
    warned(
      req({ mode: 'url', message: link, url: 'https://x.example', elicitationId: 'e' }, 'url'),
      'ahp/elicitation-form-link',
      0,
    );
  });
  test('a credential in an MCP descriptor or in the event source', () => {
    const mcp = (connection: unknown) =>
      obsOf('tool.before', {
        tool: { name: 's', input: {}, origin: 'mcp', mcp: { server: { id: 'docs' }, toolName: 's', connection } },
      });
    exposed(mcp({ transport: 'http', url: 'https://u:p@mcp.example/sse?token=1' }), 1);
    exposed(
      mcp({
        transport: 'stdio',
        command: 'srv',
        args: ['--api-key=abc123', '-H', 'Authorization: Bearer abcdefgh12345678'],
        cwd: '/w',
        env: { K: 'ghp_0123456789abcdefghijABCDEFGHIJ0123' },
      }),
      3,
    );
    exposed(
      mcp({
        transport: 'stdio',
        command: 'srv',
        args: ['--token-file', '/run/secrets/t', '--max-tokens=5'],
        cwd: '/home/dev',
      }),
      0,
    );
    exposed(mcp({ transport: 'http', url: 'https://mcp.example/sse?max_tokens=5&token_type=bearer' }), 0);
    exposed(obsOf('tool.before', { source: 'https://h.example/agent?access_token=x' }), 1);
    // a percent-decoded parameter value is read as in an elicitation URL, under any name
    exposed(obsOf('tool.before', { source: 'https://h.example/agent?ctx=Bearer%20abcDEF12345678xyz' }), 1);
    exposed(
      mcp({ transport: 'http', url: `https://mcp.example/sse?ctx=${encodeURIComponent('password=hunter2x')}` }),
      1,
    );
    exposed(obsOf('tool.before', { source: 'urn:uuid:6d1f2c3a-0b4e-4c7a-9e21-5f8a7b6c4d30' }), 0);
  });
  test('a secret in native metadata, extensions, a reason or a deny reason; an unknown currency', () => {
    invalid(
      obsOf('tool.before', { native: { provider: 'p', eventName: 'E', payload: { auth: 'Bearer abcdefgh12345678' } } }),
      'ahp/event-secret',
      '/params/event/native/payload/auth',
    );
    invalid(
      obsOf('tool.before', { extensions: { 'com.example.x': { password: 'hunter2hunter2' } } }),
      'ahp/event-secret',
      '/params/event/extensions/com.example.x/password',
    );
    // content text, tool input and model params are not read
    valid(obsOf('model.request.before', { params: { api_key: 'sk-0123456789abcdefghijklmnop' } }));
    const deny = {
      jsonrpc: '2.0',
      id: 'r1',
      result: { protocolVersion: 'draft', effects: [{ type: 'deny', reason: 'Bearer abcdefgh12345678' }] },
    };
    invalid(deny, 'ahp/event-secret', '/result/effects/0/reason');
    // between percent-encoded separators, as in a URL-encoded redirect (the detector reads them decoded)
    for (const url of [
      'cb?redirect=%2Fhome%3Fid_token%3DeyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl',
      'cb?next=%2fhome%3fpassword%3dhunter2%26x%3d1',
      'h%3DBearer%20abcdefghijklmnop1234567890',
    ])
      invalid(
        obsOf('tool.before', { native: { provider: 'p', eventName: 'E', payload: { url } } }),
        'ahp/event-secret',
        '/params/event/native/payload/url',
      );
    valid(
      obsOf('tool.before', { native: { provider: 'p', eventName: 'E', payload: { url: 'q%3Dhello%20world%2Fhome' } } }),
    );
    invalid(
      obsOf('model.switch.before', { pricing: { currency: 'ABC' } }),
      'ahp/currency-unknown',
      '/params/event/pricing/currency',
    );
    valid(obsOf('model.switch.before', { pricing: { currency: 'JPY' } }));
  });
  test('a number under a credential name, and a member the detector reads as a credential key, carry their value', () => {
    const ext = (x: Record<string, unknown>) => obsOf('tool.before', { extensions: { 'com.example.x': x } });
    const at = (k: string) => `/params/event/extensions/com.example.x/${k}`;
    // numbers are values too: `"api_key": 12345678901234` reads as `api_key: 12345678901234` in a text
    invalid(ext({ api_key: 12345678901234 }), 'ahp/event-secret', at('api_key'));
    invalid(ext({ pin: 123456 }), 'ahp/event-secret', at('pin'));
    invalid(ext({ password: 12345678 }), 'ahp/event-secret', at('password'));
    // a name the text detector reads as a credential key (`aws_secret_access_key=...` in a text) is one in an event
    invalid(
      ext({ aws_secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' }),
      'ahp/event-secret',
      at('aws_secret_access_key'),
    );
    invalid(
      ext({ SecretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' }),
      'ahp/event-secret',
      at('SecretAccessKey'),
    );
    // usage figures, a version pin, a 40-hex SHA under an ordinary name, booleans and a marker are none
    valid(
      ext({
        tokens: 1234,
        token_count: 99999,
        max_tokens: 4096,
        pin: '3.12',
        pinned: 20240101,
        commit: '9fceb02d0ae598e95dc970b74767f19372d61af8',
        token: true,
        password: '[REDACTED]',
      }),
    );
  });
  test('a value found clean under one name is still judged under another, and a secret is reported each time', async () => {
    const ext = (x: Record<string, unknown>) =>
      JSON.stringify(obsOf('tool.before', { extensions: { 'com.example.x': x } }));
    const lines = [
      ext({ note: 'hunter2hunter2', tags: ['a1', 'Bearer abcdefgh12345678'] }),
      ext({ note: 'hunter2hunter2', password: 'hunter2hunter2', tags: ['a1', 'Bearer abcdefgh12345678'] }),
      ext({ password: 'hunter2hunter2', tags: ['Bearer abcdefgh12345678'] }),
    ];
    const found = await stdio(`${lines.join('\n')}\n`);
    assert.deepEqual(
      found.filter((f) => f.ruleId === 'ahp/event-secret').map((f) => `${f.line} ${f.pointer}`),
      [
        '1 /params/event/extensions/com.example.x/tags/1',
        '2 /params/event/extensions/com.example.x/password',
        '2 /params/event/extensions/com.example.x/tags/1',
        '3 /params/event/extensions/com.example.x/password',
        '3 /params/event/extensions/com.example.x/tags/0',
      ],
      show(found),
    );
  });
  test('a secret behind escaped slashes in the line is read as decoded (https:\\/\\/user:password@host)', async () => {
    const value = obsOf('tool.before', {
      native: { provider: 'p', eventName: 'E', payload: { url: 'https://user:hunter2sequel@db.example/x' } },
    });
    const line = JSON.stringify(value).replace('https://user', 'https:\\/\\/user');
    assert.ok(line.includes('\\/\\/user'));
    const found = await stdio(`${line}\n`);
    assert.deepEqual(
      found.filter((f) => f.ruleId === 'ahp/event-secret').map((f) => f.pointer),
      ['/params/event/native/payload/url'],
      show(found),
    );
  });
  test('a secret in the data of a JSON-RPC error response', () => {
    const err = (data: unknown) => ({
      jsonrpc: '2.0',
      id: 'e1',
      error: { code: -32003, message: 'backend_unavailable', data },
    });
    invalid(err({ auth: 'Authorization: Bearer Zq81pLm3Xv7TnRk2Wd9sYh' }), 'ahp/error-data-secret', '/error/data/auth');
    invalid(err({ db: { password: 'hunter2sequel' } }), 'ahp/error-data-secret', '/error/data/db/password');
    valid(err({ supported: ['draft'], retryAfterMs: 500, tokenCount: 3 }));
  });
  test('after events and file updates that change nothing', () => {
    const task = (t: unknown) => obsOf('task.change.after', { task: t });
    invalid(
      task({ id: 't', operation: 'update', change: { status: 'open' }, prior: { status: 'open' } }),
      'ahp/change-after-noop',
      '/params/event/task/change',
    );
    valid(task({ id: 't', operation: 'update', change: { status: 'done' }, prior: { status: 'open' } }));
    invalid(task({ id: 't', operation: 'update', change: {} }), 'ahp/overlay', '/params/event/task/change');
    invalid(
      obsOf('workspace.change.after', { workspace: { kind: 'cwd', change: { cwd: '/a' }, prior: { cwd: '/a' } } }),
      'ahp/change-after-noop',
      '/params/event/workspace/change',
    );
    const snap = (t: string, id: string) => ({ id, kind: 'text', mediaType: 'text/plain', selection: 'body', text: t });
    const file = (before: unknown, after: unknown) =>
      obsOf('file.changed', { changes: [{ path: '/a.txt', operation: 'update', agentCaused: true, before, after }] });
    // the same part before and after (members in any order) is what the maintainers' lineage check rejects
    invalid(file(snap('x', 'b'), snap('x', 'b')), 'ahp/file-change-noop', '/params/event/changes/0/after');
    const reordered = Object.fromEntries(Object.entries(snap('x', 'b')).reverse());
    invalid(file(snap('x', 'b'), reordered), 'ahp/file-change-noop', '/params/event/changes/0/after');
    const ref = (r: string, id: string) => ({
      id,
      kind: 'attachment',
      mediaType: 'image/png',
      selection: 'body',
      body: { ref: r },
    });
    invalid(file(ref('u1', 'b'), ref('u1', 'b')), 'ahp/file-change-noop', '/params/event/changes/0/after');
    // the same content in other parts (ids differ), or other content: the checker accepts them
    warned(file(snap('x', 'b'), snap('x', 'a')), 'ahp/file-change-noop', 0);
    warned(file(ref('u1', 'b'), ref('u1', 'a')), 'ahp/file-change-noop', 0);
    warned(file(snap('x', 'b'), snap('y', 'b')), 'ahp/file-change-noop', 0);
    const settings = (s: unknown[]) =>
      obsOf('config.change.after', { change: { source: 'user-settings', scope: 'user', settings: s, summary: 'x' } });
    warned(settings([]), 'ahp/config-after-unchanged', 1);
    warned(settings(['model']), 'ahp/config-after-unchanged', 0);
  });
});
