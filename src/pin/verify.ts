/**
 * `pin verify`: the offline check of a pin folder (AHP-PIN-01).
 *
 * 1. `<dir>/pin.json` parses and follows the pin policy (see `model.ts`).
 * 2. Every pinned source present in `<dir>` has the pinned SHA-256; a missing source is
 *    `pin/missing-source` (error), or `pin/missing-source-allowed` (warning) with `allowMissing`.
 * 3. The committed extraction equals the extraction of `<dir>/schema.json`, compared byte for
 *    byte under the committed file's own header (see `extraction.ts`). This check runs on the
 *    vendored bytes even when their digest is wrong, so digest drift with an unchanged
 *    extraction (the 2025-11-25 HEAD errata) is reported as exactly one digest mismatch.
 *
 * Works on our layout (`upstream/mcp/2025-11-25` + `schemas/mcp/mcp-elicitation.schema.json`)
 * and on an AHP checkout (`upstream/mcp/2025-11-25` + `schema/draft/mcp-elicitation.schema.json`).
 * Never touches the network and never writes.
 *
 * Spec: AHP interaction-payloads §Pinned upstream maintenance.
 */
import { join } from 'node:path';
import type { Finding } from '../core/finding.ts';
import { expectedExtraction, mismatchData, sameBytes } from './extraction.ts';
import { EXTRACTION_SOURCE, loadPin, PIN_FILE, readIfExists, sha256Hex } from './model.ts';
import { pinFinding } from './rules.ts';

/**
 * Options of {@link verifyPin}.
 * - `dir`: the pin folder holding `pin.json` and the vendored sources.
 * - `extraction`: the committed extraction file.
 * - `allowMissing`: report absent sources as warnings (the upstream bytes are not committed,
 *   so a fresh checkout has none); the digest and extraction checks still run on what exists.
 * - `refreshCommand`: the `pin refresh` command line that works for this folder where verify
 *   runs, suggested when a source is missing (default `ahp pin refresh`).
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
  /** The vendored file. */
  path: string;
  /** `verified`: its SHA-256 is the pinned one; `mismatch`: it differs; `absent`: not checked. */
  status: 'verified' | 'mismatch' | 'absent';
  /** The pinned SHA-256 (hex). */
  pinned: string;
  /** The file's SHA-256 (hex) and size in bytes, when present. */
  actual?: string;
  bytes?: number;
}

/** What {@link verifyPinReport} returns: the findings and what was checked. */
export interface PinVerifyReport {
  findings: Finding[];
  /** The pinned version (`pin.json` `version`), when pin.json is usable. */
  version?: string;
  /** One entry per pinned source, in pin.json order (empty when pin.json is unusable). */
  sources: SourceCheck[];
  /**
   * The extraction check: `verified` (the committed file equals the extraction of the pinned
   * schema.json), `mismatch`, `failed` (schema.json cannot be extracted), `missing` (no
   * committed file), `skipped` (schema.json absent), or `not-run` (pin.json unusable).
   */
  extraction: { path: string; status: 'verified' | 'mismatch' | 'failed' | 'missing' | 'skipped' | 'not-run' };
}

/** Verify a pin folder offline; the findings only (see {@link verifyPinReport}). */
export async function verifyPin(opts: VerifyOptions): Promise<Finding[]> {
  return (await verifyPinReport(opts)).findings;
}

/**
 * Verify a pin folder offline and report the findings (empty = verified) and what was checked. Rule ids:
 * `pin/invalid-pin`, `pin/unsafe-source-name`, `pin/unpinned-url`, `pin/missing-source`, `pin/missing-source-allowed`,
 * `pin/digest-mismatch`, `pin/extraction-skipped`, `pin/extraction-failed`,
 * `pin/missing-extraction`, `pin/extraction-mismatch`, and `pin/nothing-verified` when absent
 * sources are allowed and none is present (a check of nothing never passes). The caller exits
 * 1 on any error.
 * @throws I/O errors other than a missing file (the CLI maps them to exit 2).
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
