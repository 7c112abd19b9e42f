/**
 * The pin API of `ahp pin verify|refresh` (AHP interaction-payloads §Pinned upstream maintenance;
 * docs/pin-maintenance.md); for an AHP checkout pass `extraction` `schema/draft/mcp-elicitation.schema.json`.
 */
import type { Finding } from '../core/finding.ts';
import { refreshPin, type RefreshOptions, type RefreshResult } from './refresh.ts';
import { verifyPin, verifyPinReport, type PinVerifyReport, type VerifyOptions } from './verify.ts';

export { extractElicitation, ExtractionError, ELICITATION_HEADER, headerOf } from './extract.ts';
export { PIN_RULES, type PinRule, type PinRuleId } from './rules.ts';
export { PinUsageError, type RefreshOptions, type RefreshResult } from './refresh.ts';
export { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS } from './download.ts';
export type { PinVerifyReport, SourceCheck, VerifyOptions } from './verify.ts';
export { unifiedDiff } from './diff.ts';

/** Our pin folder, relative to the package root. */
export const DEFAULT_PIN_DIR = 'upstream/mcp/2025-11-25';
/** Our committed extraction, relative to the package root. */
export const DEFAULT_EXTRACTION = 'schemas/mcp/mcp-elicitation.schema.json';

/** Offline verification of a pin folder: findings, empty when verified. @throws I/O errors other than missing files. */
export async function pinVerify(opts: VerifyOptions): Promise<Finding[]> {
  return verifyPin(opts);
}

/** {@link pinVerify} with what was checked: each source's digest and the extraction. */
export async function pinVerifyReport(opts: VerifyOptions): Promise<PinVerifyReport> {
  return verifyPinReport(opts);
}

/** Networked refresh into `<dir>/.staging/`, adopting only with `adopt`. @throws PinUsageError; I/O errors. */
export async function pinRefresh(opts: RefreshOptions): Promise<RefreshResult> {
  return refreshPin(opts);
}
