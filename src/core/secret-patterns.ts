/** The patterns of the credential and PII detector (secrets.ts), one a class or part of one, their openings, the PEM finder. */
import type { SecretMatch } from './secret-classes.ts';
import { encodedText } from './secret-encoded.ts';

// A value that is already a redaction marker is no secret: `token=[REDACTED:secret]` is what
// the pipeline leaves behind, and `***` / `<redacted>` are other redactors' markers.
export const MARKER = /^["']?(?:\[REDACTED[^\]\s]*\]|<redacted>|\*{3,}|\u2022{3,})[\])}"',;.!?]*$/i;

export const PEM_BEGIN = /-----BEGIN ([A-Z0-9][A-Z0-9 ]{0,62})-----/g;
// public material: no credential (a private or secret label wins over these words)
export const PEM_PUBLIC = /PUBLIC KEY|CERTIFICATE|X509 CRL|SIGNATURE|SIGNED MESSAGE|PARAMETERS|PKCS7|CMS/;
export const PEM_PRIVATE = /PRIVATE|SECRET/;
// the base64 body lines of a PEM block whose END line is missing (a truncated key still leaks), the line breaks real or
// JSON-escaped (`\n`), as in a service-account key file's `"private_key"` shown raw; or the body's lines joined by spaces
// (a key collapsed onto one line, or its line breaks a form's `+`), its first line 16 base64 characters or more
export const PEM_BODY =
  /(?:[ \t]+(?=[A-Za-z0-9+/=]{16})[A-Za-z0-9+/= \t]*[A-Za-z0-9+/=])?(?:(?:\r?\n|\\r\\n|\\n)[A-Za-z0-9+/=:\- ]+)*/y;
/** The PEM blocks of private material in `text` (to the END line of their label, or their base64 body lines). */
export function findPem(text: string, out: SecretMatch[]): void {
  if (!text.includes('-----BEGIN ')) return;
  const noEnd = new Set<string>(); // labels whose END line is known to be absent further on
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m !== null; m = PEM_BEGIN.exec(text)) {
    const label = m[1]!;
    const bodyFrom = m.index + m[0].length;
    const endLine = `-----END ${label}-----`;
    let end = -1;
    if (!noEnd.has(label)) {
      const e = text.indexOf(endLine, bodyFrom);
      if (e >= 0) end = e + endLine.length;
      else noEnd.add(label);
    }
    if (end < 0) {
      PEM_BODY.lastIndex = bodyFrom;
      PEM_BODY.exec(text);
      end = Math.max(bodyFrom, PEM_BODY.lastIndex);
    }
    if (PEM_PRIVATE.test(label) || !PEM_PUBLIC.test(label)) out.push({ class: 'pem', start: m.index, end });
    PEM_BEGIN.lastIndex = end;
  }
}

