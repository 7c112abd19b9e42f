/** One stream of one protocol: parse, checker, framing citations stamped, visible messages, crashes contained. */
import type { Finding, FindingSink } from '../core/finding.ts';
import { aboutTheInput, framingFinding, reworded, UNREADABLE_LINE_RULES, withHint } from '../core/framing.ts';
import { DEFAULT_MAX_DEPTH } from '../core/json.ts';
import { type JsonlLine, readJsonl } from '../core/jsonl.ts';
import { sniffBinary } from '../core/binary.ts';
import { newStats, parseLine, type ProtocolChecker, type RunStats } from '../core/pipeline.ts';
import type { BinaryEncoding, ProtocolDefinition, ProtocolOptions, SingleMessageOptions } from '../core/protocol.ts';
import { findingAt, type ParsedEvent, RULE_ERROR, RuleCrashError } from '../core/rule.ts';
import { visibleFinding } from '../core/visible.ts';

/** The `jsonl/invalid-json` message of a single JSON document; its citation is RFC 8259's, not a line binding's. */
const DOCUMENT_JSON = 'document';

/** The options a stream check reads beyond the protocol's own. */
export interface StreamCheckOptions extends ProtocolOptions {
  /** Throw the {@link RuleCrashError} of a rule that throws instead of reporting it. */
  failFast?: boolean;
  /** Check each message alone against a named root, without stream rules (AHP). */
  single?: SingleMessageOptions;
}

/** One stream fed by line, document or value: the building block runInputs and the session API drive. */
export class StreamCheck {
  readonly stats: RunStats = newStats();
  incomplete = false;
  private readonly checker: ProtocolChecker;
  private readonly sink: FindingSink;
  private readonly maxDepth: number;
  private readonly acceptArrays: boolean;
  /** {@link ProtocolDefinition.documentLines} for this stream's options. */
  readonly documentLines: boolean;
  /** {@link ProtocolDefinition.binaryEncoding} for this stream's options. */
  readonly binaryEncoding: BinaryEncoding | undefined;
  readonly hint: ((text: string, source: string, framing: 'jsonl' | 'document') => string | undefined) | undefined;
  private lastError: { source: string; line: number } | undefined;
  private lastSource: string | undefined;
  private readonly crash: (e: RuleCrashError) => void;

  /** @param emit every finding of the stream @throws TypeError for an unknown rule id in `options.rules` */
  constructor(
    readonly def: ProtocolDefinition,
    options: StreamCheckOptions,
    emit: FindingSink,
    private readonly onCrash?: (e: RuleCrashError) => void,
    private readonly onEvent?: (ev: ParsedEvent, rejected: boolean) => void,
  ) {
    const framing = def.framingSpecs;
    const specs: Readonly<Record<string, string>> | undefined =
      typeof framing === 'function' ? framing(options) : framing;
    // framing findings carry the citation of this protocol's binding; no message leaves with a
    // raw invisible or control character
    const words = def.framingWords;
    this.sink = (found) => {
      const f = words ? reworded(found, words) : found;
      if (f.severity === 'error' && f.line !== undefined && !aboutTheInput(f))
        this.lastError = { source: f.source, line: f.line };
      // every route of a line that gives no event (reader, parse, document, gzip) ends here, in stream order
      if (f.line !== undefined && UNREADABLE_LINE_RULES.has(f.ruleId))
        this.checker.onUnreadable?.({ file: f.source, line: f.line });
      const own =
        specs?.[f.ruleId] !== undefined &&
        !(f.ruleId === 'jsonl/invalid-json' && f.messageId?.startsWith(DOCUMENT_JSON));
      emit(visibleFinding(own ? { ...f, spec: specs[f.ruleId]! } : f));
    };
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.acceptArrays = def.acceptArrays?.(options) ?? false;
    this.documentLines = def.documentLines?.(options) ?? false;
    this.binaryEncoding = def.binaryEncoding?.(options);
    const hint = def.bindingHint;
    this.hint = hint ? (text, source, framing) => hint(text, source, framing, options) : undefined;
    const failFast = options.failFast === true;
    this.crash = (e) => {
      if (failFast) throw e;
      this.crashed(e);
    };
    this.checker = def.checker(options, { sink: this.sink, stats: this.stats, crash: this.crash });
  }

  /** The findings sink of this stream (framing citation, visible messages), for the reader. */
  get findingSink(): FindingSink {
    return this.sink;
  }

  private crashed(e: RuleCrashError): void {
    this.incomplete = true;
    const ev = e.event;
    const cause = e.cause instanceof Error ? `${e.cause.name}: ${e.cause.message}` : String(e.cause);
    // a rule has an id with a slash; an analyzer or a checker is named in words, e.g. "AEP checker"
    const kind = e.ruleId.includes('/') ? 'rule' : 'component';
    const loc = ev
      ? { source: ev.source, line: ev.line, byteOffset: ev.byteOffset, pointer: '' }
      : { source: this.lastSource ?? '<input>' };
    this.sink(
      findingAt(RULE_ERROR, loc, ev ? kind : `${kind}AtEnd`, {
        rule: e.ruleId,
        component: e.ruleId.replace(/[()]/g, ''),
        cause,
      }),
    );
    this.onCrash?.(e);
  }

  /** Check one parsed event (or a value with no text: the single-message check). */
  event(ev: ParsedEvent): void {
    this.stats.events++;
    this.lastSource = ev.source;
    try {
      this.checker.onEvent(ev);
    } catch (e) {
      if (e instanceof RuleCrashError) throw e; // failFast
      // a schema stage or checker bug outside any rule: contained like a rule's
      this.crash(new RuleCrashError(`${this.def.name} checker`, `${ev.source}:${ev.line}`, e, ev));
    }
    this.onEvent?.(ev, this.rejected(ev));
  }

