/**
 * `pin verify` (AHP-PIN-01), offline and read-only: pin.json policy, digests of present sources, the committed
 * extraction
 * against the vendored schema.json's (even when its digest is wrong, so errata drift is exactly one digest mismatch).
 */
import { join } from 'node:path';
import type { Finding } from '../core/finding.ts';
import { expectedExtraction, mismatchData, sameBytes } from './extraction.ts';
import { EXTRACTION_SOURCE, loadPin, PIN_FILE, readIfExists, sha256Hex } from './model.ts';
import { pinFinding } from './rules.ts';

/**
 * Options of verifyPin: `allowMissing` reports absent sources as warnings (a fresh checkout has none); `refreshCommand`
 * is suggested for a missing source (default `ahp pin refresh`).
 */
export interface VerifyOptions {
  dir: string;
  extraction: string;
  allowMissing?: boolean;
  refreshCommand?: string;
}

/** What `pin verify` checked of one pinned source. */
export interface SourceCheck {
  name: string;
  path: string;
  /** `verified`: its SHA-256 is the pinned one; `mismatch`: it differs; `absent`: not checked. */
  status: 'verified' | 'mismatch' | 'absent';
  pinned: string;
  /** The file's SHA-256 (hex) and size in bytes, when present. */
  actual?: string;
  bytes?: number;
}

/** What {@link verifyPinReport} returns: the findings and what was checked. */
export interface PinVerifyReport {
  findings: Finding[];
  version?: string;
  /** One entry per pinned source, in pin.json order (empty when pin.json is unusable). */
  sources: SourceCheck[];
  /** `skipped`: no schema.json; `not-run`: pin.json unusable; `failed`: schema.json cannot be extracted. */
  extraction: { path: string; status: 'verified' | 'mismatch' | 'failed' | 'missing' | 'skipped' | 'not-run' };
}

/** Verify a pin folder offline; the findings only (see {@link verifyPinReport}). */
export async function verifyPin(opts: VerifyOptions): Promise<Finding[]> {
  return (await verifyPinReport(opts)).findings;
}

/**
 * Verify a pin folder offline: findings (empty = verified; `pin/nothing-verified` when nothing was present) and what
 * was checked. @throws I/O errors other than a missing file.
 */
export async function verifyPinReport(opts: VerifyOptions): Promise<PinVerifyReport> {
  const { pin, findings } = await loadPin(opts.dir);
  const sources: SourceCheck[] = [];
  const done = (status: PinVerifyReport['extraction']['status']): PinVerifyReport => ({
    findings,
    ...(pin ? { version: pin.version } : {}),
    sources,
    extraction: { path: opts.extraction, status },
  });
  if (!pin) return done('not-run');

  let schemaJson: Buffer | undefined;
  for (const source of pin.sources) {
    const path = join(opts.dir, source.name);
    const bytes = await readIfExists(path);
    if (!bytes) {
      const args = { name: source.name, url: source.url };
      findings.push(
        opts.allowMissing
          ? pinFinding('pin/missing-source-allowed', path, 'allowed', args)
          : pinFinding('pin/missing-source', path, 'missing', {
              ...args,
              refresh: opts.refreshCommand ?? 'ahp pin refresh',
            }),
      );
      sources.push({ name: source.name, path, status: 'absent', pinned: source.sha256 });
      continue;
    }
    if (source.name === EXTRACTION_SOURCE) schemaJson = bytes;
    const actual = sha256Hex(bytes);
    sources.push({
      name: source.name,
      path,
      status: actual === source.sha256 ? 'verified' : 'mismatch',
      pinned: source.sha256,
      actual,
      bytes: bytes.length,
    });
    if (actual !== source.sha256) {
      findings.push(
        pinFinding('pin/digest-mismatch', path, 'mismatch', {
          name: source.name,
          expected: source.sha256,
          actual,
          bytes: bytes.length,
        }),
      );
    }
  }

  // a check of nothing must not pass; with another error already reported it cannot pass anyway
  if (
    opts.allowMissing &&
    sources.every((s) => s.status === 'absent') &&
    !findings.some((f) => f.severity === 'error')
  ) {
    findings.push(
      pinFinding('pin/nothing-verified', join(opts.dir, PIN_FILE), 'nothing', {
        count: sources.length,
        dir: opts.dir,
        sources: sources.map((s) => s.name).join(', '),
      }),
    );
  }
  const schemaPath = join(opts.dir, EXTRACTION_SOURCE);
  if (!schemaJson) {
    findings.push(pinFinding('pin/extraction-skipped', opts.extraction, 'skipped', { schema: schemaPath }));
    return done('skipped');
  }
  const committed = await readIfExists(opts.extraction);
  if (!committed) {
    findings.push(pinFinding('pin/missing-extraction', opts.extraction, 'missing'));
    return done('missing');
  }
  let expected: string;
  try {
    expected = expectedExtraction(schemaJson, committed).text;
  } catch (e) {
    findings.push(
      pinFinding('pin/extraction-failed', schemaPath, 'pinned', {
        source: EXTRACTION_SOURCE,
        reason: (e as Error).message,
      }),
    );
    return done('failed');
  }
  if (!sameBytes(expected, committed)) {
    const data = mismatchData(expected, committed);
    findings.push(
      pinFinding('pin/extraction-mismatch', opts.extraction, 'mismatch', { schema: schemaPath, ...data }, data.line),
    );
    return done('mismatch');
  }
  return done('verified');
}
