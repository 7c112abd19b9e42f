/**
 * Reporter registry: `--format` names to reporter factories.
 */
import type { RuleMeta } from '../core/rule.ts';
import { jsonReporter } from './json.ts';
import { textReporter } from './text.ts';
import type { Output, ReportContext, Reporter } from './types.ts';

/** Formats `validate` accepts. */
export const FORMATS = ['text', 'json'] as const;
/** A `--format` value. */
export type FormatName = (typeof FORMATS)[number];

/** Create the reporter for `format`. `ctx.rules` is the protocol's rule catalogue. */
export function createReporter(format: FormatName, out: Output, ctx: ReportContext & { rules: readonly RuleMeta[] }): Reporter {
  switch (format) {
    case 'json':
      return jsonReporter(out, ctx);
    case 'text':
    default:
      return textReporter(out, ctx);
  }
}
