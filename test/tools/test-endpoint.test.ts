/**
 * tools/test-endpoint.ts (README §Check a running endpoint): started with `npx tsx`, it prints a 127.0.0.1 URL that
 * answers discovery, and the token its event surfaces require; SIGINT (Ctrl-C) closes it: the process ends with 0 and the port no longer answers.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { REPO } from '../cli/helpers.ts';

test('tools/test-endpoint.ts: prints its 127.0.0.1 URL, serves discovery, stops on SIGINT', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/test-endpoint.ts'], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (b: Buffer) => void (err += b));
  const exited = once(child, 'exit');
  // the first line is the URL; an exit before it fails the test
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => {
      out += b;
      // the URL, then the hint naming the token, in one write
      if (out.includes('Ctrl-C stops it\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before printing a URL: ${err}`)));
  });
  try {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const discovery = await fetch(`${url}/events`);
    assert.equal(discovery.status, 200);
    assert.deepEqual(((await discovery.json()) as { aep?: unknown }).aep, ['0.1']);
    // the event surfaces take the token the hint prints, and refuse a POST without it (AEP-0003 §8.1)
    const token = /--token (\S+)/.exec(out)?.[1];
    assert.ok(token, out);
    const post = (headers: Record<string, string>) =>
      fetch(`${url}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'aep-version': '0.1', ...headers },
        body: '{}',
      });
    assert.equal((await post({})).status, 401);
    assert.equal((await post({ authorization: `Bearer ${token}` })).status, 400);
  } finally {
    child.kill('SIGINT');
  }
  const [code] = await exited;
  assert.equal(code, 0, err);
  assert.match(out, /test endpoint stopped\n$/);
  await assert.rejects(fetch(`${url}/events`), 'the port is closed');
});

test('tools/test-endpoint.ts --broken NAME: an unknown variant is a usage error naming the near one and every variant', async () => {
  for (const [name, near] of [
    ['xyz', undefined],
    ['sse-no-idd', 'sse-no-id'],
  ] as const) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tools/test-endpoint.ts', '--broken', name], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => void (out += b));
    child.stderr.on('data', (b: Buffer) => void (err += b));
    const [code] = await once(child, 'exit');
    assert.equal(code, 2, out);
    assert.equal(out, '', 'no endpoint is started');
    assert.match(err, new RegExp(`unknown broken variant "${name}"`));
    assert.match(err, /variants: .*\bno-discovery\b.*\bsse-no-id\b/);
    if (near) assert.match(err, new RegExp(`did you mean ${near}\\?`));
    else assert.doesNotMatch(err, /did you mean/);
  }
});
