/** What a conformance case's file name says about how it is read (no protocol code: `explain` of either bin reads it). */

/** The `--from` of an AEP bridge case by its name: `*.ce.jsonl` CloudEvents, `*.otlp.jsonl` OTLP/JSON, else none. */
export function bridgeOfCaseName(name: string): 'cloudevents' | 'otlp' | undefined {
  return /\.ce\.jsonl?$/.test(name) ? 'cloudevents' : /\.otlp\.jsonl?$/.test(name) ? 'otlp' : undefined;
}

/** The `--profile` of an AEP case by its name: `*.aep-0007.jsonl` is checked with the AEP-0007 sub-profile. */
export function profileOfCaseName(name: string): 'aep-0007' | undefined {
  return /\.aep-0007\.jsonl?$/.test(name) ? 'aep-0007' : undefined;
}
