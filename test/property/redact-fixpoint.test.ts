/**
 * Issue 43 item 1: redaction is a fixed point over the one detector (src/core/secrets.ts). For any
 * text and any pipeline options (configured names and values, home, PII on or off), what `redact`
 * writes is flagged by nothing the detector knows; and for the shapes where the value of an
 * assignment starts with a word that is not the secret (`NAME_TOKEN: Scheme1 <token>`, a
 * constructor `Ctor{..., Create: '<secret>'}`, a doubly wrapped `"name = "<token>""`, a name with
 * a suffix beside a flag, `secret_value = "<token>"` / `is_secret = true`), no part of the secret
 * survives: the value is the whole value, wherever it starts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createRedactor, redactionPasses } from '../../src/aep/redact.ts';
import { findSecrets, type DetectorClass } from '../../src/core/secrets.ts';
import { runs } from '../scale.ts';
import { SECRET_CLASSES } from '../secret-classes.ts';

const ALL = SECRET_CLASSES;
const PII: readonly DetectorClass[] = ['email', 'phone'];
/** Every secret class the detector knows (a class name it does not know is skipped). */
const secretsIn = (t: string) => findSecrets(t, { classes: ALL });

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const chars = (alphabet: string, min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));
// a random credential body: letters and at least two digits, 12 to 40 characters
const secret = fc
  .tuple(chars(ALNUM, 8, 30), chars('0123456789', 2, 4), chars(ALNUM, 2, 6))
  .map(([a, d, b]) => `${a}${d}${b}`);

/** No 4-character part of `value` is in `out` unless the template without the value holds it too. */
function keptPartOf(out: string, value: string, template: string): string | undefined {
  for (let i = 0; i + 4 <= value.length; i++) {
    const part = value.slice(i, i + 4);
    if (out.includes(part) && !template.includes(part)) return part;
  }
  return undefined;
}

const PIECES = [
  'AKIAQ7VLM2XC9RTY4BNA',
  'ASIAQ7VLM2XC3RTY4BNA',
  'password: hunter2sequel',
  'api_token := "Zx81qPlm77Tn"',
  'NAME_TOKEN: Scheme1 Zq81xPlm77TnWw',
  '"client_secret": Ctor{Kind: 1, Create: \'Qv83mmWx01\'}',
  'api_token = "api_token = "Rt5yU8iO0pQw""',
  'secret_value = "Lk98JhGf76" is_secret = true',
  'Authorization: Basic dXNlcjpwYXNzd29yZA==',
  'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0In0',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
  '-----BEGIN PRIVATE KEY-----\nMIIEtruncated',
  'ghp_Q7vLm2Xc9RtY4bNa8KdE3wPz6HsJ1uFo0iGk',
  'glpat-AbCdEfGhIjKlMnOpQrStUv',
  'sk_live_51Hq7TmKc9Vx2LpQ8rWz3NbY',
  'ops@example.com',
  '+1 (555) 123-4567',
  '/home/alice/x',
  'password = """Tz83kLq0"""',
  'token: |\n  Qp83xLm0\n',
  'postgres://app:Hw83nBv0@db/x',
];

const textAndOptions = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.constantFrom('=', ':', '"', "'", ' ', '\n', '{', '}', 'token', 'Bearer ', 'Basic ', '[REDACTED:secret]'),
      fc.constantFrom(...PIECES),
    ),
    { maxLength: 8 },
  )
  .map((p) => p.join(''))
  .chain((text) =>
    fc.record({
      text: fc.constant(text),
      // configured values are parts of the text itself (rule b replaces them wherever they occur)
      values: fc.array(
        fc
          .tuple(fc.nat({ max: Math.max(0, text.length - 1) }), fc.integer({ min: 1, max: 6 }))
          .map(([i, n]) => text.slice(i, i + n)),
        { maxLength: 3 },
      ),
      names: fc.array(fc.constantFrom('DEPLOY', 'NAME', 'x', 'Kind'), { maxLength: 2 }),
      pii: fc.boolean(),
      home: fc.constantFrom<string | false>(false, '/home/alice'),
    }),
  );