export const AWS_KEY = /AKIA[0-9A-Z]{16}/g;
// AWS key ids beyond the floor's AKIA (IAM unique-id prefixes of credentials: temporary ASIA, STS bearer ABIA,
// context ACCA, legacy A3T?): a whole word of 20, so that an upper-case word that merely starts so is none
export const AWS_KEY_ID = /(?<![A-Za-z0-9])(?:ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g;
export const BEARER = /(?<![A-Za-z0-9_-])bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)/gi;
export const AUTH_BEFORE = /authorization["']?\s*[:=]\s*["']?$/i;
// RFC 7617 Basic credentials: base64 of `user:password`
export const BASIC = /(?<![A-Za-z0-9_-])basic[ \t]+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])/gi;
// an Authorization header value: an optional scheme word, then the credentials (Bearer is the floor's own class)
export const AUTH_HEADER =
  /(?<![A-Za-z0-9_-])(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?(?:([A-Za-z][A-Za-z0-9_-]{0,23})[ \t]+)?([A-Za-z0-9\-._~+/]+=*)/gi;
// what follows a secret's name: the optional closing quote of a quoted key, an optional declared type, the whole
// operator (atomic: a look-ahead and a back-reference, so the value never starts inside it), the value
const ASSIGNED = String.raw`["']?(?:(?:\s*:\s*|\s+)(?:string|String|str|&str|&'static str|\[\]byte|bytes)(?=\s*=))?\s*(?=(?<op>[:=]+>?))\k<op>\s*(?:"(?<dq>(?:[^"\\\r\n]|\\.)*)"|'(?<sq>(?:[^'\\\r\n]|\\.)*)'|(?<bare>\S+))`;
// the §9.4(a) keywords (optionally with a suffix that still names the secret: `secret_value`, `SECRET_ACCESS_KEY`,
// `tokenValue`), then what follows the name; a paging or sync position (`next_page_token`,
// `continuationToken`, `syncToken`, AWS's `NextToken`, Azure's `$skipToken`) names a place in a listing, not a credential
export const ASSIGNMENT = new RegExp(
  '(?:password|passwd|secret|api[_-]?key|(?<!(?:page|cursor|continuation|pagination|sync|resume|next|skip)[_-]?)token)(?:[_-]?(?:access[_-]?)?key|[_-]?(?:value|val|str|string|b64|base64|hex|raw|plain|plaintext|bytes|material|enc|encoded))?' +
    ASSIGNED,
  'dgi',
);
// Names beyond the §9.4(a) words whose value is a credential by the name's own meaning ("adapters MAY redact more"): a
// bounded list, each a password or key-material word or a documented variable: `passphrase`; `pwd` after a prefix
// (MySQL's `MYSQL_PWD`; never `PWD`/`OLDPWD`, the shell's working directories); `pass` after a service or account
// word (`DB_PASS`, `SMTP_PASS`; never `FIRST_PASS` or `BYPASS`); private, signing, encryption and master keys (not
// `public_key`, not `private_key_id`); `SSHPASS` (sshpass), `REDISCLI_AUTH` (redis-cli), `.npmrc`'s `_auth`; an AK/SK
// pair's secret half (`AWS_SK`, `aws_sk`; any upper-case `<NAME>_SK` in SECRET_NAME_UPPER)
export const SECRET_NAME = new RegExp(
  '(?:pass[_-]?phrase|(?:private|signing|encryption|master)[_-]?key|(?<![A-Za-z0-9])(?:sshpass|rediscli[_-]auth|aws[_-]sk)|(?<![A-Za-z0-9_])_auth|(?<=[A-Za-z0-9][_-])pwd|(?<![A-Za-z0-9])(?:db|database|smtp|mail|email|imap|ldap|s?ftp|proxy|admin|root|user|redis|mysql|pg|postgres|mongo|rabbitmq|amqp|ssh|key[_-]?store|trust[_-]?store)[_-]pass)(?![A-Za-z0-9_])' +
    ASSIGNED,
  'dgi',
);
// the secret half of an AK/SK pair in an upper-case variable name (`AWS_SK`, `HUAWEICLOUD_SDK_SK`); case-sensitive, so
// a lower-case `gsi1_sk` (a DynamoDB sort key) is no secret
export const SECRET_NAME_UPPER = new RegExp('(?<=[A-Z0-9])_SK(?![A-Za-z0-9_])' + ASSIGNED, 'dg');
export const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
// an unsigned JWT written without its empty third segment: header and claims, both JSON objects (`eyJ`), and no dot
// after (with one, the floor's JWT shape holds it)
export const JWT_UNSIGNED = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}(?![A-Za-z0-9_.-])/g;
export const PROVIDER = new RegExp(
  '(?<![A-Za-z0-9_-])(?:' +
    [
      'gh[pousr]_[A-Za-z0-9]{20,}', // GitHub classic, OAuth, user-to-server, server-to-server, refresh
      'github_pat_[A-Za-z0-9_]{20,}', // GitHub fine-grained
      'GR1348941[A-Za-z0-9_-]{20,}', // GitLab runner registration
      'xox[abcdeoprs]-[A-Za-z0-9-]{10,}', // Slack bot, user, app-level, refresh, browser-session (c, d cookie) tokens
      'xoxe\\.xox[bp]-[A-Za-z0-9-]{10,}', // Slack rotating tokens
      'xapp-[0-9]-[A-Za-z0-9-]{10,}', // Slack app-level
      'hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}', // Slack webhooks
      'sk-[A-Za-z0-9_-]{16,}', // OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-), Anthropic (sk-ant-...)
      '(?:sk|rk|ek)_(?:live|test)_[A-Za-z0-9]{16,}', // Stripe secret, restricted and ephemeral keys
      'whsec_[A-Za-z0-9+/=]{24,}', // Stripe webhook signing secrets
      'AIza[0-9A-Za-z_-]{30,}', // Google API keys
      'GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])', // Google OAuth client secrets
      'ya29\\.[A-Za-z0-9_-]{20,}', // Google OAuth access tokens
      'npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])', // npm access tokens: 30 random base62 and a 6-character checksum
      'hf_[A-Za-z0-9]{34}(?![A-Za-z0-9])', // Hugging Face user access tokens
      'SK[0-9a-fA-F]{32}(?![A-Za-z0-9])', // Twilio API key SIDs
      'SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])', // SendGrid API keys: id and secret parts
      'key-[0-9a-z]{32}(?![A-Za-z0-9])', // Mailgun private API keys (legacy form)
      'do[por]_v1_[0-9a-f]{64}(?![A-Za-z0-9])', // DigitalOcean personal access, OAuth and refresh tokens
      'shp(?:at|ca|pa|ss)_[0-9a-fA-F]{32}(?![A-Za-z0-9])', // Shopify admin, custom-app, private-app tokens, secrets
      'pypi-AgE[A-Za-z0-9_-]{50,}', // PyPI API tokens: a base64url macaroon whose first bytes are 02 01 <length>
      'dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}', // Docker personal and organization access tokens
      'dapi[0-9a-f]{32}(?:-[0-9]+)?(?![A-Za-z0-9])', // Databricks personal access tokens
      'gsk_[A-Za-z0-9]{48,}', // Groq API keys
      'xai-[A-Za-z0-9]{70,}', // xAI API keys
      'r8_[A-Za-z0-9]{37}(?![A-Za-z0-9])', // Replicate API tokens
      'hv[sbr]\\.[A-Za-z0-9_-]{24,}', // HashiCorp Vault service, batch and recovery tokens
      'sntry[su]_[A-Za-z0-9_=+/.-]{40,}', // Sentry organization and user auth tokens
      'AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}(?![A-Za-z0-9])', // age secret keys (bech32, upper case)
      'PMAK-[0-9a-f]{24}-[0-9a-f]{34}(?![A-Za-z0-9])', // Postman API keys
      'gl(?:sa_[A-Za-z0-9]{32}_[0-9a-f]{8}|c_[A-Za-z0-9+/]{32,}={0,2})(?![A-Za-z0-9])', // Grafana service-account, cloud
      'sbp_[0-9a-f]{40}(?![A-Za-z0-9])', // Supabase access tokens
      'ops_eyJ[A-Za-z0-9+/]{200,}={0,3}', // 1Password service-account tokens (screened by their `eyJ`)
      'sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}', // Square access tokens and OAuth secrets
      'ATATT3[A-Za-z0-9_=-]{180,}', // Atlassian API tokens (screened by `ATATT3`'s `tt3`)
      'lin_api_[A-Za-z0-9]{40}(?![A-Za-z0-9])', // Linear personal API keys
      'pplx-[A-Za-z0-9]{48}(?![A-Za-z0-9])', // Perplexity API keys
      'LTAI[A-Za-z0-9]{12,20}(?![A-Za-z0-9])', // Alibaba Cloud AccessKey ids
      'https://(?:ptb\\.|canary\\.)?discord(?:app)?\\.com/api/webhooks/[0-9]{10,}/[A-Za-z0-9_-]{60,}', // Discord webhooks
    ].join('|') +
    // GitLab tokens by their documented prefixes, the routable `.<version>.<crc>` tail included; an instance prefix
    // (`SIE-glpat-`) may stand before them
    ')|(?<![A-Za-z0-9_])gl(?:pat|oas|dt|rt|rtr|cbt|ptt|ft|imt|agent|soat|ffct|wt)-[A-Za-z0-9_-]{20,}(?:\\.[0-9a-z]{2}\\.[0-9a-z]{7,9}(?![A-Za-z0-9]))?',
  'g',
);
// a Telegram bot token: the bot's numeric id, `:`, and 35 characters that open with `AA`; as a whole word, or right
// after `bot` as the Bot API's URLs write it (`https://api.telegram.org/bot<token>/getMe`)
export const TELEGRAM = /(?:(?<=bot)|(?<![A-Za-z0-9_:-]))[0-9]{6,12}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g;
// a Microsoft Entra ID (Azure AD) client secret value: 40 characters whose fourth is a digit and fifth and sixth `Q~`
export const AZURE_CLIENT_SECRET =
  /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{34}(?![A-Za-z0-9_~.-])/g;
