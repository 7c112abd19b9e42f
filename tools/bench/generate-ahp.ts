/**
 * Synthetic AHP (draft) stdio streams for the benchmark: many interleaved sessions, each a
 * sequence of `hooks/intercept` requests with their responses (tool calls, configuration
 * changes, MCP elicitation requests and results with embedded elicitation bodies, inbound
 * and outbound messages) and `hooks/observe` notifications (tool.after, user.attention,
 * config.change.after, session end). Every message is valid; deterministic for a seed.
 */
import { LineWriter, prng } from './generate-aep.ts';

/** Options of {@link generateAhp}. */
export interface AhpGenOptions {
  /** Number of messages (lines) to write. */
  messages: number;
  /** Sessions open at once (interleaved). */
  concurrency?: number;
  seed?: number;
}

interface Session {
  id: string;
  source: string;
  script: Step[];
  at: number;
  /** id of the last intercepted event (its response follows) */
  pending: string;
  /** id of the last elicitation request / config change before (parents) */
  parent: string;
  call: string;
}

type Step = (s: Session) => string;

const text = (id: string, t: string) =>
  `{"id":"${id}","kind":"text","mediaType":"text/plain","selection":"body","text":${JSON.stringify(t)}}`;

const ELICIT_REQUEST = JSON.stringify({
  message: 'Choose a deployment target',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Service name', minLength: 1 },
      replicas: { type: 'integer', minimum: 1, maximum: 9 },
      region: { type: 'string', enum: ['us-east', 'eu-west', 'ap-south'] },
      staged: { type: 'boolean', default: true },
    },
    required: ['name', 'region'],
  },
});
const ELICIT_RESULT = JSON.stringify({
  action: 'accept',
  content: { name: 'billing-api', replicas: 3, region: 'eu-west', staged: true },
});

/**
 * Write `opts.messages` AHP wire messages to `path` (one per line, LF).
 * Returns the bytes written and the number of sessions started.
 */
