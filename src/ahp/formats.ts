/**
 * Strict string formats for the AHP schemas.
 *
 * AHP wire timestamps are RFC 3339 `date-time` with calendar constraints and source values are
 * RFC 3986 absolute URIs (AHP execution-payloads.md: "Wire timestamps use RFC 3339 syntax and
 * calendar constraints; source uses RFC 3986 absolute-URI grammar. Compact ISO timestamps,
 * whitespace, invalid escapes and bad IP literals are invalid.").
 *
 * `ajv-formats` accepts a space instead of `T`, offsets without a colon (`+0100`) and hour-only
 * offsets, and allows a leap second at 23:59 UTC on any day; {@link isRfc3339DateTime} does not.
 * For `uri` the `ajv-formats` full-mode RFC 3986 grammar is used as is.
 */

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * True when `s` is an RFC 3339 §5.6 `date-time`: `YYYY-MM-DDThh:mm:ss[.frac](Z|±hh:mm)`, `T`/`Z`
 * in either case, a real calendar date, hour ≤ 23, minute ≤ 59, offset hour ≤ 23 and minute ≤ 59.
 * A leap second (`:60`) is accepted only when the instant is 23:59:60 UTC on the last day of a
 * month (RFC 3339 §5.7 and Appendix D: leap seconds are inserted at the end of a UTC month).
 * Never throws.
 */
export function isRfc3339DateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  let offsetMinutes = 0;
  if (!m[7]) {
    const oh = Number(m[9]);
    const om = Number(m[10]);
    if (oh > 23 || om > 59) return false;
    offsetMinutes = (m[8] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  if (second < 60) return true;
  // Leap second: convert the local minute to UTC and require 23:59 UTC on a month's last day.
  const utc = new Date(Date.UTC(year, month - 1, day, hour, minute) - offsetMinutes * 60_000);
  if (utc.getUTCHours() !== 23 || utc.getUTCMinutes() !== 59) return false;
  return utc.getUTCDate() === daysInMonth(utc.getUTCFullYear(), utc.getUTCMonth() + 1);
}
