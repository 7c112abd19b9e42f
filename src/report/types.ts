/**
 * The reporter contract. Reporters turn findings and a summary into output text; they never
 * decide exit codes. DESIGN.md §Principles ("the core never prints").
 */
import type { Finding } from '../core/finding.ts';
import type { Summary } from '../core/summary.ts';

/** Where a reporter writes. */
export interface Output {
  write(chunk: string): void;
}

/** Context a reporter may need. */
export interface ReportContext {
  /** `aep` or `ahp`. */
  protocol: string;
  /** Tool version (package.json). */
  version: string;
  /** Colour output (text reporter only). */
  color: boolean;
  /** Suppress everything but errors... (text: only the summary line and errors). */
  quiet?: boolean;
}

/** A streaming reporter: `finding` as they come, `finish` once at the end. */
export interface Reporter {
  finding(f: Finding): void;
  finish(summary: Summary): void;
}
