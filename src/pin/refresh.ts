/**
 * `pin refresh`, the only networked code: downloads the pinned URLs (or a mirror's) into `<dir>/.staging/`, compares
 * digests and the re-extraction; writes outside staging only with `adopt` (temporaries renamed into place, pin.json
 * last). AHP interaction-payloads §Pinned upstream maintenance (review before adopting).
 */
import { constants } from 'node:fs';
import { copyFile, mkdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';
import { ConformanceError } from '../core/errors.ts';
import type { Finding } from '../core/finding.ts';
import { unifiedDiff } from './diff.ts';
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, download } from './download.ts';
import { expectedExtraction, sameBytes } from './extraction.ts';
import {
  EXTRACTION_SOURCE,
  PIN_FILE,
  STAGING_DIR,
  baseUrlProblem,
  decodeUtf8,
  loadPin,
  mirrorUrl,
  nodeCrypto,
  readIfExists,
  sha256Hex,
  type Pin,
} from './model.ts';
import { pinFinding } from './rules.ts';

/** Invalid options (a `baseUrl` neither https nor loopback http, a non-positive `timeoutMs` / `maxBytes`): exit 2. */
export class PinUsageError extends ConformanceError {
  override name = 'PinUsageError';
  constructor(message: string) {
    super('usage', message);
  }
}

/**
 * Options of refreshPin: `baseUrl` replaces each URL's prefix up to the version-tag segment; `timeoutMs` (default 30
 * 000) and `maxBytes` (default 8 MiB) apply per source; `log` receives one line per download.
 */
export interface RefreshOptions {
  dir: string;
  extraction: string;
  baseUrl?: string;
  adopt?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  log?: (line: string) => void;
}

/**
 * `changed`: a source or the extraction differs from the pin (true also after adopting); `report` ends with a newline.
 */
export interface RefreshResult {
  changed: boolean;
  findings: Finding[];
  report: string;
}

function checkOptions(opts: RefreshOptions): { timeoutMs: number; maxBytes: number } {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new PinUsageError(`timeoutMs must be a positive number of milliseconds`);
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new PinUsageError(`maxBytes must be a positive integer`);
  if (opts.baseUrl !== undefined) {
    const problem = baseUrlProblem(opts.baseUrl);
    if (problem) throw new PinUsageError(`--base-url ${problem}`);
  }
  return { timeoutMs, maxBytes };
}

/** Write `data` to `<target>.tmp-…` in the same folder; returns the temporary path. */
async function writeTemp(target: string, data: string | Uint8Array): Promise<string> {
  await mkdir(dirname(target), { recursive: true });
  const tmp = join(
    dirname(target),
    `.${basename(target)}.tmp-${process.pid}-${nodeCrypto().randomBytes(4).toString('hex')}`,
  );
  await writeFile(tmp, data, { flag: 'wx' });
  return tmp;
}

/**
 * Write every temporary, then rename each into place in order; a failure removes the temporaries not renamed, and a
 * failed rename's error carries `replaced`, the targets renamed before it.
 */
async function replaceFiles(files: Array<{ target: string; data: string | Uint8Array }>): Promise<void> {
  const temps: Array<{ tmp: string; target: string }> = [];
  try {
    for (const f of files) temps.push({ tmp: await writeTemp(f.target, f.data), target: f.target });
  } catch (e) {
    await Promise.all(temps.map((t) => unlink(t.tmp).catch(() => undefined)));
    throw e;
  }
  const replaced: string[] = [];
  try {
    for (const t of temps) {
      await rename(t.tmp, t.target);
      replaced.push(t.target);
    }
  } catch (e) {
    // a rename that fails once every temporary is written (rare: same folder): the rest are not half-done either
    await Promise.all(temps.slice(replaced.length).map((t) => unlink(t.tmp).catch(() => undefined)));
    throw Object.assign(e as Error, { replaced });
  }
}

/** `a/<path>` / `b/<path>` for a relative path (as git prints), the path itself when absolute. */
function diffLabel(side: 'a' | 'b', path: string): string {
  return isAbsolute(path) ? path : `${side}/${path.split(sep).join('/')}`;
}

