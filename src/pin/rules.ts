/** The `pin/*` rules and their finding constructor (AHP interaction-payloads §Pinned upstream maintenance). */
import type { Finding, Severity } from '../core/finding.ts';
import type { MessageArgs, MessageTemplates } from '../core/message.ts';
import { findingAt } from '../core/rule.ts';

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
  /** What the one-sentence description leaves out. */
  detail?: string;
  spec: string;
  /** A short literal quote of the cited sentence. */
  quote?: string;
  messages: MessageTemplates;
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
    messages: {
      missing: 'pin.json does not exist.',
      notUtf8: 'pin.json is not valid UTF-8.',
      notJson: 'pin.json is not valid JSON ({reason}).',
      shape: 'pin.json does not have the pin shape: {problems}.',
      source: 'pin.json source {name:json} is invalid: {problems}.',
      noExtractionSource: 'pin.json has no "{source}" source to extract from.',
    },
  },
  {
    id: 'pin/unsafe-source-name',
    severity: 'error',
    description:
      'A pinned source name is not a plain file name (empty, ".", "..", a path separator, a drive or a reserved name).',
    spec: SPEC_PIN,
    messages: { unsafe: 'Source name {name:json} is not a plain file name; it is ignored.' },
  },
  {
    id: 'pin/unpinned-url',
    severity: 'error',
    description:
      'A pinned URL is not an https URL naming the pinned version tag and ending in the source name, or it names a branch or "latest".',
    spec: SPEC_PIN,
    messages: { unpinned: 'The URL of source {name} {problem}.' },
  },
  {
    id: 'pin/missing-source',
    severity: 'error',
    description: 'A pinned source file is absent from the pin folder.',
    spec: SPEC_PIN,
    messages: {
      missing:
        'Pinned source {name} is not present (the upstream bytes are not committed): run `{refresh}` to download and compare them, review, then `{refresh} --adopt`; or pass --allow-missing to check only what is present.',
    },
  },
  {
    id: 'pin/missing-source-allowed',
    severity: 'warning',
    description:
      'A pinned source file is absent from the pin folder and --allow-missing (or an installed package, which ships no upstream bytes) allows it.',
    spec: SPEC_PIN,
    messages: {
      allowed:
        'Pinned source {name} is not present (the upstream bytes are not committed, or not shipped in an installed package); only the files present are checked.',
    },
  },
  {
    id: 'pin/digest-mismatch',
    severity: 'error',
    description: 'The SHA-256 of a vendored source differs from the digest recorded in pin.json.',
    spec: SPEC_PIN,
    messages: { mismatch: 'SHA-256 of {name} is {actual}, but pin.json pins {expected}.' },
  },
  {
    id: 'pin/nothing-verified',
    severity: 'error',
    description:
      'No pinned source is present in the pin folder, so no digest was checked (absent sources allowed by --allow-missing or an installed package).',
    spec: SPEC_PIN,
    messages: {
      nothing: 'Nothing verified: none of the {count} pinned sources is present in {dir}, so no digest was checked.',
    },
  },
  {
    id: 'pin/missing-extraction',
    severity: 'error',
    description: 'The committed elicitation extraction file does not exist.',
    spec: SPEC_EXTRACTION,
    messages: { missing: 'The committed elicitation extraction does not exist.' },
  },
  {
    id: 'pin/extraction-skipped',
    severity: 'info',
    description: 'The extraction check did not run because the pinned schema.json is absent.',
    spec: SPEC_PIN,
    messages: { skipped: 'The extraction was not checked because {schema} is absent.' },
  },
  {
    id: 'pin/extraction-failed',
    severity: 'error',
    description:
      'The pinned schema.json cannot be extracted (not JSON, or a definition or restoration target is missing).',
    spec: SPEC_EXTRACTION,
    messages: {
      pinned: 'The elicitation subset cannot be extracted from {source}: {reason}.',
      downloaded: 'The elicitation subset cannot be extracted from the downloaded {source}: {reason}.',
    },
  },
  {
    id: 'pin/extraction-mismatch',
    severity: 'error',
    description:
      'The committed extraction differs from the extraction of the pinned schema.json (compared byte for byte below its own header).',
    spec: SPEC_EXTRACTION,
    messages: {
      mismatch: 'The committed extraction differs from the extraction of {schema} from line {line} on.',
    },
  },
  {
    id: 'pin/fetch-failed',
    severity: 'error',
    description: 'Downloading a pinned source failed (network error, timeout or non-200 status).',
    spec: SPEC_FETCH,
    messages: {
      scheme: 'Refused to download {url}: only https (or http on loopback with --base-url) is allowed.',
      noLocation: '{at} answered {status} without a Location.',
      status: '{at} answered HTTP {status}.',
      timeout: 'Downloading {at} timed out after {timeoutMs} ms.',
      failed: 'Downloading {at} failed ({detail}).',
      offline:
        'Downloading {at} failed ({detail}): refresh downloads the pinned URLs, so it needs the network (or --base-url with a mirror of the pinned files).',
      mirrorDown: 'Downloading {at} failed ({detail}): the mirror given with --base-url cannot be reached.',
    },
  },
  {
    id: 'pin/redirect-refused',
    severity: 'error',
    description: 'A download redirected to another scheme, host or port, or redirected too often.',
    spec: SPEC_FETCH,
    messages: {
      crossOrigin: 'Refused a redirect from {host} to another origin ({origin}).',
      tooMany: 'Refused more than {max} redirects.',
    },
  },
  {
    id: 'pin/response-too-large',
    severity: 'error',
    description: 'A download exceeded the size cap.',
    spec: SPEC_FETCH,
    messages: {
      declared: '{at} declares {declared} byte{declared:s}, over the cap of {maxBytes}.',
      sent: '{at} sent more than the cap of {maxBytes} bytes.',
    },
  },
  {
    id: 'pin/source-changed',
    severity: 'error',
    description:
      'The downloaded bytes of a pinned source differ from the digest in pin.json (upstream moved or the download was altered).',
    spec: SPEC_PIN,
    messages: { changed: 'Downloaded {name} has SHA-256 {fetched}, but pin.json pins {pinned}.' },
  },
  {
    id: 'pin/extraction-changed',
    severity: 'error',
    description: 'The extraction of the downloaded schema.json differs from the committed extraction.',
    spec: SPEC_EXTRACTION,
    messages: {
      changed: 'The extraction of the downloaded {source} differs from the committed extraction.',
      created: 'The committed extraction does not exist; the download would create it.',
    },
  },
  {
    id: 'pin/adopt-refused',
    severity: 'error',
    description:
      'Adoption was requested but the refresh was incomplete or its download could not be extracted, so nothing was adopted.',
    spec: SPEC_PIN,
    messages: { refused: 'Nothing was adopted because the refresh was incomplete or could not be extracted.' },
  },
];

const RULES_BY_ID = new Map(PIN_RULES.map((r) => [r.id, r]));

/** A finding of pin rule `id` about `source` from template `messageId`; severity and citation from PIN_RULES. */
export function pinFinding(
  id: PinRuleId,
  source: string,
  messageId: string,
  args?: MessageArgs,
  line?: number,
): Finding {
  const rule = RULES_BY_ID.get(id);
  if (!rule) throw new Error(`unknown pin rule ${id}`);
  return findingAt(rule, line !== undefined && line > 0 ? { source, line } : { source }, messageId, args);
}