test('for any text and options, after redact the detector finds nothing (a fixed point over the detector)', () => {
  fc.assert(
    fc.property(textAndOptions, (o) => {
      const r = createRedactor({ secretNames: o.names, secretValues: o.values, home: o.home, pii: o.pii });
      const out = r.text(o.text);
      assert.deepEqual(secretsIn(out), [], `${JSON.stringify(o)} -> ${JSON.stringify(out)}`);
      // the fixed point is reached by the detector, never by the bound that replaces a text whole
      assert.notEqual(redactionPasses(o.text, o.pii), undefined, JSON.stringify(o.text));
      assert.notEqual(redactionPasses(out, o.pii), undefined, JSON.stringify(out));
      if (o.pii) assert.deepEqual(findSecrets(out, { classes: PII }), [], `PII left in ${JSON.stringify(out)}`);
    }),
    { numRuns: runs(3000) },
  );
});

const wrapped = fc.constantFrom(
  (s: string) => [`NAME_TOKEN: Scheme1 ${s}`, 'NAME_TOKEN: Scheme1 '],
  (s: string) => [`GITHUB_TOKEN: token ${s} # ci`, 'GITHUB_TOKEN: token  # ci'],
  (s: string) => [
    `"client_secret": Ctor{Kind: Plain, Create: '${s}'}`,
    `"client_secret": Ctor{Kind: Plain, Create: ''}`,
  ],
  (s: string) => [`password = New(Opts{Key: "${s}"})\nnext`, 'password = New(Opts{Key: ""})\nnext'],
  (s: string) => [`api_token = "api_token = "${s}""`, 'api_token = "api_token = """'],
  (s: string) => [`secret = 'secret = '${s}''`, "secret = 'secret = '''"],
  (s: string) => [`secret_value = "${s}" is_secret = true`, 'secret_value = "" is_secret = true'],
  (s: string) => [`is_secret = true; secret_value = "${s}"`, 'is_secret = true; secret_value = ""'],
  (s: string) => [`tokenValue: ${s}`, 'tokenValue: '],
  (s: string) => [`AWS_SECRET_ACCESS_KEY=${s}`, 'AWS_SECRET_ACCESS_KEY='],
  (s: string) => [`db_password: correct horse ${s}\nnext: 1`, 'db_password: correct horse \nnext: 1'],
  (s: string) => [`client_secret: |\n  ${s}\n\n  ${s.slice(2)}x\nnext: 1`, 'client_secret: |\n  \n\n  x\nnext: 1'],
  (s: string) => [`password = """${s}"""\nnext`, 'password = """"""\nnext'],
  (s: string) => [`api_secret = '''${s}\n${s.slice(1)}'''`, "api_secret = ''''''"],
  (s: string) => [`DATABASE_URL=postgres://app:${s}@db:5432/x`, 'DATABASE_URL=postgres://app:@db:5432/x'],
  (s: string) => [`dsn "mysql://root:${s}@10.0.0.1/app"`, 'dsn "mysql://root:@10.0.0.1/app"'],
  (s: string) => [`  API_TOKEN=some words ${s} tail # rotated`, '  API_TOKEN=some words  tail # rotated'],
);

test('the value of an assignment is the whole value wherever it starts: no part of the secret survives', () => {
  const r = createRedactor({ home: false, pii: false });
  fc.assert(
    fc.property(secret, wrapped, (s, wrap) => {
      const [text, template] = wrap(s) as [string, string];
      assert.ok(secretsIn(text).length > 0, `not flagged: ${JSON.stringify(text)}`);
      const out = r.text(text);
      assert.deepEqual(secretsIn(out), [], JSON.stringify(out));
      assert.ok(
        out.startsWith(template.slice(0, 5)),
        `${JSON.stringify(text)} -> ${JSON.stringify(out)}: the key is kept`,
      );
      const kept = keptPartOf(out, s, `${template}[REDACTED:secret]`);
      assert.equal(kept, undefined, `${JSON.stringify(text)} -> ${JSON.stringify(out)} keeps ${JSON.stringify(kept)}`);
    }),
    { numRuns: runs(1500) },
  );
});
