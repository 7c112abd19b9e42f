/** The member names `aep redact` reads as a credential's (AEP-0003 §9.4 hardening: "adapters MAY redact more"). */
import { findSecrets } from '../core/secrets.ts';

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
  // a well-known secret name (`AWS_SK`, `MYSQL_PWD`, `DB_PASS`): the detector's verdict on `"name": value` in a text
  return findSecrets(`${JSON.stringify(key)}: "1"`, SECRET_NAME_ONLY).length > 0;
}

const SECRET_NAME_ONLY = { classes: ['secret-name'] } as const;
