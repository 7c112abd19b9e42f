import { defineEventRule } from '../../core/engine.ts';
import { CLASS_DESCRIPTIONS, HARDENING_SECRET_CLASSES } from '../../core/secrets.ts';
import type { AepEvent } from '../event.ts';
import { forEachLeak } from '../leaks.ts';

/** `aep/redaction-leak-provider`: an error, as the floor and as in `ahp validate` (its `detail` says why). */
export const redactionLeakProvider = defineEventRule({
  id: 'aep/redaction-leak-provider',
  severity: 'error',
  description:
    'At capture "redacted", redacted-gated free text holds no credential of a documented shape beyond the AEP-0003 §9.4 rule (a) patterns.',
  detail:
    'Provider access tokens (GitHub, GitLab, Slack, OpenAI/Anthropic sk-, Stripe, Google AIza/GOCSPX-/ya29., Azure AI/OpenAI and Storage/Service Bus connection-string keys and SAS signatures, npm, PyPI, Docker, Hugging Face, Twilio, SendGrid, Mailgun, DigitalOcean, Shopify, Databricks, Groq, xAI, Replicate, Vault, Sentry, age, Postman, Grafana, Supabase, 1Password, Square, Discord webhooks), AWS key ids other than AKIA (ASIA, ABIA, ACCA, A3T), HTTP Authorization credentials (Basic user:password, other schemes), unsigned two-segment JWTs, the password in a URL userinfo, a PIN or passcode, and a value assigned to a well-known secret name beyond the §9.4(a) words (passphrase, MYSQL_PWD, DB_PASS, a private or signing key, AWS_SK), which aep redact removes and the AHP credential rules flag. An error like aep/redaction-leak, not a warning: the §9.4 list is the floor of what a pipeline must apply, while `redacted` claims the text passed with its secrets redacted (AEP-0001 §8.2: "free text present with secrets/PII redacted"; rule (a) is "Secrets/credentials"), and a live credential left there is the post-emission incident §9 item 4 names; AHP forbids the same string in its payloads as an error, so one string gets one answer in both protocols. Each shape is a documented prefix or format (a near miss, a bare hash or UUID is none). Also cited: AEP-0003 §9 item 4, rule (a) "Secrets/credentials"; AEP-0001 §8.2 (`redacted`: "free text present with secrets/PII redacted"); AEP-0002 §5.1.',
  spec: 'AEP-0003 §9 item 4',
  quote: 'failures discovered post-emission are security incidents',
  messages: {
    leak: 'Field {field} is redacted-gated text at capture "redacted" but still holds {secret}, a credential that redaction must remove (AEP-0001 §8.2; a shape beyond the AEP-0003 §9.4 rule (a) patterns).',
  },
  check(ev: AepEvent, ctx) {
    forEachLeak(ev, HARDENING_SECRET_CLASSES, (field, cls) =>
      ctx.report({ pointer: field, args: { field, class: cls, secret: CLASS_DESCRIPTIONS[cls] } }),
    );
  },
});
