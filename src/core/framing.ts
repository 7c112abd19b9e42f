/**
 * The framing rules of every protocol (`jsonl/*`, `json/*`) and the constructor of their findings; citations are AEP's
 * JSONL binding (AEP-0003 §3.1) unless a protocol's `framingSpecs` names its own (stamped by src/run/stream-check.ts).
 */
import type { Finding, Location } from './finding.ts';
import type { MessageArgs } from './message.ts';
import { findingAt, type RuleMeta } from './rule.ts';

const LIMITS = 'agent-conformance limits (README §Options of validate)';

const GZIP_CUT = 'the incomplete line {line} ({dropped} byte{dropped:s}) was not checked';
const GZIP =
  'The gzip stream is truncated or corrupt (zlib: {reason}) after {bytes} byte{bytes:s} of decompressed text;';
const GZIP_TRAILING =
  'The gzip stream is not clean: after {bytes} byte{bytes:s} of decompressed text, the data after the last complete gzip member is not gzip (gzip -d ignores it with a warning);';
const GZIP_REST = 'the rest was not read.';
const NOT_JSON = 'Line is not valid JSON: {reason}';
const UNCLOSED = `${NOT_JSON}; it opens a value that it does not close (a pretty-printed, multi-line value? JSONL carries exactly one JSON value per line).`;
const TRUNCATED = `${NOT_JSON} (the last line looks truncated).`;
const LONE_CR = `${NOT_JSON}; a carriage return (CR) before it ends one value and another begins: a CR alone does not end a line.`;
const SKIPPED_MARK = 'JSON text must not begin with one. The mark was skipped and the rest of the';
const NO_VALUE = 'JSONL has one JSON value on every line.';
const DUPLICATE = 'appears more than once';
const NOT_READ = 'it was not checked.';
const PB = 'Protobuf message {number} ({bytes} byte{bytes:s} at byte offset {start}) is no ExportLogsServiceRequest:';
const PB_AT = `${PB} at byte offset {offset}`;
// `{after}`: in a length-prefixed file, that the messages after it are still read; empty for one request body
const PB_REST = 'it was not checked{after}.';

