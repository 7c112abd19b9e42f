/**
 * The pin API wired into the CLI:
 * `ahp pin verify [--dir D] [--extraction F] [--allow-missing]` -> {@link pinVerify};
 * `ahp pin refresh [--dir D] [--extraction F] [--base-url U] [--adopt]` -> {@link pinRefresh}.
 *
 * Defaults for our package layout: {@link DEFAULT_PIN_DIR} and {@link DEFAULT_EXTRACTION}
 * (paths relative to the package root). For an AHP checkout pass `dir`
 * `upstream/mcp/2025-11-25` and `extraction` `schema/draft/mcp-elicitation.schema.json`.
 *
 * Spec: AHP interaction-payloads §Pinned upstream maintenance; docs/pin-maintenance.md.
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

/**
 * Offline verification of a pin folder: digests of the sources present and the committed
 * extraction against the extraction of the pinned schema.json. Returns findings (empty when
 * verified); the caller exits 1 on any error-severity finding.
 * @throws I/O errors other than missing files.
 */
export async function pinVerify(opts: VerifyOptions): Promise<Finding[]> {
  return verifyPin(opts);
}

/** {@link pinVerify} with what was checked: each source's digest and the extraction. */
export async function pinVerifyReport(opts: VerifyOptions): Promise<PinVerifyReport> {
  return verifyPinReport(opts);
}

/**
 * Networked refresh into `<dir>/.staging/`, with adoption only when `adopt` is true. The caller
 * prints `report` and exits non-zero when `changed` or on any error finding.
 * @throws PinUsageError for invalid options (exit 2); I/O errors while staging or adopting.
 */
export async function pinRefresh(opts: RefreshOptions): Promise<RefreshResult> {
  return refreshPin(opts);
}
