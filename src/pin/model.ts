/**
 * The `pin.json` model (`{version, sources: {<name>: {url, sha256}}}`, URLs naming the version tag): zod parse, name
 * and URL policy, SHA-256, file helpers. Unknown members survive `--adopt` (docs/pin-maintenance.md).
 */
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Finding } from '../core/finding.ts';
import { pinFinding } from './rules.ts';

/** The name of the pin file inside a pin folder. */
export const PIN_FILE = 'pin.json';
/** The staging folder inside a pin folder (git-ignored) used by `pin refresh`. */
export const STAGING_DIR = '.staging';
/** The source whose bytes feed the elicitation extraction. */
export const EXTRACTION_SOURCE = 'schema.json';

/** Names that may not be used for a source because the pin folder uses them itself. */
const RESERVED_NAMES = new Set([PIN_FILE, STAGING_DIR, 'README.md']);

const FLOATING_SEGMENTS = new Set(['main', 'master', 'head', 'latest', 'refs', 'heads', 'trunk', 'develop']);

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits');

const PinSourceSchema = z.object({ url: z.string().min(1), sha256: Sha256 }).passthrough();

/** zod schema of the pin file (sources are checked entry by entry, see {@link parsePin}). */
const PinFileSchema = z
  .object({
    version: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected a plain version tag such as 2025-11-25'),
    sources: z.record(z.unknown()),
  })
  .passthrough();

/** One pinned source: file name in the pin folder, version-tagged URL, lowercase hex SHA-256. */
export interface PinSource {
  name: string;
  url: string;
  sha256: string;
}

/** A parsed pin: `version` (the tag) and the sources in file order. `raw` is the parsed JSON. */
export interface Pin {
  version: string;
  sources: PinSource[];
  raw: Record<string, unknown>;
}

let cryptoModule: typeof import('node:crypto') | undefined;