/** Metadata and message templates of the framing rules (catalogue order). */
export const JSONL_RULES = [
  {
    id: 'jsonl/bom',
    severity: 'error',
    description: 'The input, or a later line of it (inputs concatenated), starts with a UTF-8 byte order mark.',
    spec: 'RFC 8259 §8.1; AEP-0003 §3.1',
    messages: {
      input: `Input starts with a UTF-8 byte order mark (EF BB BF); ${SKIPPED_MARK} line checked.`,
      document: `Input starts with a UTF-8 byte order mark (EF BB BF); ${SKIPPED_MARK} document checked.`,
      laterLine: `Line starts with a UTF-8 byte order mark (EF BB BF, U+FEFF): inputs concatenated? ${SKIPPED_MARK} line checked.`,
    },
  },
  {
    id: 'jsonl/blank-line',
    severity: 'error',
    description: 'A line is empty or holds only whitespace.',
    detail:
      'An error: the AEP JSONL binding is one event per line with "no blank lines", the AHP stdio binding one JSON-RPC object per line, so a blank line breaks the framing a writer owes; the events around it are still checked (a tolerant reader may skip it, as the upstream AEP runner does).',
    spec: 'AEP-0003 §3.1; JSON Lines',
    messages: { empty: `Blank line; ${NO_VALUE}`, whitespace: `Line holds only whitespace; ${NO_VALUE}` },
  },
  {
    id: 'jsonl/invalid-utf8',
    severity: 'error',
    description: 'A line holds bytes that are not valid UTF-8.',
    spec: 'RFC 8259 §8.1; AEP-0003 §3.1',
    messages: {
      invalid:
        'Line holds a byte sequence that is not valid UTF-8 at byte offset {offset} (byte 0x{byte}); the line was not checked.',
    },
  },
  {
    id: 'jsonl/binary-input',
    severity: 'error',
    description:
      'The input is binary, not JSON text: a file signature (an image, an archive), UTF-16 text, or a head of NUL, control and invalid UTF-8 bytes.',
    detail:
      'Told from the first line, at least 16 and at most 1,024 bytes (after gzip decompression), however the input is chunked; one finding instead of a parse error on every stretch between newline bytes. The input is not checked; the other inputs are.',
    spec: 'RFC 8259 §8.1; AEP-0003 §3.1',
    messages: {
      signature: `Input starts with the signature of {kind} ({bytes}), not JSON text; ${NOT_READ}`,
      compressed: `Input starts with the signature of {kind} ({bytes}), not JSON text: decompress it first (gzip is read as it is); ${NOT_READ}`,
      utf16: `Input is UTF-16 text (a byte order mark, or a NUL byte beside every character), not UTF-8 (e.g. iconv -f UTF-16 -t UTF-8 converts it); ${NOT_READ}`,
      binary: `Input looks binary: {odd} of its first {window} bytes are NUL, control or invalid UTF-8 bytes, which JSON text does not hold; ${NOT_READ}`,
    },
  },
  {
    id: 'jsonl/invalid-protobuf',
    severity: 'error',
    description:
      'An OTLP protobuf input (--from otlp: an OTLP/HTTP request body, or a Collector file exporter file of length-prefixed messages) holds bytes that do not decode as an ExportLogsServiceRequest.',
    detail:
      'Told from the first byte: 0x0A (field 1, resource_logs, length-delimited) is one request, 0x00 the first byte of the 4-byte big-endian length that prefixes each message of a Collector `format: proto` file; JSON text is read as before. The finding names the message by its number (as the line) and the byte offset of the fault: a field cut short, a malformed varint, a wire type protobuf does not define, a field written with another wire type than its type has, a string that is not UTF-8, nesting past 100 messages. The messages after a bad one are read where the framing allows (each length-prefixed message is its own). OTLP §OTLP/HTTP: binary payloads "use proto3 encoding standard"; the OpenTelemetry Collector file exporter README §File Format: "each encoded object is preceded by 4 bytes (an unsigned 32 bit integer)" (big-endian, its file_writer.go).',
    spec: 'OTLP §Binary Protobuf Encoding; Collector fileexporter README §File Format',
    messages: {
      truncated: `${PB_AT} a field runs past the end of the message (cut short, or a wrong length); ${PB_REST}`,
      varint: `${PB_AT} a varint is longer than protobuf allows (10 bytes; 5 for a length); ${PB_REST}`,
      wireType: `${PB_AT} a field tag has wire type {wireType}, which protobuf does not define (0 to 5); ${PB_REST}`,
      fieldZero: `${PB_AT} a field tag has field number 0, which protobuf does not allow; ${PB_REST}`,
      fieldWireType: `${PB_AT} field {field} (number {number}) of {message} is written {found}, but its type is {expected}; ${PB_REST}`,
      utf8: `${PB_AT} a string field holds bytes that are not UTF-8 (proto3 strings are UTF-8); ${PB_REST}`,
      depth: `${PB} its messages nest deeper than {limit} levels (the recursion limit of protobuf readers); ${PB_REST}`,
      invalid: `${PB_AT} {reason}; ${PB_REST}`,
      frameCut:
        'The length prefix at byte offset {start} announces a message of {length} byte{length:s}, but the input ends {bytes} byte{bytes:s} after it (a cut file?); that message was not checked.',
      prefixCut:
        'The input ends inside the 4-byte length prefix at byte offset {start} (Collector file exporter framing: each message is preceded by its length); the {bytes} byte{bytes:s} there were not read.',
    },
  },
  {
    id: 'jsonl/line-too-long',
    severity: 'error',
    description:
      'A line, a single-document input (an AHP HTTP body or registration document), or one protobuf message (--from otlp), is longer than the configured cap (--max-line-bytes).',
    spec: LIMITS,
    messages: {
      line: 'Line is {bytes} byte{bytes:s} long, over the cap of {cap} bytes (`--max-line-bytes`; library: `maxLineBytes`); it was not checked.',
      document:
        'Document is {bytes} byte{bytes:s} long, over the cap of {cap} bytes (`--max-line-bytes`; library: `maxLineBytes`); it was not checked.',
      undecodable: 'Document is {bytes} byte{bytes:s} long, too long to decode as one text; it was not checked.',
      protobuf:
        'Protobuf message {number} is {bytes} byte{bytes:s} long, over the cap of {cap} bytes (`--max-line-bytes`; library: `maxLineBytes`); it was not checked.',
    },
  },
  {
    id: 'jsonl/gzip-corrupt',
    severity: 'error',
    description:
      'A gzip input (magic bytes 1f 8b) is truncated or corrupt, or bytes that are not gzip follow its last complete member: the complete lines before the damage are checked, the rest cannot be read.',
    detail:
      'RFC 1952 §2.2 makes a gzip file a series of members; NUL bytes after the last member are padding (tar, tape blocks) and ignored, as gzip(1) and zlib do, any other byte there is this finding, after the text of every member before it was checked.',
    spec: 'RFC 1952 §2.2-§2.3',
    messages: {
      noLine: `${GZIP} no complete line came before it; the rest could not be read.`,
      noLineCut: `${GZIP} no complete line came before it; ${GZIP_CUT}; the rest could not be read.`,
      oneLine: `${GZIP} 1 complete line before it was checked; the rest could not be read.`,
      oneLineCut: `${GZIP} 1 complete line before it was checked; ${GZIP_CUT}; the rest could not be read.`,
      lines: `${GZIP} {complete} complete lines before it were checked; the rest could not be read.`,
      linesCut: `${GZIP} {complete} complete lines before it were checked; ${GZIP_CUT}; the rest could not be read.`,
      trailingNoLine: `${GZIP_TRAILING} no line came before it; ${GZIP_REST}`,
      trailingOneLine: `${GZIP_TRAILING} the 1 line before it was checked; ${GZIP_REST}`,
      trailingLines: `${GZIP_TRAILING} all {complete} lines before it were checked; ${GZIP_REST}`,
      trailingDocument: `${GZIP_TRAILING} the document before it was checked; ${GZIP_REST}`,
    },
  },
  {
    id: 'jsonl/carriage-return',
    severity: 'error',
    description: 'A carriage return appears on a binding that forbids it.',
    spec: 'AHP base/transports/stdio §Framing',
    messages: {
      crlf: 'Line ends with CRLF; this binding frames messages with LF only.',
      cr: 'Line holds a carriage return; this binding allows no CR in a message line.',
    },
  },
  {
    id: 'jsonl/empty-input',
    severity: 'error',
    description: 'The input holds no event at all.',
    spec: 'AEP-0003 §3.1',
    messages: {
      empty: 'Input is empty: there is no event to check.',
      noEvent: 'Input holds no event: every line was blank.',
      emptyDocument: 'Input is empty: there is no message to check.',
      noInput: 'No input was given: there is no event to check.',
      // AHP's words (AHP_FRAMING_WORDS): what a line or body holds is a message
      emptyMessage: 'Input is empty: there is no message to check.',
      noMessage: 'Input holds no message: every line was blank.',
      noInputMessage: 'No input was given: there is no message to check.',
    },
  },
  {
    id: 'jsonl/no-final-newline',
    severity: 'info',
    description: 'The last line is not terminated by a newline (it is still checked).',
    spec: 'AEP-0003 §3.1',
    messages: {
      checked: 'The last line has no terminating newline; it was checked as it is.',
      skipped: 'The last line has no terminating newline.',
    },
  },
  {
    id: 'jsonl/invalid-json',
    severity: 'error',
    description: 'A line is not valid JSON.',
    spec: 'RFC 8259; AEP-0003 §3.1',
    // the `Hint` forms add a protocol's sentence naming the binding that reads the text (withHint)
    messages: {
      invalid: `${NOT_JSON}.`,
      truncated: TRUNCATED,
      unclosed: UNCLOSED,
      loneCr: LONE_CR,
      invalidHint: `${NOT_JSON}. {hint}`,
      loneCrHint: `${LONE_CR} {hint}`,
      truncatedHint: `${TRUNCATED} {hint}`,
      unclosedHint: `${UNCLOSED} {hint}`,
      // one JSON document (a registration, an HTTP body): no line framing to blame, cited to RFC 8259 alone
      document: 'Document is not valid JSON: {reason}.',
      documentHint: 'Document is not valid JSON: {reason}. {hint}',
    },
  },
  {
    id: 'jsonl/not-object',
    severity: 'error',
    description: 'A line is valid JSON but not a JSON object.',
    spec: 'AEP-0001 §5; AEP-0003 §3.1',
    // the `Hint` form adds a protocol's sentence naming the option that reads the text (withHint)
    messages: {
      notObject: 'Line is {kind}, not a JSON object; every line must hold one object.',
      notObjectHint: 'Line is {kind}, not a JSON object; every line must hold one object. {hint}',
      // AHP's words for an array (AHP_FRAMING_WORDS): that is a JSON-RPC batch, which the protocol forbids by name
      batch:
        'The value is a JSON array, a JSON-RPC batch: "Batch JSON-RPC messages MUST NOT be used" (base/versioning.md §JSON-RPC); each line or HTTP body holds one JSON-RPC object.',
    },
  },
  {
    id: 'jsonl/max-depth',
    severity: 'error',
    description: 'A value nests arrays/objects deeper than the limit (--max-depth, default 256).',
    spec: LIMITS,
    messages: {
      tooDeep:
        'Value nests {depth} levels deep, over the limit of {limit} (`--max-depth`; library: `maxDepth`); the line was not checked further.',
    },
  },
  {
    id: 'json/duplicate-key',
    severity: 'error',
    description: 'An object has two members with the same name.',
    detail:
      'An error: RFC 8259 §4 says only that names SHOULD be unique, but I-JSON (RFC 7493 §2.3) forbids duplicates, and we follow I-JSON because with a duplicate the verdict depends on which copy a reader keeps (JSON.parse keeps the last, other readers the first). AEP payload members are the one exception, compared copy by copy: aep/payload-duplicate-key (equal copies, a warning) and aep/payload-duplicate-conflict (an error).',
    spec: 'AEP-0001 §5; RFC 8259 §4',
    messages: {
      envelope: `Envelope attribute "{key}" ${DUPLICATE}; which value counts is undefined, so the event is rejected.`,
      message: `Member "{key}" ${DUPLICATE} in the same object; which value counts is undefined, so the message is invalid.`,
      bridge: `Member "{key}" ${DUPLICATE} in the same object; which one counts is undefined, so the {holder} holding it is not checked as AEP.`,
    },
  },
  {
    id: 'json/duplicate-key-omitted',
    severity: 'info',
    description:
      'A line repeats member names more often than are reported one by one; the rest are counted in this one finding.',
    spec: 'RFC 8259 §4; agent-conformance limits',
    messages: {
      omitted:
        'The line repeats member names {total} times; {omitted} repeats from here on are counted here and not reported one by one.',
    },
  },
] as const;

