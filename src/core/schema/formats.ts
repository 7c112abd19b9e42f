/**
 * Our schemas' string formats from their ABNF (no ajv-formats): RFC 3339 §5.6 `date-time`, `full-date`, RFC 3986 `uri`,
 * `absolute-uri`, http(s) `web-url`, RFC 5321 §4.1.2 `email`; plain regular expressions, so generated validators can import them.
 */

/** The format names our schemas use. */
export type FormatName = 'date-time' | 'date' | 'uri' | 'absolute-uri' | 'web-url' | 'email' | 'iso4217';

// RFC 3339 §5.6: full-date "T" full-time; "T"/"Z" may be lower case (§5.6 NOTE); the space of
// that NOTE is not in the ABNF, so it is not accepted. time-numoffset = ("+" / "-") HH ":" MM.
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days in `month` (1-12) of `year`, Gregorian leap years (RFC 3339 Appendix C). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function realDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** True when `s` is an RFC 3339 §5.6 `full-date` naming a real calendar day (2024-02-29 yes, 2026-02-29 no). */
export function isFullDate(s: string): boolean {
  const m = FULL_DATE.exec(s);
  return m !== null && realDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** RFC 3339 §5.6 `date-time` with real calendar dates; second 60 only at 23:59:60 UTC on a month's last day (§5.7). */
export function isDateTime(s: string): boolean {
  // read by position, not by a capturing regex: every event's `time` goes through here, and the
  // match array and number conversions of a regex were most of its cost
  const n = s.length;
  if (n < 20) return false;
  const century = digits2(s, 0);
  const yy = digits2(s, 2);
  const year = century * 100 + yy;
  const month = digits2(s, 5);
  const day = digits2(s, 8);
  const hour = digits2(s, 11);
  const minute = digits2(s, 14);
  const second = digits2(s, 17);
  if (century < 0 || yy < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return false;
  const t = s.charCodeAt(10);
  if (
    s.charCodeAt(4) !== 0x2d ||
    s.charCodeAt(7) !== 0x2d ||
    (t !== 0x54 && t !== 0x74) ||
    s.charCodeAt(13) !== 0x3a ||
    s.charCodeAt(16) !== 0x3a
  )
    return false;
  let i = 19;
  if (s.charCodeAt(i) === 0x2e) {
    const from = ++i;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
    if (i === from) return false;
  }
  let offset = 0;
  const z = s.charCodeAt(i);
  if (z === 0x5a || z === 0x7a) {
    if (i + 1 !== n) return false;
  } else if ((z === 0x2b || z === 0x2d) && i + 6 === n && s.charCodeAt(i + 3) === 0x3a) {
    const oh = digits2(s, i + 1);
    const om = digits2(s, i + 4);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return false;
    offset = (z === 0x2d ? -1 : 1) * (oh * 60 + om);
  } else return false;
  if (!realDate(year, month, day) || hour > 23 || minute > 59 || second > 60) return false;
  if (second < 60) return true;
  const utc = new Date(Date.UTC(year, month - 1, day, hour, minute) - offset * 60_000);
  return (
    utc.getUTCHours() === 23 &&
    utc.getUTCMinutes() === 59 &&
    utc.getUTCDate() === daysInMonth(utc.getUTCFullYear(), utc.getUTCMonth() + 1)
  );
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** The two ASCII digits at `i` of `s` as a number, or -1 when either is not a digit (or is missing). */
function digits2(s: string, i: number): number {
  const a = s.charCodeAt(i);
  const b = s.charCodeAt(i + 1);
  return isDigit(a) && isDigit(b) ? (a - 0x30) * 10 + (b - 0x30) : -1;
}

/** The name of the character at `i` of `s` for a message: `"T"` for a visible one, `U+0020` else. */
function charName(s: string, i: number): string {
  const c = s.codePointAt(i)!;
  return c > 0x20 && c < 0x7f
    ? JSON.stringify(String.fromCodePoint(c))
    : `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Which part of a `date-time` fails, as a message clause, or `undefined` when valid; never quotes the text. */
export function explainDateTime(s: string): string | undefined {
  if (isDateTime(s)) return undefined;
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (!date) return 'the date is not YYYY-MM-DD (four-digit year, two-digit month and day)';
  if (s.length === 10) return 'there is no time of day: a date-time is the date, "T", hh:mm:ss and an offset';
  if (s[10] !== 'T' && s[10] !== 't')
    return `the date and the time are separated by ${charName(s, 10)}, not "T" (RFC 3339 §5.6 allows "T" or "t" only)`;
  const time = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?/.exec(s.slice(11));
  if (!time) return 'the time of day is not hh:mm:ss (two digits each, an optional fraction after ".")';
  const rest = s.slice(11 + time[0].length);
  // RFC 3339 §5.6 time-secfrac = "." 1*DIGIT: a point with no digit, or a decimal comma (ISO 8601 allows it), is the
  // fraction's fault, not the offset's that follows
  if (!time[4] && /^[.,]/.test(rest))
    return rest[0] === '.'
      ? 'the fraction of a second has no digits (RFC 3339 §5.6: "." then one or more digits)'
      : 'the fraction of a second is written with a decimal comma: RFC 3339 §5.6 takes a "." only';
  if (rest === '') return 'there is no time-zone offset (Z, or ±hh:mm such as +05:30)';
  const off = /^(?:[Zz]|([+-])(\d{2}):(\d{2}))$/.exec(rest);
  if (!off)
    return 'the time-zone offset is not Z or ±hh:mm with a colon (+0530, +05 or anything after the offset are not RFC 3339)';
  if (off[1] !== undefined && (Number(off[2]) > 23 || Number(off[3]) > 59))
    return 'the time-zone offset is out of range (hours 00-23, minutes 00-59)';
  const [y, mo, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
  if (!realDate(y, mo, d))
    return mo < 1 || mo > 12
      ? `the month ${mo} does not exist (01-12)`
      : `day ${d} does not exist in month ${mo} of ${y}`;
  const [h, mi, sec] = [Number(time[1]), Number(time[2]), Number(time[3])];
  if (h > 23 || mi > 59 || sec > 60)
    return 'the time of day is out of range (hours 00-23, minutes 00-59, seconds 00-60)';
  return 'a leap second (:60) is valid only at 23:59:60 UTC on the last day of a month';
}

// RFC 3986 §3 and Appendix A, composed from its ABNF rules.
const UNRESERVED = 'A-Za-z0-9\\-._~';
const SUB_DELIMS = "!$&'()*+,;=";
const PCT = '%[0-9A-Fa-f]{2}';
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const SEGMENT = `${PCHAR}*`;
const SEGMENT_NZ = `${PCHAR}+`;
const DEC_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])';
const IPV4 = `${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
]
  .map((a) => `(?:${a})`)
  .join('|');
const IP_FUTURE = `v[0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+`;
// The IP-literal pattern compiles to a large automaton (tens of ms on first use), so URI and mailbox patterns capture
// any bracketed run and the exact pattern compiles only when a literal is seen (`[`, `]` occur nowhere else).
const IP_LITERAL_RUN = `\\[([${UNRESERVED}${SUB_DELIMS}:]*)\\]`;
let ipLiteral: RegExp | undefined;
let addressLiteral: RegExp | undefined;

/** IP-literal's content, `IPv6address / IPvFuture` (§3.2.2), compiled on first use. */
function ipLiteralPattern(): RegExp {
  const IP_LITERAL = new RegExp(`^(?:${IPV6}|${IP_FUTURE})$`);
  return (ipLiteral ??= IP_LITERAL);
}
// host = IP-literal / IPv4address / reg-name; every IPv4address is also a reg-name
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*`;
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*`;
const AUTHORITY = `(?:${USERINFO}@)?(?:${IP_LITERAL_RUN}|${REG_NAME})(?::[0-9]*)?`;
const HIER_PART = `(?://${AUTHORITY}(?:/${SEGMENT})*|/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?|${SEGMENT_NZ}(?:/${SEGMENT})*|)`;
const QUERY = `(?:${PCHAR}|[/?])*`;
const URI = new RegExp(`^[A-Za-z][A-Za-z0-9+\\-.]*:${HIER_PART}(?:\\?${QUERY})?(?:#${QUERY})?$`);

/** RFC 3986 §3 `URI` exactly per the ABNF (a port is *DIGIT, `aep:` is a URI); ASCII only (an IRI is not a URI). */
export function isUri(s: string): boolean {
  if (!URI.test(s)) return false;
  if (!s.includes('[')) return true;
  // IP-literal = "[" ( IPv6address / IPvFuture ) "]"
  return (ipLiteral ?? ipLiteralPattern()).test(URI.exec(s)![1]!);
}

/** RFC 3986 §4.3 `absolute-URI`: a URI without `#` (AHP execution-payloads.md). */
export function isAbsoluteUri(s: string): boolean {
  return !s.includes('#') && isUri(s);
}

// authority of an http(s) URI: RFC 9110 §4.2.1 `"//" authority`, its host not empty (§4.2.1: "MUST NOT ... empty host")
const WEB_AUTHORITY = /^https?:\/\/(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]+)(?::([0-9]*))?(?:[/?#]|$)/i;

/**
 * An http or https URL one can connect to: an RFC 3986 URI whose hier-part is `"//" authority` with a host (RFC 9110
 * §4.2.1-§4.2.2), a port of at most 65535, that a URL parser takes. A URL parser repairs `https:host`, `https:/host`
 * and `https:///host` into `https://host/`; none of them names a host (zod#5284, nodejs/node#50919).
 */
export function isWebUrl(s: string): boolean {
  const m = WEB_AUTHORITY.exec(s);
  if (!m || (m[2] !== undefined && m[2] !== '' && Number(m[2]) > 65535) || !isUri(s)) return false;
  try {
    return new URL(s).hostname !== '';
  } catch {
    return false;
  }
}

// RFC 5321 §4.1.2 Mailbox = Local-part "@" ( Domain / address-literal ), with §4.1.3 literals.
const ATEXT = "A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~";
const DOT_STRING = `[${ATEXT}]+(?:\\.[${ATEXT}]+)*`;
const QUOTED_STRING = '"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*"';
const SUB_DOMAIN = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const DOMAIN = `${SUB_DOMAIN}(?:\\.${SUB_DOMAIN})*`;
// address-literal: any bracketed run of its characters, checked exactly when present (see IP_LITERAL_RUN)

/** address-literal's content, `IPv4-address-literal / IPv6-address-literal` (RFC 5321 §4.1.3), compiled on first use. */
function addressLiteralPattern(): RegExp {
  const ADDRESS_LITERAL = new RegExp(`^(?:${IPV4}|IPv6:(?:${IPV6}))$`);
  return (addressLiteral ??= ADDRESS_LITERAL);
}
const MAILBOX = new RegExp(`^(?:${DOT_STRING}|${QUOTED_STRING})@(?:${DOMAIN}|\\[([0-9A-Za-z:.]*)\\])$`);

/** RFC 5321 §4.1.2 `Mailbox` (JSON Schema `email`); no length limits (those are §4.5.3 transport limits). */
export function isEmail(s: string): boolean {
  if (!MAILBOX.test(s)) return false;
  // a Domain ends in a letter or digit; an address-literal in `]`
  if (!s.endsWith(']')) return true;
  // address-literal = "[" ( IPv4-address-literal / IPv6-address-literal ) "]" (§4.1.3)
  return (addressLiteral ?? addressLiteralPattern()).test(MAILBOX.exec(s)![1]!);
}

let currencies: ReadonlySet<string> | undefined;

/**
 * An ISO 4217 alphabetic code in force (AEP-0002 §5.2 cost: "an ISO 4217 alpha-3 code"): one of the codes the runtime's
 * ICU data lists (`Intl.supportedValuesOf('currency')`), not a list kept here, so three capitals that no currency has
 * (`ABC`) are refused; a code newer than the runtime's ICU data is refused too (README §Rules).
 */
export function isCurrencyCode(s: string): boolean {
  return s.length === 3 && (currencies ??= new Set(Intl.supportedValuesOf('currency'))).has(s);
}

/** Every format our schemas use, by name: one predicate each. */
export const STRICT_FORMATS: Readonly<Record<FormatName, (s: string) => boolean>> = Object.freeze({
  'date-time': isDateTime,
  date: isFullDate,
  uri: isUri,
  'absolute-uri': isAbsoluteUri,
  'web-url': isWebUrl,
  email: isEmail,
  iso4217: isCurrencyCode,
});