  /** Parse and check one line record; `reread` reads an earlier line of the same input back. */
  line(
    line: JsonlLine,
    reread?: (byteOffset: number) => string | undefined,
    parseSink: FindingSink = this.sink,
    onParsed?: () => void,
  ): ParsedEvent | undefined {
    const ev = parseLine(line, parseSink, this.maxDepth, this.acceptArrays);
    if (!ev) return undefined;
    // held framing findings of the line reach the sink before the line is checked, so they count against it
    onParsed?.();
    if (reread) ev.reread = reread;
    this.event(ev);
    return ev;
  }

  /** True when the line of `ev` has an error finding (framing, parse or a rule). */
  rejected(ev: Pick<ParsedEvent, 'source' | 'line'>): boolean {
    return this.lastError !== undefined && this.lastError.source === ev.source && this.lastError.line === ev.line;
  }

  /** One whole-document input (an HTTP body, a registration file): pretty-printing allowed. */
  async document(source: string, buf: Buffer): Promise<ParsedEvent | undefined> {
    const sniff = sniffBinary(buf);
    if (sniff) {
      const at = { source, line: 1, column: 1, byteOffset: 0 };
      this.sink(framingFinding('jsonl/binary-input', at, sniff.messageId, sniff.args));
      return undefined;
    }
    const dec = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    let text: string;
    try {
      text = dec.decode(buf);
    } catch {
      // reuse the JSONL reader's exact UTF-8 diagnostics
      let invalid = false;
      await readJsonl(
        [buf],
        source,
        () => undefined,
        (f) => {
          if (f.ruleId !== 'jsonl/invalid-utf8') return;
          invalid = true;
          this.sink(f);
        },
        { maxLineBytes: buf.length },
      );
      // valid UTF-8 that still does not decode: too long for one string (a cap set very high)
      if (!invalid)
        this.sink(
          framingFinding('jsonl/line-too-long', { source, line: 1, column: 1, byteOffset: 0 }, 'undecodable', {
            bytes: buf.length,
          }),
        );
      return undefined;
    }
    return this.documentText(source, text, buf.length);
  }

  /**
   * One decoded whole-document text of `byteLength` bytes: a file's (line 1, offset 0), or a session's next, whose
   * first line is `at.line` at byte `at.byteOffset` (its findings placed there, as in a file of the session's texts).
   */
  documentText(
    source: string,
    text: string,
    byteLength: number,
    at: { line: number; byteOffset: number } = { line: 1, byteOffset: 0 },
  ): ParsedEvent | undefined {
    let offset = 0;
    if (text.charCodeAt(0) === 0xfeff) {
      this.sink(
        framingFinding('jsonl/bom', { source, line: at.line, column: 1, byteOffset: at.byteOffset }, 'document'),
      );
      text = text.slice(1);
      offset = 3;
    }
    if (text === '' && this.checker.emptyDocument?.(source)) return undefined;
    if (text.trim() === '') {
      const where =
        at.line === 1 ? { source, byteOffset: at.byteOffset } : { source, line: at.line, byteOffset: at.byteOffset };
      this.sink(framingFinding('jsonl/empty-input', where, 'emptyDocument'));
      return undefined;
    }
    this.stats.lines += text.split('\n').length;
    // a parse failure of a text that another binding reads says which (ProtocolDefinition.bindingHint)
    const hinted = (f: Finding): Finding => {
      if (f.ruleId !== 'jsonl/invalid-json') return f;
      // the JSONL messages (a multi-line value? a lone CR?) speak of lines; a document has none
      const { ruleId: _r, severity: _s, message: _m, spec: _p, messageId: _k, related: _rel, args, ...loc } = f;
      const doc = { ...framingFinding('jsonl/invalid-json', loc, DOCUMENT_JSON, args), spec: 'RFC 8259 §2' };
      const sentence = this.hint?.(text, source, 'document');
      return sentence === undefined ? doc : withHint(doc, sentence);
    };
    const ev = parseLine(
      {
        source,
        line: at.line,
        byteOffset: at.byteOffset + offset,
        text,
        byteLength: byteLength - offset,
        unterminated: false,
      },
      (f: Finding) => this.sink(relocate(hinted(f), text, offset, at)),
      this.maxDepth,
      this.acceptArrays,
    );
    if (ev) this.event(ev);
    return ev;
  }

  end(): void {
    try {
      this.checker.end();
    } catch (e) {
      if (e instanceof RuleCrashError) throw e; // failFast
      this.crash(new RuleCrashError(`${this.def.name} checker`, 'end of input', e));
    }
  }
}

/** Turn a single-line location (column = index + 1 in a multi-line document) into line/column. */
function relocate(f: Finding, text: string, offset: number, at: { line: number; byteOffset: number }): Finding {
  if (f.column === undefined) return f;
  const idx = f.column - 1;
  let line = at.line;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < idx; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return {
    ...f,
    line,
    column: idx - lineStart + 1,
    byteOffset: at.byteOffset + offset + Buffer.byteLength(text.slice(0, idx), 'utf8'),
  };
}

/** True when `buf` is not one JSON document but its first non-blank line is one (JSON lines). */
export function jsonLines(buf: Buffer | string): boolean {
  const text = typeof buf === 'string' ? buf : buf.toString('utf8');
  try {
    JSON.parse(text);
    return false;
  } catch {
    const first = text.split('\n').find((l) => l.trim() !== '');
    if (first === undefined) return false;
    try {
      JSON.parse(first);
      return true;
    } catch {
      return false;
    }
  }
}