/** The id of a framing rule. */
export type JsonlRuleId = (typeof JSONL_RULES)[number]['id'];

/** A protocol's own citations of framing rules, by rule id (those not listed keep {@link JSONL_RULES}'). */
export type FramingSpecs = Readonly<Partial<Record<JsonlRuleId, string>>>;

type JsonlRule = (typeof JSONL_RULES)[number];

/** The message keys of framing rule `R`. */
export type FramingMessageId<R extends JsonlRuleId> = keyof Extract<JsonlRule, { id: R }>['messages'] & string;

/**
 * Framing findings in AHP's words: `jsonl/empty-input` speaks of messages, not events; an array (`jsonl/not-object`,
 * key `array`) is named a JSON-RPC batch.
 */
export const AHP_FRAMING_WORDS: Readonly<Record<string, string>> = {
  empty: 'emptyMessage',
  noEvent: 'noMessage',
  noInput: 'noInputMessage',
  array: 'batch',
};

/**
 * `f` under the message id `ids` gives its own (a protocol's words), else `f`: keyed by the message id for
 * `jsonl/empty-input`, by `array` for a `jsonl/not-object` line holding an array.
 */
export function reworded(f: Finding, ids: Readonly<Record<string, string>>): Finding {
  const key =
    f.ruleId === 'jsonl/empty-input'
      ? f.messageId
      : f.ruleId === 'jsonl/not-object' && f.messageId === 'notObject' && f.args?.kind === 'an array'
        ? 'array'
        : undefined;
  const id = key === undefined ? undefined : ids[key];
  if (id === undefined) return f;
  const { ruleId, severity: _s, message: _m, messageId: _k, args, spec, ...loc } = f;
  const rule = ruleId as 'jsonl/empty-input';
  return { ...framingFinding(rule, loc, id as FramingMessageId<typeof rule>, args), spec };
}

