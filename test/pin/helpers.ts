/**
 * Test helpers for test/pin: the shared read-only material (read at test time only), temp
 * folders in both layouts, and a loopback HTTP server that closes itself.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { needShared, SHARED, sharedPath } from '../shared.ts';
import { tempDir as testTempDir } from '../temp.ts';

/** The repository root. */
export const REPO_DIR = fileURLToPath(new URL('../../', import.meta.url));

export const TAG_SHA = '1ffe4c5577974012f5fa02af14ea88df4b7146679df1abaaad497c8d9230ca8a';
export const HEAD_SHA = '268a5f82ba70fd7e4b6dc4aa1e64f116f74b4d0edcb69dc046829c79dd4e97e7';
export const AHP_EXTRACTION_SHA = '52473b9e5dda9c514081319c9543d03a6ac85997a8fa98355b00502819f99e69';

/** The shared files these tests read (test/shared.ts). */
const SHARED_FILES = {
  tag: SHARED.mcpTag,
  head: SHARED.mcpHead,
  ahpExtraction: SHARED.ahpExtraction,
  ahpPin: SHARED.ahpPin,
  ahpRequest: SHARED.ahpRequest,
  ahpResult: SHARED.ahpResult,
} as const;

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Read shared files, or skip the test (test/shared.ts) when one is absent: `undefined` then, and the caller returns. */
export async function readShared<K extends keyof typeof SHARED_FILES>(
  t: TestContext,
  ...keys: K[]
): Promise<Record<K, Buffer> | undefined> {
  if (!needShared(t, ...keys.map((k) => SHARED_FILES[k]))) return undefined;
  const out = {} as Record<K, Buffer>;
  for (const k of keys) out[k] = await readFile(sharedPath(SHARED_FILES[k]));
  return out;
}

/** A fresh temp folder removed after the test. */
export async function tempDir(t: TestContext): Promise<string> {
  return testTempDir(t, 'agent-conformance-pin-');
}

/** Write a file, creating its folder. */
export async function put(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, data);
}

/** Every file below `root` (relative path -> sha256), skipping `skip` folders by relative path. */
export async function snapshot(root: string, skip: string[] = []): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const rel = relative(root, p);
      if (skip.includes(rel)) continue;
      if (e.isDirectory()) await walk(p);
      else out[rel] = sha256(await readFile(p));
    }
  };
  await walk(root);
  return out;
}

export const PIN_BASE =
  'https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/2025-11-25/schema/2025-11-25/';

/** A pin.json text in our shape. */
export function pinText(
  digests: { 'schema.ts': string; 'schema.json': string },
  extra: Record<string, unknown> = {},
): string {
  const sources: Record<string, unknown> = {};
  for (const name of ['schema.ts', 'schema.json'] as const)
    sources[name] = { url: PIN_BASE + name, sha256: digests[name] };
  return JSON.stringify({ version: '2025-11-25', sources, ...extra }, null, 2) + '\n';
}

/** A route answer of the test server. */
export type Route =
  | { status?: number; headers?: Record<string, string>; body?: string | Uint8Array; chunked?: boolean }
  | { hang: true };

/**
 * Start a loopback HTTP server on 127.0.0.1 (port 0) that answers `routes[path]` (404
 * otherwise) and records every requested path. It closes itself (and every open connection)
 * after the test.
 */
export async function serve(
  t: TestContext,
  routes: Record<string, Route>,
): Promise<{ origin: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    requests.push(path);
    const route = routes[path];
    if (!route) {
      res.writeHead(404).end('not found');
      return;
    }
    if ('hang' in route) return; // never answers
    const body = route.body ?? '';
    const headers: Record<string, string | number> = { ...(route.headers ?? {}) };
    if (!route.chunked) headers['content-length'] = Buffer.byteLength(body);
    res.writeHead(route.status ?? 200, headers);
    if (route.chunked) {
      const buf = Buffer.from(body);
      for (let i = 0; i < buf.length; i += 16384) res.write(buf.subarray(i, i + 16384));
      res.end();
    } else {
      res.end(body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, requests };
}