// an AWS secret access key after its name with no operator, as the AWS CLI takes it (`aws configure set
// aws_secret_access_key <key>`): 40 base64 characters; with `=` or `:` the assignment class holds it
export const AWS_SECRET_NAMED = /secret[_-]?access[_-]?key["']?[ \t]+["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi;
// a PIN or passcode: 4 to 12 digits, the value of a `pin`, `pin_code` or `passcode` key (its quotes and the whole
// operator read as in ASSIGNMENT, spaces around it); a `pin` of a version (`pin: 3.12`, `pin=latest`) is none
export const PIN =
  /(?<![A-Za-z0-9])(?:pin(?:[_-]?code)?|passcode)["']? *(?=(?<op>[:=]+>?))\k<op> *["']?(?<v>[0-9]{4,12})(?![0-9A-Za-z.])/gi;
// Azure AI services (Azure OpenAI among them) keys: the 84-character identifiable key with its `JQQJ9?` signature, and
// the 32-hex key where a name says so (alone a 32-hex string is a hash)
export const AZURE_KEY =
  /(?<![A-Za-z0-9])[A-Za-z0-9]{52}JQQJ9[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{16}[A-Za-z][A-Za-z0-9]{7}(?:[A-Za-z0-9]{2}==)?(?![A-Za-z0-9])/g;
export const AZURE_NAMED_KEY =
  /(?:azure|openai|cognitive|ocp-apim-subscription)[A-Za-z0-9_.-]{0,40}?key["']?\s*[:=]\s*["']?([0-9a-fA-F]{32})(?![A-Za-z0-9])/gi;
// a password in a URL's userinfo (RFC 3986 §3.2.1 deprecates it because it leaks), the user possibly empty (Redis)
export const URL_CREDENTIALS = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/?#@[\]]*:([^\s/?#@]+)@/g;
// Azure Storage / Service Bus connection-string keys (base64) and a shared access signature's `sig=` (URL-encoded)
export const AZURE_CONNECTION_KEY =
  /(?<![A-Za-z0-9])(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{20,}={0,2})|[?&\n]sig=([A-Za-z0-9%+/]{30,}(?:={0,2}|(?:%3D){0,2}))/g;
// a reference or a placeholder where the password would be: `${DB_PASS}`, `$PASS`, `<password>`, `***`, `%s`
export const URL_PLACEHOLDER = /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>|\*+|%s|\{\{[^}]*\}\})$/;
export const EMAIL =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g;
// what every email address or phone number the detector finds holds (an `@`, or a phone number's last two groups)
export const PII_SCREEN = /@|\d{3,4}[ -]\d{4}/;
// the same with its `@` or separator escaped, up to three times (`%40`, `%2540`, `555%20123%204567`), or a `+`
const ENCODED_PII_SCREEN = /%(?:25){0,2}40|\d{3,4}(?:%(?:25){0,2}(?:20|2[dD])|\+)\d{4}/;

/** False when `text` surely holds no email address or phone number, as written or read decoded (findSecrets). */
export function mayHoldPii(text: string): boolean {
  return PII_SCREEN.test(text) || (text.indexOf('%') >= 0 && ENCODED_PII_SCREEN.test(text));
}
export const PHONE = /(?<![\w+])(?:\+\d{1,3}[ -]?)?(?:\(\d{1,4}\)[ -]?|\d{2,4}[ -])\d{3,4}[ -]\d{4}(?!\w)/g;

// A text none of whose matches can start: every pattern above opens with one of these literals or needs one (PEM, its
// space also as a form's `+`, read as a space by the decoded view of secret-encoded.ts; a
// Discord webhook's `://`, 1Password's `eyJ`, age's `SECRET`, a Telegram token's `:AA`, an Entra ID secret's
// `Q~`; a secret name's `_sk`, `_pass`, `-pwd`). The first three characters of each and up to five literal ones after them are what the AHP screen
// (src/ahp/secret-screen.ts) tests for, so an opening that starts like common words (`ata`, `lin`, `ppl`) costs
// only where its tail follows.
// Grouped by first letter, so a position is tried against one group rather than all thirty (half the time a string;
// test/core/secret-screen.test.ts holds it to the flat list).
export const SECRET_OPENINGS =
  /-----BEGIN[ +]|A(?:KIA|SIA|BIA|CCA|3T|uthorization|pi[_-]?key|Iza|zure|ccountKey=|TATT3|ws[_-]sk)|b(?:earer|asic)|p(?:ass(?:w(?:or)?d|code|[_-]?phrase)|rivate[_-]?key|in(?:[:="' _-]|code)|ypi-AgE|mak-|plx-)|l(?:in_api_|tai)|Q~[A-Za-z0-9_~.-]|s(?:ecret|igning[_-]?key|shpass|k(?:[-_]|[0-9a-f][0-9a-f]{31})|ntry[su]_|bp_|q0(?:atp|csp)-|g\.[A-Za-z0-9_-]{22}\.|h(?:aredAccessKey=|p(?:at|ca|pa|ss)_)|ig=)|token|e(?:yJ|k[-_]|ncryption[_-]?key)|g(?:h[pousr]_|ithub_pat_|l(?:[a-z]+-|sa_|c_)|R1348941|ocspx-|sk_)|x(?:ox|app-|ai-)|h(?:ooks\.slack\.com\/|f_|v[sbr]\.)|r(?:k[-_]|8_|ediscli[_-]auth)|whsec_|master[_-]?key|_(?:auth|sk)|[_-](?:pwd|pass)|JQQJ9|o(?:penai|cp-apim)|cognitive|:(?:\/\/|AA[A-Za-z0-9_-]{33})|ya29\.|npm_|key-[0-9a-z]{32}|d(?:o[por]_v1_|ckr_|api[0-9a-f])/i;

/**
 * False when `text` surely holds no match of a secret class (none of the literals the patterns open with, as written
 * or with its percent-encoded separators decoded): the screen {@link findSecrets} applies before its scan per class.
 * Not for the PII classes.
 */
export function mayHoldSecret(text: string): boolean {
  return SECRET_OPENINGS.test(text) || mayHoldEncodedSecret(text);
}

/** True when the decoded view of `text` (secret-encoded.ts) holds an opening: an `%`-escape may hide a separator. */
export function mayHoldEncodedSecret(text: string): boolean {
  if (text.indexOf('%') < 0) return false;
  const decoded = encodedText(text, true);
  return decoded !== undefined && SECRET_OPENINGS.test(decoded);
}