/** {@link JSONL_RULES} with `specs` replacing their citations (a protocol's own binding). */
export function framingRules(specs: FramingSpecs = {}): Array<RuleMeta & { id: JsonlRuleId }> {
  return JSONL_RULES.map((r) => ({ ...r, spec: specs[r.id] ?? r.spec }));
}

/**
 * The framing findings after which no event comes from their line (or input): the line may have held a message that
 * a later verdict of absence needs, so those verdicts are "cannot verify" (README §Decisions on unreadable lines).
 */
export const UNREADABLE_LINE_RULES: ReadonlySet<string> = new Set<JsonlRuleId>([
  'jsonl/invalid-json',
  'jsonl/max-depth',
  'jsonl/not-object',
  'jsonl/line-too-long',
  'jsonl/invalid-utf8',
  'jsonl/binary-input',
  'jsonl/gzip-corrupt',
  'jsonl/invalid-protobuf',
]);

const BY_ID: ReadonlyMap<string, JsonlRule> = new Map(JSONL_RULES.map((r) => [r.id, r]));

/** A framing finding of `ruleId` at `loc` from template `messageId`; severity and citation are the rule's. */
export function framingFinding<R extends JsonlRuleId>(
  ruleId: R,
  loc: Location,
  messageId: FramingMessageId<R>,
  args?: MessageArgs,
): Finding {
  return findingAt(BY_ID.get(ruleId)!, loc, messageId, args);
}

