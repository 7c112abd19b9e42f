/**
 * Synthetic AEP 0.1 streams for the benchmark: golden-corpus-shaped events from many
 * interleaved sessions (runs, tool calls, permission requests and AEP-0006 forms with their
 * answers, acks and resolutions), sessions that end so stream state is released, and a few
 * agent-scoped heartbeats. Every generated event is valid (the bench measures the valid path;
 * a check run on a small stream asserts zero findings). Deterministic for a given seed.
 */
import { openSync, writeSync, closeSync } from 'node:fs';

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Buffered line writer (one `writeSync` per ~1 MiB). */
export class LineWriter {
  private parts: string[] = [];
  private size = 0;
  /** Bytes written so far (UTF-8; the generators only emit ASCII). */
  bytes = 0;
  private readonly fd: number;
  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }
  /** Append one line (a newline is added). */
  line(s: string): void {
    this.parts.push(s, '\n');
    this.size += s.length + 1;
    if (this.size >= 1 << 20) this.flush();
  }
  private flush(): void {
    if (!this.parts.length) return;
    const buf = Buffer.from(this.parts.join(''), 'utf8');
    writeSync(this.fd, buf);
    this.bytes += buf.length;
    this.parts = [];
    this.size = 0;
  }
  /** Flush and close. */
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A 26-character ULID-shaped id from a counter. */
function ulid(n: number): string {
  let s = '';
  let x = n;
  for (let i = 0; i < 12; i++) {
    s = B32[x % 32] + s;
    x = Math.floor(x / 32);
  }
  return '01JX9Y' + s + 'BENCHGEN';
}

interface Session {
  name: string;
  source: string;
  agent: string;
  seq: number;
  script: Step[];
  at: number;
  /** ids the script refers back to */
  last: string;
  start: string;
  run: string;
  req: string;
  cmd: string;
  ans: string;
  call: string;
  form: boolean;
}

type Step = (s: Session) => string;

/** Options of {@link generateAep}. */
export interface AepGenOptions {
  /** Number of events (lines) to write. */
  events: number;
  /** Sessions open at once (interleaved). */
  concurrency?: number;
  seed?: number;
}

/**
 * Write `opts.events` AEP events to `path`. Returns the bytes written and the number of
 * sessions started.
 */
