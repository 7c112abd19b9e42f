/** What became of one check of a running service (`aep live`), as the library returns it and the reporters show it. */

/** One check: it ran and passed or failed, or it was skipped (and why); its findings counted by severity. */
export interface CheckOutcome {
  check: string;
  /** `failed`: it reported an error; `passed`: no error (warnings and infos counted beside); `skipped`: not run. */
  status: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped. */
  reason?: string;
  /** Run though not asked for (discovery: every run reads it first); it does not count as a check asked for that ran. */
  implicit?: true;
  errors: number;
  warnings: number;
  /** Infos, the skip's own not counted. */
  infos: number;
  /**
   * The bindings a check that ran left unjudged (`aep live`: aep/live-skipped `binding`), as its findings name them: it
   * passed, if it did, only over the rest, and reports say "partly judged", never "passed".
   */
  unjudged?: string[];
}