/** `f` with a protocol's `hint` sentence (which binding reads the text) when it is `jsonl/invalid-json`. */
export function withHint(f: Finding, hint: string): Finding {
  if (f.ruleId !== 'jsonl/invalid-json' && f.ruleId !== 'jsonl/not-object') return f;
  if (f.messageId === undefined || f.messageId.endsWith('Hint')) return f;
  const { ruleId: _r, severity: _s, message: _m, spec, messageId: _k, args, related: _rel, ...loc } = f;
  if (f.ruleId === 'jsonl/not-object')
    return { ...framingFinding('jsonl/not-object', loc, 'notObjectHint', { ...args, hint }), spec };
  const messageId = `${f.messageId}Hint` as FramingMessageId<'jsonl/invalid-json'>;
  return { ...framingFinding('jsonl/invalid-json', loc, messageId, { ...args, hint }), spec };
}

/**
 * True for an error about the input rather than its line: a byte order mark, skipped before the line is read (RFC 8259
 * §8.1), or bytes after a whole gzip stream. The line's event is still read; a stream verb writes it.
 */
export function aboutTheInput(f: Pick<Finding, 'ruleId' | 'messageId'>): boolean {
  return f.ruleId === 'jsonl/bom' || (f.ruleId === 'jsonl/gzip-corrupt' && !!f.messageId?.startsWith('trailing'));
}