export function generateAep(path: string, opts: AepGenOptions): { bytes: number; sessions: number } {
  const rnd = prng(opts.seed ?? 42);
  const w = new LineWriter(path);
  const concurrency = opts.concurrency ?? 400;
  let idn = 0;
  let sessionCount = 0;
  let clock = Date.UTC(2026, 6, 3, 10, 0, 0);
  const time = () => {
    clock += 1 + Math.floor(rnd() * 40);
    return new Date(clock).toISOString();
  };
  const nextId = () => ulid(++idn);
  const head = (s: Session, id: string, type: string, extra: string) =>
    `{"aep":"0.1","id":"${id}","type":"${type}"${extra},"time":"${time()}","source":"${s.source}","agent":"${s.agent}","session":"${s.name}"`;
  const seqd = (s: Session) => `,"seq":${s.seq++},"epoch":0`;

  const sessionStarted: Step = (s) => {
    const id = nextId();
    s.start = s.last = id;
    return `${head(s, id, 'session.started', '')}${seqd(s)},"severity":"info","capture":"metadata","acmeregion":"eu-1","data":{"client":{"name":"${s.agent}","version":"2.1.0"},"gen_ai.request.model":"claude-sonnet-5","parent":{"session":"s_root","run":"r_0001"}}}`;
  };
  const runStarted: Step = (s) => {
    const id = nextId();
    s.run = 'r_' + id.slice(10, 18);
    const line = `${head(s, id, 'run.started', '')},"run":"${s.run}"${seqd(s)},"cause":"${s.start}","capture":"metadata","data":{"trigger":"user"}}`;
    s.last = id;
    return line;
  };
  const toolRequested: Step = (s) => {
    const id = nextId();
    s.call = 't_' + (idn % 100000);
    const line = `${head(s, id, 'tool.requested', ',"subject":"Bash"')},"run":"${s.run}","step":"turn-3"${seqd(s)},"cause":"${s.last}","severity":"info","capture":"metadata","data":{"tool":{"name":"Bash","call_id":"${s.call}"},"args_digest":"a3f9c2d1e8b7a6f5a3f9c2d1e8b7a6f5"}}`;
    s.last = id;
    return line;
  };
  const toolCompleted: Step = (s) => {
    const id = nextId();
    const line = `${head(s, id, 'tool.completed', ',"subject":"Bash"')},"run":"${s.run}","step":"turn-3"${seqd(s)},"cause":"${s.last}","severity":"info","capture":"metadata","traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","data":{"tool":{"name":"Bash","call_id":"${s.call}"},"status":"success","duration_ms":${Math.floor(rnd() * 5000)},"gen_ai.usage.input_tokens":142,"gen_ai.usage.output_tokens":87}}`;
    s.last = id;
    return line;
  };
  const progress: Step = (s) => {
    const id = nextId();
    return `${head(s, id, 'progress.status', '')},"run":"${s.run}","step":"1"${seqd(s)},"capture":"redacted","data":{"message":"reading the registry","phase":"scan","percent":${Math.floor(rnd() * 100)}}}`;
  };
  const attentionRequested: Step = (s) => {
    const id = nextId();
    s.req = id;
    const data = s.form
      ? `{"kind":"form","prompt":"Configure the new service deployment","fields":[{"id":"name","type":"string","label":"Service name","required":true},{"id":"staged","type":"boolean","label":"Deploy to staging first?"},{"id":"replicas","type":"number","label":"Replicas","min":1,"max":9},{"id":"regions","type":"select","label":"Regions","multi":true,"choices":[{"id":"1","label":"us-east"},{"id":"2","label":"eu-west"},{"id":"3","label":"ap-south"}]},{"id":"db","type":"select","label":"Database","other":true,"choices":[{"id":"1","label":"PostgreSQL"},{"id":"2","label":"SQLite"}]}],"respond_via":["control"]}`
      : `{"kind":"permission","prompt":"Permission requested: Bash — rm -rf build/","options":[{"id":"allow","label":"Allow"},{"id":"deny","label":"Deny"}],"respond_via":["control"]}`;
    const line = `${head(s, id, 'attention.requested', ',"subject":"Bash"')},"run":"${s.run}"${seqd(s)},"cause":"${s.last}","severity":"notice","capture":"redacted","data":${data}}`;
    s.last = id;
    return line;
  };
  const attentionRouted: Step = (s) => {
    const id = nextId();
    return `{"aep":"0.1","id":"${id}","type":"attention.routed","subject":"${s.req}","time":"${time()}","source":"aep://host-b/agent/telegram-sink","agent":"telegram-sink","session":"${s.name}","cause":"${s.req}","capture":"metadata"}`;
  };
  const respond: Step = (s) => {
    const id = nextId();
    s.cmd = id;
    const answer = s.form
      ? `{"values":{"name":"billing-api","staged":true,"replicas":3,"regions":["1","3"],"db":"MariaDB"}}`
      : `{"option":"allow"}`;
    return `{"aep":"0.1","id":"${id}","type":"control.attention.respond","subject":"${s.req}","time":"${time()}","source":"aep://host-b/agent/telegram-sink","agent":"telegram-sink","session":"${s.name}","cause":"${s.req}","capture":"${s.form ? 'redacted' : 'metadata'}","data":{"answer":${answer}}}`;
  };
  const accepted: Step = (s) => {
    const id = nextId();
    return `${head(s, id, 'control.accepted', '')}${seqd(s)},"cause":"${s.cmd}","capture":"metadata"}`;
  };
  const answered: Step = (s) => {
    const id = nextId();
    s.ans = id;
    const answer = s.form
      ? `{"values":{"name":"billing-api","staged":true,"replicas":3,"regions":["1","3"],"db":"MariaDB"}}`
      : `{"option":"allow"}`;
    return `${head(s, id, 'attention.answered', `,"subject":"${s.req}"`)}${seqd(s)},"cause":"${s.cmd}","capture":"${s.form ? 'redacted' : 'metadata'}","data":{"answer":${answer},"via":"control"}}`;
  };
  const resolved: Step = (s) => {
    const id = nextId();
    const line = `${head(s, id, 'attention.resolved', `,"subject":"${s.req}"`)}${seqd(s)},"cause":"${s.ans}","capture":"metadata","data":{"resolution":"answered","latency_ms":${Math.floor(rnd() * 9000)}}}`;
    s.last = id;
    return line;
  };
  const runFinished: Step = (s) => {
    const id = nextId();
    const line = `${head(s, id, 'run.finished', '')},"run":"${s.run}"${seqd(s)},"cause":"${s.last}","capture":"metadata","data":{"duration_ms":69000,"gen_ai.usage.input_tokens":9214,"gen_ai.usage.output_tokens":3480}}`;
    s.last = id;
    return line;
  };
  const sessionEnded: Step = (s) => {
    const id = nextId();
    return `${head(s, id, 'session.ended', '')}${seqd(s)},"capture":"metadata","data":{"reason":"normal","duration_ms":119000,"runs":2}}`;
  };
  const attention = [attentionRequested, attentionRouted, respond, accepted, answered, resolved];

  const newSession = (): Session => {
    const n = ++sessionCount;
    const agent = n % 3 === 0 ? 'codex' : 'claude-code';
    const name = 's_' + n.toString(36);
    const script: Step[] = [sessionStarted];
    const runs = 1 + Math.floor(rnd() * 3);
    for (let r = 0; r < runs; r++) {
      script.push(runStarted);
      const tools = 1 + Math.floor(rnd() * 4);
      for (let t = 0; t < tools; t++) script.push(toolRequested, toolCompleted);
      if (rnd() < 0.5) script.push(...attention);
      if (rnd() < 0.5) script.push(progress);
      script.push(runFinished);
    }
    script.push(sessionEnded);
    return {
      name,
      source: `aep://host-${n % 7}/agent/${agent}/session/${name}`,
      agent,
      seq: 0,
      script,
      at: 0,
      last: '',
      start: '',
      run: '',
      req: '',
      cmd: '',
      ans: '',
      call: '',
      form: rnd() < 0.5,
    };
  };

  const pool: Session[] = [];
  for (let i = 0; i < concurrency; i++) pool.push(newSession());
  for (let e = 0; e < opts.events; e++) {
    if (e % 200 === 199) {
      const id = nextId();
      w.line(
        `{"aep":"0.1","id":"${id}","type":"agent.heartbeat","time":"${time()}","source":"aep://host-a/agent/claude-code","agent":"claude-code","data":{"tick":${e},"interval_ms":30000}}`,
      );
      continue;
    }
    const k = Math.floor(rnd() * pool.length);
    const s = pool[k];
    const step = s.script[s.at++];
    w.line(step(s));
    // the target acks a command at once (AEP-0004 §3 ack window: 10 s by default; with 400
    // interleaved sessions the next turn of this session would often come later than that)
    if (step === respond && e + 1 < opts.events) {
      w.line(s.script[s.at++](s));
      e++;
    }
    if (s.at === s.script.length) pool[k] = newSession();
  }
  w.close();
  return { bytes: w.bytes, sessions: sessionCount };
}
