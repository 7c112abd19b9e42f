/**
 * Spec citations to URLs (SARIF `helpUri`, `explain`, RULES.md): the first `;`-separated citation is linked. `AEP-000N
 * §x` at the pinned AEP commit with anchors from spec-anchors.json; `AHP <path> §<heading>` by GitHub slug; `MCP`; `RFC
 * NNNN §X`.
 */
import { readFileSync } from 'node:fs';
import { codeUrl } from '../core/paths.ts';

/** Base of the AEP spec documents (repository at the commit the rules were written from). */
const AEP_SPEC_BASE = 'https://github.com/agenteventprotocol/agent-event-protocol/blob/1d959a0/spec/';
const AHP_SPEC_BASE = 'https://github.com/agenthooksprotocol/agent-hooks-protocol/blob/main/spec/draft/';
const MCP_ELICITATION_URL = 'https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation';

/** AEP document file names by number. */
export const AEP_DOCS: Readonly<Record<string, string>> = {
  'AEP-0001': 'AEP-0001-core-and-envelope.md',
  'AEP-0002': 'AEP-0002-taxonomy-and-types.md',
  'AEP-0003': 'AEP-0003-bindings-and-lifecycle.md',
  'AEP-0004': 'AEP-0004-control-profile.md',
  'AEP-0005': 'AEP-0005-bridges.md',
  'AEP-0006': 'AEP-0006-structured-input-requests.md',
  'AEP-0007': 'AEP-0007-message-stream-subprofile.md',
  'AEP-0008': 'AEP-0008-text-answers-and-response-channels.md',
  'AEP-0009': 'AEP-0009-assessment.md',
};

/** `{ "AEP-0001": { "5.2": "52-session-scoped-and-agent-scoped-events", ... } }`. */
export type SpecAnchors = Record<string, Record<string, string>>;

let anchors: SpecAnchors | undefined;

/** The generated section anchors (empty when the file is missing). */
function specAnchors(): SpecAnchors {
  if (anchors) return anchors;
  try {
    anchors = JSON.parse(readFileSync(codeUrl('generated/spec-anchors.json'), 'utf8')) as SpecAnchors;
  } catch {
    anchors = {};
  }
  return anchors;
}

/** Forget the cached anchors (after tools/gen-rules.ts rewrites the file). */
export function resetSpecAnchors(): void {
  anchors = undefined;
}

/** GitHub's anchor of a Markdown heading: lower case, punctuation but `-` and `_` removed, spaces to `-`. */
export function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The URL of a rule's primary citation, or `undefined` when it names no public document. */
export function specUrl(spec: string | undefined): string | undefined {
  // a library caller's own finding may cite nothing
  if (typeof spec !== 'string') return undefined;
  const first = spec.split(';')[0]!.trim();
  // \u00a7 for the section sign: one non-ASCII character makes V8 keep the whole CLI bundle's source at 2 bytes a unit
  let m = /^(AEP-\d{4})(?:\s+\u00a7\s*([0-9][0-9.]*[0-9]|[0-9]))?/.exec(first);
  if (m) {
    const doc = AEP_DOCS[m[1]!];
    if (!doc) return undefined;
    const anchor = m[2] ? specAnchors()[m[1]!]?.[m[2]] : undefined;
    return AEP_SPEC_BASE + doc + (anchor ? `#${anchor}` : '');
  }
  m = /^AHP\s+([a-z0-9/_-]+?)(?:\.md)?(?:\s+\u00a7([^,;]+))?(?:\s|,|\(|$)/i.exec(first);
  if (m) {
    // drop trailing notes such as "(AHP-RPC-001)" or "(capabilities.elicitation)"; keep a
    // date that is part of the heading, "MCP elicitation binding (2025-11-25)"
    let heading = m[2]?.trim();
    while (heading && /\s*\(([^()]*[A-Za-z][^()]*)\)$/.test(heading))
      heading = heading.replace(/\s*\(([^()]*)\)$/, '').trim();
    return `${AHP_SPEC_BASE}${m[1]}.md${heading ? `#${githubSlug(heading)}` : ''}`;
  }
  if (/^MCP\b/.test(first)) return MCP_ELICITATION_URL;
  m = /^RFC\s*(\d+)(?:\s+\u00a7\s*([0-9.]+[0-9]|[0-9]))?/.exec(first);
  if (m) return `https://www.rfc-editor.org/rfc/rfc${m[1]}${m[2] ? `#section-${m[2]}` : ''}`;
  return undefined;
}