/** node:crypto, loaded on first use: `ahp --help` lists the pin verbs and hashes nothing. */
export function nodeCrypto(): typeof import('node:crypto') {
  return (cryptoModule ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'));
}

/** SHA-256 of bytes as 64 lowercase hex digits (node:crypto). */
export function sha256Hex(data: Uint8Array | string): string {
  return nodeCrypto().createHash('sha256').update(data).digest('hex');
}

/** A plain file name: no separators or controls, ≤ 255 characters, not `.`, `..` or the folder's own files. */
function isPlainFileName(name: string): boolean {
  if (name === '' || name === '.' || name === '..' || name.length > 255) return false;
  if (/[/\\:\u0000-\u001f\u007f]/.test(name)) return false;
  return !RESERVED_NAMES.has(name);
}

function decodeSegments(pathname: string): string[] | undefined {
  try {
    return pathname
      .split('/')
      .slice(1)
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

/** Why a pinned URL breaks the policy (https, no credentials, query or fragment, tag then source path), if it does. */
function urlProblem(url: string, name: string, version: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol !== 'https:') return `uses ${u.protocol} instead of https:`;
  if (u.username || u.password) return 'carries credentials';
  if (u.search || u.hash) return 'has a query or fragment';
  const segs = decodeSegments(u.pathname);
  if (!segs || segs.some((s) => /[/\\]/.test(s))) return 'has an undecodable or encoded path separator';
  if (segs[segs.length - 1] !== name) return `does not end in /${name}`;
  const tag = segs.indexOf(version);
  if (tag < 0 || tag >= segs.length - 1) return `does not name the version tag ${version} as a path segment`;
  const floating = segs.find((s) => FLOATING_SEGMENTS.has(s.toLowerCase()));
  if (floating !== undefined) return `names the floating ref "${floating}"`;
  return undefined;
}

/** `pinnedUrl` with its prefix up to the version-tag segment replaced by `baseUrl`. @throws Error without it. */
export function mirrorUrl(pinnedUrl: string, version: string, baseUrl: string): string {
  const u = new URL(pinnedUrl);
  const raw = u.pathname.split('/').slice(1);
  const tag = raw.findIndex((s) => decodeURIComponent(s) === version);
  if (tag < 0) throw new Error(`URL does not contain the tag segment ${version}`);
  const base = baseUrl.endsWith('/') ? baseUrl : baseUrl + '/';
  return new URL(raw.slice(tag + 1).join('/'), base).href;
}

/** True for a loopback host name as the WHATWG URL parser spells it. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Why a `--base-url` is refused (https, or http on loopback only; no credentials, query or fragment), or `undefined`.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol === 'http:') {
    if (!isLoopbackHost(u.hostname))
      return 'uses http: on a host that is not loopback (http is allowed only for 127.0.0.0/8, [::1] and localhost)';
  } else if (u.protocol !== 'https:') {
    return `uses ${u.protocol}; only https: (or http: on loopback) is allowed`;
  }
  if (u.username || u.password) return 'carries credentials';
  if (u.search || u.hash) return 'has a query or fragment';
  return undefined;
}

/** A file's bytes, or `undefined` when it does not exist. @throws other I/O errors. */
export async function readIfExists(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/** Bytes as UTF-8 text, a leading BOM dropped. @throws TypeError on invalid UTF-8. */
export function decodeUtf8(data: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(data);
}

/** Result of {@link loadPin}: the pin when usable, and the findings about pin.json itself. */
export interface LoadedPin {
  pin?: Pin;
  findings: Finding[];
  pinPath: string;
}

/** Parse pin.json, each source on its own (`pin/invalid-pin`, `pin/unsafe-source-name`, `pin/unpinned-url`). */
function parsePin(text: string, pinPath: string): LoadedPin {
  const findings: Finding[] = [];
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    findings.push(pinFinding('pin/invalid-pin', pinPath, 'notJson', { reason: (e as Error).message }));
    return { findings, pinPath };
  }
  const top = PinFileSchema.safeParse(json);
  if (!top.success) {
    findings.push(pinFinding('pin/invalid-pin', pinPath, 'shape', { problems: zodSummary(top.error) }));
    return { findings, pinPath };
  }
  const raw = json as Record<string, unknown>;
  const version = top.data.version;
  const rawSources = raw.sources as Record<string, unknown>;
  const sources: PinSource[] = [];
  let shapeOk = true;
  for (const name of Object.keys(rawSources)) {
    const entry = PinSourceSchema.safeParse(rawSources[name]);
    if (!entry.success) {
      shapeOk = false;
      findings.push(pinFinding('pin/invalid-pin', pinPath, 'source', { name, problems: zodSummary(entry.error) }));
      continue;
    }
    if (!isPlainFileName(name)) {
      findings.push(pinFinding('pin/unsafe-source-name', pinPath, 'unsafe', { name }));
      continue;
    }
    const problem = urlProblem(entry.data.url, name, version);
    if (problem) {
      findings.push(pinFinding('pin/unpinned-url', pinPath, 'unpinned', { name, url: entry.data.url, problem }));
    }
    sources.push({ name, url: entry.data.url, sha256: entry.data.sha256 });
  }
  if (!Object.hasOwn(rawSources, EXTRACTION_SOURCE)) {
    findings.push(pinFinding('pin/invalid-pin', pinPath, 'noExtractionSource', { source: EXTRACTION_SOURCE }));
    return { findings, pinPath };
  }
  if (!shapeOk) return { findings, pinPath };
  return { pin: { version, sources, raw }, findings, pinPath };
}

/** Read and parse `<dir>/pin.json`; missing is `pin/invalid-pin`. @throws other I/O errors. */
export async function loadPin(dir: string): Promise<LoadedPin> {
  const pinPath = join(dir, PIN_FILE);
  const bytes = await readIfExists(pinPath);
  if (!bytes) return { findings: [pinFinding('pin/invalid-pin', pinPath, 'missing')], pinPath };
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch {
    return { findings: [pinFinding('pin/invalid-pin', pinPath, 'notUtf8')], pinPath };
  }
  return parsePin(text, pinPath);
}

function zodSummary(err: z.ZodError): string {
  return err.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}