export function generateAhp(path: string, opts: AhpGenOptions): { bytes: number; sessions: number } {
  const rnd = prng(opts.seed ?? 7);
  const w = new LineWriter(path);
  const concurrency = opts.concurrency ?? 300;
  let idn = 0;
  let sessions = 0;
  let clock = Date.UTC(2026, 7, 24, 8, 0, 0);
  const time = () => {
    clock += 1000 * (1 + Math.floor(rnd() * 3));
    return new Date(clock).toISOString().replace('.000Z', 'Z');
  };
  const nextId = () => `evt_${(++idn).toString(36).padStart(8, '0')}`;
  const env = (s: Session, id: string, type: string) =>
    `"id":"${id}","source":"${s.source}","type":"${type}","time":"${time()}","session":{"id":"${s.id}","cwd":"/repo","workspaceRoots":["/repo"]}`;
  const intercept = (s: Session, id: string, event: string, caps: string) => {
    s.pending = id;
    return `{"jsonrpc":"2.0","id":"${id}","method":"hooks/intercept","params":{"protocolVersion":"draft","event":{${event}},"capabilities":${caps}}}`;
  };
  const observe = (event: string) =>
    `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{${event}}}}`;

  const toolBefore: Step = (s) => {
    const id = nextId();
    s.call = 'call_' + id.slice(4);
    return intercept(
      s,
      id,
      `${env(s, id, 'tool.before')},"tool":{"name":"Bash","kind":"shell","input":{"command":"git push --force"},"origin":"native"},"extensions":{"org.w3c.trace_context":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}},"call":{"id":"${s.call}"},"path":"example"`,
      '{"effects":["deny"]}',
    );
  };
  const noEffect: Step = (s) =>
    `{"jsonrpc":"2.0","id":"${s.pending}","result":{"protocolVersion":"draft","effects":[]}}`;
  const deny: Step = (s) =>
    `{"jsonrpc":"2.0","id":"${s.pending}","result":{"protocolVersion":"draft","effects":[{"type":"deny","reason":"Force pushes are prohibited by organization policy.","code":"com.example.policy.force_push"}]}}`;
  const toolAfter: Step = (s) => {
    const id = nextId();
    return observe(
      `${env(s, id, 'tool.after')},"tool":{"name":"Bash","kind":"shell","input":{"command":"ls"},"origin":"native"},"outcome":"ok","execution":{"status":"executed"},"call":{"id":"${s.call}"},"path":"example","items":[]`,
    );
  };
  // a denied call does not run: its tool.after reports the denial (server/tool-interception.md §deny)
  const deniedAfter: Step = (s) => {
    const id = nextId();
    return observe(
      `${env(s, id, 'tool.after')},"tool":{"name":"Bash","kind":"shell","input":{"command":"ls"},"origin":"native"},"outcome":"denied","execution":{"status":"skipped","reason":"policy"},"call":{"id":"${s.call}"},"path":"example","items":[]`,
    );
  };
  const elicitRequest: Step = (s) => {
    const id = nextId();
    s.parent = id;
    return intercept(
      s,
      id,
      `${env(s, id, 'user.elicitation.request')},"elicitation":{"server":"deploy-tools","mode":"form","request":${text(id + '-req', ELICIT_REQUEST)}}`,
      '{"effects":["deny","message"],"elicitation":{"form":{}}}',
    );
  };
  const elicitResult: Step = (s) => {
    const id = nextId();
    return intercept(
      s,
      id,
      `${env(s, id, 'user.elicitation.result')},"parentEventId":"${s.parent}","elicitation":{"server":"deploy-tools","mode":"form","action":"accept","result":${text(id + '-res', ELICIT_RESULT)}}`,
      '{"effects":["modify","message"],"modify":{"content":{"replace":true,"merge":true}},"elicitation":{"form":{}}}',
    );
  };
  const modifyResponse: Step = (s) =>
    `{"jsonrpc":"2.0","id":"${s.pending}","result":{"protocolVersion":"draft","effects":[{"type":"modify","target":"content","operation":"merge","value":{"replicas":2}}]}}`;
  const attention: Step = (s) => {
    const id = nextId();
    return observe(
      `${env(s, id, 'user.attention')},"attention":{"kind":"idle","message":[${text(id + '-m', 'The agent is waiting for input.')}],"title":[${text(id + '-t', 'Waiting')}]}`,
    );
  };
  const configBefore: Step = (s) => {
    const id = nextId();
    s.parent = id;
    return intercept(
      s,
      id,
      `${env(s, id, 'config.change.before')},"change":{"source":"user","scope":"project","settings":["model"],"summary":"switch the default model"}`,
      '{"effects":["deny","message"]}',
    );
  };
  const configAfter: Step = (s) => {
    const id = nextId();
    return observe(
      `${env(s, id, 'config.change.after')},"parentEventId":"${s.parent}","change":{"source":"user","scope":"project","settings":["model"],"summary":"switch the default model"}`,
    );
  };
  const inbound: Step = (s) => {
    const id = nextId();
    return intercept(
      s,
      id,
      `${env(s, id, 'user.message.inbound')},"message":{"channel":"slack","sender":"U123","messages":[{"id":"${id}-m","role":"user","parts":[${text(id + '-p', 'Please deploy billing-api to staging.')}]}]}`,
      '{"effects":["deny","message"]}',
    );
  };
  const outbound: Step = (s) => {
    const id = nextId();
    return observe(
      `${env(s, id, 'user.message.outbound')},"message":{"channel":"slack","messages":[{"id":"${id}-m","role":"assistant","parts":[${text(id + '-p', 'Deployed billing-api to staging.')}]}]}`,
    );
  };
  const sessionEnd: Step = (s) => {
    const id = nextId();
    return observe(
      `"id":"${id}","source":"${s.source}","type":"session.end","time":"${time()}","session":{"id":"${s.id}"},"outcome":"completed","reason":"example"`,
    );
  };

  const newSession = (): Session => {
    const n = ++sessions;
    const script: Step[] = [];
    const turns = 1 + Math.floor(rnd() * 3);
    for (let t = 0; t < turns; t++) {
      script.push(inbound, noEffect);
      const tools = 1 + Math.floor(rnd() * 3);
      for (let k = 0; k < tools; k++) {
        const denied = rnd() < 0.2;
        script.push(toolBefore, denied ? deny : noEffect, denied ? deniedAfter : toolAfter);
      }
      if (rnd() < 0.6) script.push(elicitRequest, noEffect, elicitResult, modifyResponse);
      if (rnd() < 0.3) script.push(configBefore, noEffect, configAfter);
      if (rnd() < 0.3) script.push(attention);
      script.push(outbound);
    }
    script.push(sessionEnd);
    return {
      id: `sess_${n.toString(36)}`,
      source: `https://harness.example/runtime/${n % 11}`,
      script,
      at: 0,
      pending: '',
      parent: '',
      call: '',
    };
  };

  const pool: Session[] = [];
  for (let i = 0; i < concurrency; i++) pool.push(newSession());
  for (let m = 0; m < opts.messages; m++) {
    const k = Math.floor(rnd() * pool.length);
    const s = pool[k];
    if (m === opts.messages - 1 && isRequest(s.script[s.at])) {
      // no room for its response: end the stream with a notification instead
      w.line(sessionEnd(s));
      break;
    }
    w.line(s.script[s.at++](s));
    // a request and its response stay adjacent (one outstanding intercept per backend)
    if (s.at < s.script.length && isResponse(s.script[s.at]) && m + 1 < opts.messages) {
      w.line(s.script[s.at++](s));
      m++;
    }
    if (s.at === s.script.length) pool[k] = newSession();
  }
  w.close();
  return { bytes: w.bytes, sessions };

  function isRequest(step: Step): boolean {
    return (
      step === toolBefore ||
      step === elicitRequest ||
      step === elicitResult ||
      step === configBefore ||
      step === inbound
    );
  }

  function isResponse(step: Step): boolean {
    return step === noEffect || step === deny || step === modifyResponse;
  }
}
