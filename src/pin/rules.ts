/**
 * The `pin/*` rule catalogue and the finding constructor used by `pin verify` and
 * `pin refresh`.
 *
 * Spec: AHP interaction-payloads §Pinned upstream maintenance; docs/pin-maintenance.md.
 */
import type { Finding, Severity } from '../core/finding.ts';

/** Citation for the pin maintenance rules taken from the AHP spec. */
const SPEC_PIN = 'AHP interaction-payloads §Pinned upstream maintenance';
/** Citation for the extraction rules (the pinned request/result definitions). */
const SPEC_EXTRACTION = 'AHP interaction-payloads §MCP elicitation binding (2025-11-25)';
/** Citation for the download safety policy, which is ours rather than the spec's. */
const SPEC_FETCH = 'agent-conformance docs/pin-maintenance.md §Refreshing';

/** One entry of the rules catalogue: id, default severity, one-sentence description, citation. */
export interface PinRule {
  id: PinRuleId;
  severity: Severity;
  description: string;
  spec: string;
}

/** Every rule id that `pin verify` / `pin refresh` can report. */
export type PinRuleId =
  | 'pin/invalid-pin'
  | 'pin/unsafe-source-name'
  | 'pin/unpinned-url'
  | 'pin/missing-source'
  | 'pin/missing-source-allowed'
  | 'pin/digest-mismatch'
  | 'pin/nothing-verified'
  | 'pin/missing-extraction'
  | 'pin/extraction-skipped'
  | 'pin/extraction-failed'
  | 'pin/extraction-mismatch'
  | 'pin/fetch-failed'
  | 'pin/redirect-refused'
  | 'pin/response-too-large'
  | 'pin/source-changed'
  | 'pin/extraction-changed'
  | 'pin/adopt-refused';

/** The rules catalogue for the pin commands, in reporting order. */
export const PIN_RULES: readonly PinRule[] = [
  {
    id: 'pin/invalid-pin',
    severity: 'error',
    description:
      'pin.json is missing, is not JSON, or lacks {version, sources: {name: {url, sha256}}} with a schema.json source.',
    spec: SPEC_PIN,
  },
  {
    id: 'pin/unsafe-source-name',
    severity: 'error',
    description:
      'A pinned source name is not a plain file name (empty, ".", "..", a path separator, a drive or a reserved name).',
    spec: SPEC_PIN,
  },
  {
    id: 'pin/unpinned-url',
    severity: 'error',
    description:
      'A pinned URL is not an https URL naming the pinned version tag and ending in the source name, or it names a branch or "latest".',
    spec: SPEC_PIN,
  },
  {
    id: 'pin/missing-source',
    severity: 'error',
    description: 'A pinned source file is absent from the pin folder.',
    spec: SPEC_PIN,
  },
  {
    id: 'pin/missing-source-allowed',
    severity: 'warning',
    description:
      'A pinned source file is absent from the pin folder and --allow-missing (or an installed package, which ships no upstream bytes) allows it.',
    spec: SPEC_PIN,
  },
  {
    id: 'pin/digest-mismatch',
    severity: 'error',
    description: 'The SHA-256 of a vendored source differs from the digest recorded in pin.json.',
    spec: SPEC_PIN,
  },
  {
    id: 'pin/nothing-verified',
    severity: 'error',
    description:
      'No pinned source is present in the pin folder, so no digest was checked (absent sources allowed by --allow-missing or an installed package).',
    spec: SPEC_PIN,
  },
  {
    id: 'pin/missing-extraction',
    severity: 'error',
    description: 'The committed elicitation extraction file does not exist.',
    spec: SPEC_EXTRACTION,
  },
  {
    id: 'pin/extraction-skipped',
    severity: 'info',
    description: 'The extraction check did not run because the pinned schema.json is absent.',
    spec: SPEC_PIN,
  },
  {
    id: 'pin/extraction-failed',
    severity: 'error',
    description:
      'The pinned schema.json cannot be extracted (not JSON, or a definition or restoration target is missing).',
    spec: SPEC_EXTRACTION,
  },
  {
    id: 'pin/extraction-mismatch',
    severity: 'error',
    description:
      'The committed extraction differs from the extraction of the pinned schema.json (compared byte for byte below its own header).',
    spec: SPEC_EXTRACTION,
  },
  {
    id: 'pin/fetch-failed',
    severity: 'error',
    description: 'Downloading a pinned source failed (network error, timeout or non-200 status).',
    spec: SPEC_FETCH,
  },
  {
    id: 'pin/redirect-refused',
    severity: 'error',
    description: 'A download redirected to another scheme, host or port, or redirected too often.',
    spec: SPEC_FETCH,
  },
  {
    id: 'pin/response-too-large',
    severity: 'error',
    description: 'A download exceeded the size cap.',
    spec: SPEC_FETCH,
  },
  {
    id: 'pin/source-changed',
    severity: 'error',
    description:
      'The downloaded bytes of a pinned source differ from the digest in pin.json (upstream moved or the download was altered).',
    spec: SPEC_PIN,
  },
  {
    id: 'pin/extraction-changed',
    severity: 'error',
    description: 'The extraction of the downloaded schema.json differs from the committed extraction.',
    spec: SPEC_EXTRACTION,
  },
  {
    id: 'pin/adopt-refused',
    severity: 'error',
    description:
      'Adoption was requested but the refresh was incomplete or its download could not be extracted, so nothing was adopted.',
    spec: SPEC_PIN,
  },
];

const RULES_BY_ID = new Map(PIN_RULES.map((r) => [r.id, r]));

/**
 * Build a finding for a pin rule: rule id, severity and citation come from
 * {@link PIN_RULES}, so a caller cannot mislabel what it reports.
 * @param source the file path the finding is about (pin.json, a vendored source, the extraction).
 * @param extra 1-based `line` in `source`, `data`.
 */
export function pinFinding(
  id: PinRuleId,
  source: string,
  message: string,
  extra: { line?: number; data?: Record<string, unknown> } = {},
): Finding {
  const rule = RULES_BY_ID.get(id);
  if (!rule) throw new Error(`unknown pin rule ${id}`);
  const f: Finding = { ruleId: id, severity: rule.severity, message, spec: rule.spec, source };
  if (extra.line !== undefined && extra.line > 0) f.line = extra.line;
  if (extra.data) f.data = extra.data;
  return f;
}
