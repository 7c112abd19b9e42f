/** The member names `aep redact` reads as a credential's (AEP-0003 §9.4 hardening: "adapters MAY redact more"). */
import { findSecrets, type DetectorClass } from '../core/secrets.ts';
import { TextMemo } from '../core/text-memo.ts';

/** Credential-named members: the name, lowercased without `-_. `, ends with one of these (`tokenRef` does not). */
const CREDENTIAL_NAME_ENDINGS = [
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'pincode',
  'secret',
  'apikey',
  'token',
  'authorization',
  'credential',
  'credentials',
  'privatekey',
  'accesskey',
  'secretkey',
  'cookie',
];
/** A member name as the credential names are compared: lower case, without `-`, `_`, `.` and spaces. */
export const normName = (k: string) => k.toLowerCase().replace(/[-_. ]/g, '');
// the value of a member named `pin` is a PIN when it is digits (a number or a string); a version pin is none
const PIN_VALUE = /^[0-9]{4,12}$/;

/**
 * True when a member named `key` holds a credential by its name (hardening beyond the floor), or, named `pin`, by its
 * `value`'s digits.
 */
export function isCredentialName(key: string, extra?: ReadonlySet<string>, value?: unknown): boolean {
  const n = normName(key);
  if (extra?.has(n) || (n === 'pin' && PIN_VALUE.test(String(value)))) return true;
  for (const e of CREDENTIAL_NAME_ENDINGS) if (n.endsWith(e)) return true;
  // the detector's reading of the name (`secret_value`, `AWS_SK`); `pin` alone is decided by its value, above
  return n !== 'pin' && namesCredential(key);
}

// what the detector reads a member name by: its value follows it as an assignment's does
const NAME_CLASSES: readonly DetectorClass[] = ['assignment', 'pin', 'secret-name'];
const NAME_PROBE = { classes: NAME_CLASSES };
// member names recur from event to event: their verdicts are kept, a bounded number of them
const names = new TextMemo<boolean>(1024, 256);

/**
 * True when the detector reads `"key": value` as a credential assignment by the name alone (`secret_value`, `id_token`,
 * `AWS_SK`, `pin`; not a paging position such as `next_page_token`), as ahp/event-secret reads a member name: one
 * verdict for `key=value` in a text and `"key": value` in a payload.
 */
export function namesCredential(key: string): boolean {
  return names.of(key, probeName);
}

/** {@link namesCredential} without its memo (a module function: no closure a lookup). */
const probeName = (key: string): boolean => findSecrets(`${JSON.stringify(key)}: "1234"`, NAME_PROBE).length > 0;

/**
 * The class of the credential `value` is as the value of a member named `key` (read as `"key": value` in a text), or
 * undefined: a name that names none, an array index, or a value the detector does not take (empty, a marker, a PIN
 * name over no digits).
 */
export function namedCredentialIn(key: string | number | undefined, value: string): DetectorClass | undefined {
  if (typeof key !== 'string' || value === '' || !namesCredential(key)) return undefined;
  return findSecrets(`${JSON.stringify(key)}: ${JSON.stringify(value)}`, NAME_PROBE)[0]?.class;
}