/** pin.json text with the new digests, preserving every other member and the key order. */
function rewrittenPin(pin: Pin, digests: Map<string, string>): string {
  const raw = structuredClone(pin.raw) as { sources: Record<string, Record<string, unknown>> };
  for (const [name, sha] of digests) raw.sources[name].sha256 = sha;
  return JSON.stringify(raw, null, 2) + '\n';
}

/** Refresh a pin folder and report what changed. @throws PinUsageError for invalid options; I/O errors. */
export async function refreshPin(opts: RefreshOptions): Promise<RefreshResult> {
  const limits = checkOptions(opts);
  const log = opts.log ?? (() => undefined);
  const lines: string[] = [];
  const { pin, findings } = await loadPin(opts.dir);
  lines.push(`MCP pin refresh: ${opts.dir}${pin ? ` (version ${pin.version})` : ''}`);
  if (!pin || findings.length > 0) {
    // the findings report after this prose says why, once
    lines.push(
      `pin.json is not usable (${findings.map((f) => f.ruleId).join(', ') || 'pin/invalid-pin'}, below); nothing was downloaded.`,
    );
    return { changed: false, findings, report: lines.join('\n') + '\n' };
  }

  const staging = join(opts.dir, STAGING_DIR);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });

  const allowLoopbackHttp = opts.baseUrl !== undefined && new URL(opts.baseUrl).protocol === 'http:';
  const downloaded = new Map<string, Buffer>();
  const newDigests = new Map<string, string>();
  let incomplete = false;
  for (const source of pin.sources) {
    const url = opts.baseUrl ? mirrorUrl(source.url, pin.version, opts.baseUrl) : source.url;
    const path = join(opts.dir, source.name);
    log(`GET ${url}`);
    const got = await download(url, path, { ...limits, allowLoopbackHttp, mirror: opts.baseUrl !== undefined });
    if (!got.ok) {
      incomplete = true;
      findings.push(got.finding);
      lines.push(`${source.name}: download failed (${got.finding.ruleId}, below)`);
      continue;
    }
    downloaded.set(source.name, got.bytes);
    await writeFile(join(staging, source.name), got.bytes);
    const fetched = sha256Hex(got.bytes);
    const local = await readIfExists(path);
    const localState = !local
      ? 'absent'
      : sha256Hex(local) === source.sha256
        ? 'matches the pin'
        : `differs (sha256 ${sha256Hex(local)})`;
    if (fetched === source.sha256) {
      lines.push(`${source.name}: unchanged (sha256 ${fetched}, ${got.bytes.length} bytes); local copy ${localState}`);
    } else {
      newDigests.set(source.name, fetched);
      findings.push(
        pinFinding('pin/source-changed', path, 'changed', {
          name: source.name,
          url,
          pinned: source.sha256,
          fetched,
          bytes: got.bytes.length,
        }),
      );
      lines.push(
        `${source.name}: CHANGED`,
        `  pinned  sha256 ${source.sha256}`,
        `  fetched sha256 ${fetched} (${got.bytes.length} bytes, staged as ${join(staging, source.name)})`,
        `  local copy ${localState}`,
      );
    }
  }

  // The extraction of the downloaded schema.json, under the committed file's header.
  const committed = await readIfExists(opts.extraction);
  let newExtraction: string | undefined;
  let extractionChanged = false;
  let extractionFailed = false;
  const schemaJson = downloaded.get(EXTRACTION_SOURCE);
  if (schemaJson) {
    try {
      newExtraction = expectedExtraction(schemaJson, committed).text;
    } catch (e) {
      extractionFailed = true;
      findings.push(
        pinFinding('pin/extraction-failed', join(staging, EXTRACTION_SOURCE), 'downloaded', {
          source: EXTRACTION_SOURCE,
          reason: (e as Error).message,
        }),
      );
      lines.push('extraction: FAILED (pin/extraction-failed, below)');
    }
  } else {
    lines.push(`extraction: not checked (${EXTRACTION_SOURCE} was not downloaded)`);
  }
  if (newExtraction !== undefined) {
    const stagedExtraction = join(staging, 'extraction', basename(opts.extraction));
    await mkdir(dirname(stagedExtraction), { recursive: true });
    await writeFile(stagedExtraction, newExtraction);
    if (committed && sameBytes(newExtraction, committed)) {
      lines.push(`extraction ${opts.extraction}: unchanged`);
    } else {
      extractionChanged = true;
      let oldText = '';
      if (committed) {
        try {
          oldText = decodeUtf8(committed);
        } catch {
          oldText = '(not valid UTF-8)\n';
        }
      }
      const diff = unifiedDiff(oldText, newExtraction, {
        oldLabel: committed ? diffLabel('a', opts.extraction) : '/dev/null',
        newLabel: diffLabel('b', opts.extraction),
      });
      findings.push(
        pinFinding('pin/extraction-changed', opts.extraction, committed ? 'changed' : 'created', {
          source: EXTRACTION_SOURCE,
          staged: stagedExtraction,
        }),
      );
      lines.push(`extraction ${opts.extraction}: CHANGED (staged as ${stagedExtraction})`, diff.trimEnd());
    }
  }

  const changed = newDigests.size > 0 || extractionChanged;
  // nothing downloaded: an empty staging folder would only mislead the next reader
  if (downloaded.size === 0) {
    await rm(staging, { recursive: true, force: true });
    lines.push(`Nothing was downloaded; no staging folder left.`);
  }
  if (!opts.adopt) {
    if (incomplete) lines.push('Result: refresh incomplete; nothing adopted.');
    else if (changed)
      lines.push(`Result: CHANGED. Staged in ${staging}; nothing adopted. Review, then re-run with --adopt.`);
    else lines.push('Result: no change.');
    return { changed, findings, report: lines.join('\n') + '\n' };
  }

  if (incomplete || extractionFailed) {
    findings.push(pinFinding('pin/adopt-refused', join(opts.dir, PIN_FILE), 'refused'));
    lines.push(
      `Result: adoption refused; nothing outside the staging folder was written${downloaded.size > 0 ? `; what was downloaded is left in ${staging}` : ''}.`,
    );
    return { changed, findings, report: lines.join('\n') + '\n' };
  }

  const writes: Array<{ target: string; data: string | Uint8Array }> = [];
  const kept: string[] = [];
  const asides: string[] = [];
  for (const source of pin.sources) {
    const bytes = downloaded.get(source.name) as Buffer;
    const target = join(opts.dir, source.name);
    const local = await readIfExists(target);
    if (local?.equals(bytes)) continue;
    writes.push({ target, data: bytes });
    // a local copy that is neither the pinned nor the downloaded bytes was put there by someone: kept, never lost
    const localSha = local && sha256Hex(local);
    if (localSha && localSha !== source.sha256) {
      const aside = `${target}.local-${localSha.slice(0, 12)}`;
      await copyFile(target, aside, constants.COPYFILE_EXCL).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw e;
      });
      asides.push(aside);
      kept.push(
        `${source.name}: the local copy (sha256 ${localSha}, neither pinned nor downloaded) is kept as ${aside}`,
      );
    }
  }
  if (newExtraction !== undefined && extractionChanged) writes.push({ target: opts.extraction, data: newExtraction });
  if (newDigests.size > 0) writes.push({ target: join(opts.dir, PIN_FILE), data: rewrittenPin(pin, newDigests) });
  try {
    await replaceFiles(writes);
  } catch (e) {
    // every temporary is written before the first rename, and removed when one cannot be: the user's files are as
    // they were (unless a rename itself failed, said); the staged downloads (and any local copy kept aside) stay for a retry, and the message names them
    const left = [staging, ...asides];
    const replaced = (e as { replaced?: string[] }).replaced ?? [];
    (e as Error).message += replaced.length
      ? `; adoption incomplete: only ${replaced.join(', ')} replaced; left in ${left.join(', ')}`
      : `; nothing adopted, no file outside the staging folder replaced; left in ${left.join(', ')}`;
    throw e;
  }
  // adopted: the staged copies are now the files in place, and a leftover staging folder would only mislead
  await rm(staging, { recursive: true, force: true });
  lines.push(...kept);
  lines.push(
    writes.length === 0
      ? `Result: ${changed ? 'CHANGED' : 'no change'}; nothing needed writing.`
      : `Result: ${changed ? 'CHANGED and adopted' : 'no change; vendored copies installed'}: wrote ${writes.map((w) => w.target).join(', ')}.`,
    `The staging folder ${staging} is removed.`,
  );
  return { changed, findings, report: lines.join('\n') + '\n' };
}
