/** `--format` names to reporter factories; `satisfies` makes a format without a reporter a compile error. */
import { aepReportReporter } from './aep-report.ts';
import { fixtureGithubReporter, githubReporter } from './github.ts';
import { fixtureHtmlReporter, htmlReporter } from './html.ts';
import { fixtureJsonReporter, jsonReporter, ndjsonReporter } from './json.ts';
import { fixtureJunitReporter, junitReporter } from './junit.ts';
import { fixtureSarifReporter, sarifReporter } from './sarif.ts';
import { fixtureTextReporter, textReporter } from './text.ts';
import type { FixtureReporter, Output, ReportContext, Reporter } from './types.ts';

/** Formats `validate` accepts. */
export const FORMATS = ['text', 'json', 'ndjson', 'junit', 'sarif', 'github', 'html'] as const;
/** A `validate` `--format` value. */
export type FormatName = (typeof FORMATS)[number];

/** Formats `fixtures` accepts (`aep-report` only for `aep fixtures`; see {@link fixtureFormatsFor}). */
const FIXTURE_FORMATS = ['text', 'json', 'aep-report', 'junit', 'sarif', 'github', 'html'] as const;
/** A `fixtures` `--format` value. */
export type FixtureFormatName = (typeof FIXTURE_FORMATS)[number];

/** The fixture formats offered for a protocol: `aep-report` is an AEP report shape. */
export function fixtureFormatsFor(protocol: string): readonly FixtureFormatName[] {
  return protocol === 'aep' ? FIXTURE_FORMATS : FIXTURE_FORMATS.filter((f) => f !== 'aep-report');
}

type Factory<R> = (out: Output, ctx: ReportContext) => R;

const VALIDATE_REPORTERS = {
  text: textReporter,
  json: jsonReporter,
  ndjson: ndjsonReporter,
  junit: junitReporter,
  sarif: sarifReporter,
  github: githubReporter,
  html: htmlReporter,
} satisfies Record<FormatName, Factory<Reporter>>;

const FIXTURE_REPORTERS = {
  text: fixtureTextReporter,
  json: fixtureJsonReporter,
  'aep-report': aepReportReporter,
  junit: fixtureJunitReporter,
  sarif: fixtureSarifReporter,
  github: fixtureGithubReporter,
  html: fixtureHtmlReporter,
} satisfies Record<FixtureFormatName, Factory<FixtureReporter>>;

/** Create the `validate` reporter for `format` (unknown names fall back to text). `ctx.rules` is the protocol's rule catalogue. */
export function createReporter(format: FormatName, out: Output, ctx: ReportContext): Reporter {
  return (VALIDATE_REPORTERS[format] ?? textReporter)(out, ctx);
}

/** Create the `fixtures` reporter for `format` (unknown names fall back to text). */
export function createFixtureReporter(format: FixtureFormatName, out: Output, ctx: ReportContext): FixtureReporter {
  return (FIXTURE_REPORTERS[format] ?? fixtureTextReporter)(out, ctx);
}
