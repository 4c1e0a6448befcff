import { createHash, randomBytes } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { classifyFromTools, type ExplainingClassifier, type ToolDeclaration } from '../classify/index.js';
import {
  createSafetySession,
  hasVerificationEvidence,
  SafetyInputError,
  settleToolCall,
  TOOL_KINDS,
  type BlockReasonCode,
  type FSMBlockedError,
  type SafetySession,
  type SessionRecorder,
  type ToolCallSettlement,
  type ToolCallStart,
  type ToolClassifier,
  type ToolKind,
} from '../index.js';
import type { CallDescriptor } from '../classifier.js';
import { withAnnotationTrust, type AnnotationTrust } from './annotationTrust.js';
import type { SharedGatewaySession } from './SharedGatewaySession.js';
import { isTooLarge } from './spawnMcpServer.js';

/** JSON-RPC error codes the gateway answers with. */
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_INVALID_PARAMS = -32602;
export const JSONRPC_INTERNAL_ERROR = -32603;
/** The MCP server went away before answering (the SDK's `ConnectionClosed`). */
export const JSONRPC_CONNECTION_CLOSED = -32000;

export interface McpGatewayOptions {
  /** Towards the client: the gateway is its MCP server (e.g. {@link createStdioServerTransport}). */
  upstream: Transport;
  /** Towards the real MCP server: the gateway is its client (e.g. the SDK's `StdioClientTransport`). */
  downstream: Transport;
  /** The safety session every tool call goes through. Default: a new one with `recorder`. */
  session?: SafetySession;
  /** Recorder of the default session (ignored when `session` is given). */
  recorder?: SessionRecorder;
  /**
   * A session kept outside this process (`createRedisGatewaySession` from `assistant-safety/redis`):
   * every decision is saved there before the call reaches the server, every end before the
   * gateway goes on, and the calls a gone gateway left in flight are ended as unknown outcomes
   * (see {@link SharedGatewaySession}). `session` and `recorder` are then unused.
   */
  sharedSession?: SharedGatewaySession;
  /** Classifier rules (the `createClassifier` format); they win over what the tools declare. */
  rules?: unknown;
  /** Opt in to the name-verb heuristic for tools that declare nothing (docs/classification.md). */
  nameVerbs?: boolean;
  /**
   * Replaces classification from declarations altogether: `(toolName, args, declaration) => kind`.
   * `rules` and `nameVerbs` are then unused.
   */
  classify?: (toolName: string, args: unknown, declaration: ToolDeclaration | undefined) => ToolKind;
  /** Diagnostics (one line each). Default: none. The stdio gateway writes them to stderr. */
  log?: (line: string) => void;
  /** How long a tools/call waits for the server's tool list before classifying without it. Default 10 s. */
  toolListTimeoutMs?: number;
  /**
   * How far the server's MCP annotations are believed: `all` (the default), `destructive-only`
   * (they can only make a tool stricter) or `none` (only `rules` make a tool anything but a write).
   */
  trustAnnotations?: AnnotationTrust;
  /**
   * How long a write the client cancelled stays in flight (so the next write is blocked
   * `WRITE_IN_FLIGHT`) while the server has not answered it. After that its outcome is
   * unknown: it must be verified. Default 30 s.
   */
  cancelGraceMs?: number;
  /**
   * Block reasons to put to the person behind the client (MCP elicitation), e.g.
   * `['NO_VALIDATED_TARGET', 'TARGET_NOT_VALIDATED']`: when the client declared the elicitation
   * capability, such a block becomes a question naming the tool, its targets and what is missing;
   * an accept attests the missing evidence (`session.attest(block, { by: 'mcp-client' })`) and the
   * gate is asked again. Otherwise, or on a decline, the client gets the blocked result. Default none.
   */
  escalate?: readonly BlockReasonCode[];
  /** How long an escalation waits for the client's answer before the call stays blocked. Default 5 min. */
  escalationTimeoutMs?: number;
}

/** A tool whose definition changed after the gateway pinned it. */
export interface ToolDefinitionChange {
  tool: string;
  /** `Date.now()` when the gateway saw the change. */
  at: number;
  /** What changed: `annotations`, `inputSchema`, or both. */
  changed: Array<'annotations' | 'inputSchema'>;
  annotations: { pinned: unknown; now: unknown };
}

/** Why a gateway stopped. */
export interface McpGatewayExit {
  reason: 'client-closed' | 'server-closed' | 'closed';
  /** Tool calls that were in flight (cancelled ones included) and were ended with an unknown outcome. */
  endedInFlight: number;
}

/** A running gateway. See {@link createMcpGateway}. */
export interface McpGateway {
  /** The session (with `sharedSession`: as it was at the last decision or end this gateway saved). */
  readonly session: SafetySession;
  /**
   * Starts the downstream transport, then the upstream one (with `sharedSession`, first loads the
   * session and ends the calls a gone gateway left in flight; rejects when it cannot be saved).
   */
  start(): Promise<void>;
  /** Stops both sides; in-flight calls are ended as failed. */
  close(): Promise<void>;
  /** Settles once, when either side closes or {@link McpGateway.close} is called. */
  readonly closed: Promise<McpGatewayExit>;
  /** The tools the server declared, as pinned when each was first listed. */
  readonly tools: ReadonlyMap<string, ToolDeclaration>;
  /** Tools whose definition changed after it was pinned, in the order seen (each counted once). */
  readonly definitionChanges: readonly ToolDefinitionChange[];
  /** The kind a call would get now, and why. */
  explain(toolName: string, args?: unknown): { kind: ToolKind; rule: string; detail: string };
}

interface GatedCall {
  callId: string;
  tool: string;
  kind: ToolKind;
  ended: boolean;
  /** Declared self-verifying by a rule: only then may its own result verify it. */
  selfVerifying?: true;
  args?: unknown;
}

/** What the gateway decides of a call before it runs: the kind and what the gate takes with it. */
type Explained = CallDescriptor & { rule: string; detail: string };

interface Pending {
  method: string;
  call?: GatedCall;
  /** The request's progress token, as a key of `progressOf`. */
  progress?: string;
}

/** What the gateway knows of a call being admitted. */
interface Admission {
  request: JSONRPCRequest;
  key: string;
  tracked: Pending;
  name: string;
  args: unknown;
  described: Explained;
  callId: string;
  /** Its id belongs to a cancelled call the session may still hold. */
  reused: boolean;
  start: ToolCallStart;
}

/** A cancelled call the server may still be running: held in flight until it answers or the grace period ends. */
interface Held {
  call: GatedCall;
  timer: ReturnType<typeof setTimeout>;
}

/** A thrown value's message, for a log line; never throws (a hostile value has none). */
function messageOf(e: unknown): string {
  try {
    return e instanceof Error ? e.message : String(e);
  } catch {
    return 'an unreadable thrown value';
  }
}

/** The SDK's request timeout: an MCP proxy between the gateway and the tool gave up waiting. */
const JSONRPC_REQUEST_TIMEOUT = -32001;

/**
 * A JSON-RPC error that says the call was cut off, not refused: a proxy in between (another
 * gateway) lost its server, or gave up waiting. The tool may have acted.
 */
function cutOff(error: unknown): boolean {
  const code = asObject(error)?.code;
  return code === JSONRPC_CONNECTION_CLOSED || code === JSONRPC_REQUEST_TIMEOUT;
}

const keyOf = (id: RequestId) => (typeof id === 'string' ? `s:${id}` : `n:${id}`);
const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;
const isNotification = (m: JSONRPCMessage): m is Extract<JSONRPCMessage, { method: string }> =>
  'method' in m && !('id' in m);
const asObject = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** Classifier rules whose outcome is the tool's alone, whatever the call's arguments. */
const ARGUMENT_FREE_RULES: ReadonlySet<string> = new Set(['kind', 'annotations', 'name-verb']);

/** JSON with object keys sorted, so equal definitions compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const o = asObject(value);
  if (o)
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** What is pinned of a tool: its annotations and a hash of its input schema. */
interface Pin {
  annotations: string;
  inputSchema: string;
  raw: unknown;
}
const pinOf = (tool: Record<string, unknown>): Pin => ({
  annotations: canonical(tool.annotations ?? null),
  inputSchema: createHash('sha256')
    .update(canonical(tool.inputSchema ?? null))
    .digest('hex'),
  raw: tool.annotations,
});

/** The part of a tool result that carries verification evidence (`structuredContent` or a text item), if any. */
function evidenceOf(result: Record<string, unknown>): unknown {
  if (hasVerificationEvidence(result.structuredContent)) return result.structuredContent;
  const content = Array.isArray(result.content) ? result.content : [];
  for (const item of content) {
    const o = asObject(item);
    if (o?.type === 'text' && typeof o.text === 'string' && hasVerificationEvidence(o.text)) return o.text;
  }
  return undefined;
}

/**
 * The safety machine in front of one MCP server, for one MCP session: a
 * transparent proxy between two MCP transports (requests, responses,
 * notifications, progress and cancellation pass through in both directions,
 * ids unchanged) in which every `tools/call` goes through the safety session.
 *
 * - A call begins when its request arrives and ends when the server's answer
 *   arrives (`isError: true` or a JSON-RPC error is a failed call); a read
 *   that verified the last write completes the verification (the tool loop's
 *   rule: `finishToolCall`).
 * - A blocked call never reaches the server: the client gets
 *   `{ isError: true, content: [{ type: 'text', text: <FSMBlockedError envelope JSON> }] }`,
 *   plus the envelope as `structuredContent` when the tool declares no output schema.
 * - Classification: `rules` win; then the tool's MCP annotations, as far as
 *   `trustAnnotations` believes them (`readOnlyHint: true` is a read,
 *   anything else a write). The gateway learns the declarations from the
 *   server's own `tools/list` and pins each tool's annotations and input
 *   schema when it first sees it: a tool whose definition changes later is
 *   a write (unless a rule names it), and the change is logged and listed in
 *   `definitionChanges`.
 * - A cancelled write stays in flight until the server answers it or
 *   `cancelGraceMs` ends; then its outcome is unknown and it must be verified.
 * - The server closing fails every request it has not answered (a JSON-RPC
 *   error) and ends the in-flight calls with an unknown outcome; the client
 *   closing closes the server.
 *
 * @example
 * const gateway = createMcpGateway({
 *   upstream: createStdioServerTransport(),
 *   downstream: spawnMcpServer('my-mcp-server'),
 *   session: createSafetySession({ recorder }),
 *   rules: { tools: { list_projects: 'resolve' } },
 * });
 * await gateway.start();
 * const exit = await gateway.closed; // { reason: 'client-closed', endedInFlight: 0 }
 */
export function createMcpGateway(options: McpGatewayOptions): McpGateway {
  const { upstream, downstream, log = () => undefined } = options;
  const shared = options.sharedSession;
  const local = shared
    ? undefined
    : (options.session ?? createSafetySession(options.recorder ? { recorder: options.recorder } : {}));
  /** The session as last seen: the local one, or the shared one as this gateway last saved it. */
  let lastSeen: SafetySession | undefined = local;
  /** Call ids on a shared session carry this gateway's own prefix: another gateway's client reuses request ids. */
  const callPrefix = shared ? `gw-${randomBytes(4).toString('hex')}:` : '';
  /** The shared session's loads and saves, in the order the gateway asked for them. */
  let chain: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(work: () => Promise<T>): Promise<T> => {
    const p = chain.then(work);
    chain = p.then(
      () => undefined,
      () => undefined,
    );
    return p;
  };
  const toolListTimeoutMs = options.toolListTimeoutMs ?? 10_000;
  const cancelGraceMs = options.cancelGraceMs ?? 30_000;
  const trust = options.trustAnnotations ?? 'all';
  const classifierOptions = { rules: options.rules, nameVerbs: options.nameVerbs };
  // Validates the rules now: a bad rules file fails before any traffic, naming the path.
  let classifier: ExplainingClassifier = classifyFromTools([], classifierOptions);

  const pending = new Map<string, Pending>();
  /** Cancelled writes the server has not answered, by request id. */
  const held = new Map<string, Held>();
  /** Ids of cancelled calls given up on: a late answer is dropped, and the id is not reused. */
  const retired = new Set<string>();
  /** Progress token → the request it reports on, so a transport with a stream per request (HTTP) routes it. */
  const progressOf = new Map<string, RequestId>();
  const own = new Map<string, (message: JSONRPCMessage) => void>();
  const ownPrefix = `assistant-safety-gateway:${globalThis.crypto.randomUUID()}:`;
  let ownSeq = 0;
  let reuses = 0;
  let serverHasTools = true;
  /** The declarations are a full listing, not outdated by a list_changed. */
  let listFresh = false;
  let listing: Promise<void> | undefined;
  let listAgain = false;
  let finished = false;
  let resolveClosed!: (exit: McpGatewayExit) => void;
  const closed = new Promise<McpGatewayExit>((resolve) => (resolveClosed = resolve));

  /** {@link describeCall}'s per-tool results; emptied whenever the server's tool list is learnt. */
  const describedByName = new Map<string, Explained>();
  /** Each tool's definition as first seen, and its declaration as the classifier uses it. */
  const pins = new Map<string, Pin>();
  const declarations = new Map<string, Record<string, unknown>>();
  const changes: ToolDefinitionChange[] = [];
  const changed = new Map<string, ToolDefinitionChange>();
  let listedOnce = false;

  const learn = (tools: unknown[]) => {
    // The declarations, pins or changes may move: what was worked out per tool is worked out again.
    describedByName.clear();
    const added: string[] = [];
    for (const tool of tools) {
      const o = asObject(tool);
      const name = o?.name;
      if (typeof name !== 'string' || name.length === 0) continue;
      const pin = pinOf(o!);
      const pinned = pins.get(name);
      if (!pinned) {
        pins.set(name, pin);
        // What MCP declares and the gateway uses: the name, the annotations, whether there is an output schema.
        // (A non-standard field such as `kind` in a server's list is not taken as a classification.)
        const { annotations, outputSchema } = o!;
        declarations.set(
          name,
          withAnnotationTrust(
            {
              name,
              ...(asObject(annotations) && { annotations }),
              ...(outputSchema !== undefined && { outputSchema }),
            },
            trust,
          ),
        );
        added.push(name);
        continue;
      }
      if (changed.has(name)) continue;
      const what: ToolDefinitionChange['changed'] = [];
      if (pinned.annotations !== pin.annotations) what.push('annotations');
      if (pinned.inputSchema !== pin.inputSchema) what.push('inputSchema');
      if (what.length === 0) continue;
      const change: ToolDefinitionChange = {
        tool: name,
        at: Date.now(),
        changed: what,
        annotations: { pinned: pinned.raw, now: o!.annotations },
      };
      changed.set(name, change);
      changes.push(change);
      log(
        `tool ${name} changed its ${what.join(' and ')} after it was pinned (annotations ${JSON.stringify(pinned.raw ?? null)} -> ${JSON.stringify(o!.annotations ?? null)}): it is a write from now on unless a rule names it (definition changes: ${changes.length})`,
      );
    }
    if (added.length === 0) return;
    try {
      classifier = classifyFromTools([...declarations.values()], classifierOptions);
    } catch (e) {
      // A malformed declaration must not make anything a read: classify without declarations.
      log(`the server's tool list cannot be used (${messageOf(e)}); its tools are classified as undeclared`);
      classifier = classifyFromTools([], classifierOptions);
    }
    for (const name of added) {
      const { kind, detail, rule } = explainNow(name);
      if (listedOnce) log(`new tool ${name}: ${kind} (${detail})`);
      if (trust === 'none' && rule !== 'rules')
        log(`tool ${name} has no rules entry (--trust-annotations none): write`);
    }
    listedOnce = true;
  };

  const cannotWriteUp = (e: unknown) => log(`cannot write to the client: ${messageOf(e)}`);
  const sendUp = (message: JSONRPCMessage, relatedRequestId?: RequestId) =>
    upstream.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId }).catch(cannotWriteUp);
  const replyError = (id: RequestId, code: number, message: string) =>
    sendUp({ jsonrpc: '2.0', id, error: { code, message } });

  /** A request of the gateway's own to the server (the tool list); resolves with its answer. */
  const ask = (method: string, params?: Record<string, unknown>) =>
    new Promise<JSONRPCMessage>((resolve, reject) => {
      const id = `${ownPrefix}${ownSeq++}`;
      const timer = setTimeout(() => {
        own.delete(id);
        reject(new Error(`${method}: no answer within ${toolListTimeoutMs} ms`));
      }, toolListTimeoutMs);
      own.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      downstream.send({ jsonrpc: '2.0', id, method, ...(params && { params }) }).catch((e: unknown) => {
        clearTimeout(timer);
        own.delete(id);
        reject(e as Error);
      });
    });

  const listOnce = async () => {
    const tools: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await ask('tools/list', cursor === undefined ? undefined : { cursor });
      const result = 'result' in answer ? asObject(answer.result) : undefined;
      if (!result) throw new Error(`tools/list failed: ${JSON.stringify('error' in answer ? answer.error : answer)}`);
      if (Array.isArray(result.tools)) tools.push(...(result.tools as unknown[]));
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
    } while (cursor !== undefined && ++pages < 1000);
    learn(tools);
    listFresh = true;
  };

  /** Lists the server's tools (every page) and pins what is new; a list_changed during a listing lists again. */
  const fetchTools = () => {
    listing ??= (async () => {
      do {
        listAgain = false;
        await listOnce();
      } while (listAgain && !finished);
    })()
      .catch((e: unknown) => log(`could not list the server's tools: ${messageOf(e)}`))
      .finally(() => (listing = undefined));
    return listing;
  };

  const classify = (name: string, args: unknown): ToolKind => {
    if (!options.classify) return classifier(name, args);
    let kind: unknown;
    try {
      kind = options.classify(name, args, classifier.tools.get(name));
    } catch (e) {
      log(`the classifier threw for ${name}: ${messageOf(e)}; classified as write`);
      return 'write';
    }
    return (TOOL_KINDS as readonly unknown[]).includes(kind) ? (kind as ToolKind) : 'write';
  };

  /**
   * What a call to `name` is, for its admission: {@link explainNow}, kept per tool when nothing of
   * the call's arguments goes into it (a tool's declared kind, its annotations, its name's verb).
   */
  function describeCall(name: string, args: unknown): Explained {
    const known = describedByName.get(name);
    if (known) return known;
    const described = explainNow(name, args);
    if (!options.classify && ARGUMENT_FREE_RULES.has(described.rule)) describedByName.set(name, described);
    return described;
  }

  function explainNow(name: string, args?: unknown): Explained {
    let base: Explained;
    if (options.classify) base = { kind: classify(name, args), rule: 'classify', detail: 'the classify option' };
    else {
      const { tool: _tool, ...explained } = classifier.explain(name, args);
      base = explained;
    }
    // MCP's openWorldHint: the tool's output is open-world content (the web, mail): seen, never validated.
    const openWorld = asObject(pins.get(name)?.raw)?.openWorldHint === true;
    if (openWorld && base.trust === undefined) base = { ...base, trust: 'untrusted' };
    const change = changed.get(name);
    if (!change || base.rule === 'rules') return base;
    const { selfVerifying: _selfVerifying, ...rest } = base;
    return {
      ...rest,
      kind: 'write',
      rule: 'pinned',
      detail: `pinned: its ${change.changed.join(' and ')} changed after it was pinned, so write (fail closed; a rule can name it)`,
    };
  }

  /** Whether the client said, at initialize, that it can answer elicitation requests. */
  let clientElicits = false;
  const escalate = new Set<string>(options.escalate ?? []);
  const escalationTimeoutMs = options.escalationTimeoutMs ?? 5 * 60_000;

  /** Asks the client's user (MCP elicitation) to attest what `block` says is missing; true when attested. */
  async function escalateBlock(block: FSMBlockedError, request: JSONRPCRequest, name: string): Promise<boolean> {
    const targets = block.targets?.length ? ` on ${block.targets.join(', ')}` : '';
    const missing =
      block.required === 'validated_target'
        ? `no validated target${targets}: nothing in this session has looked it up`
        : 'the last write has not been verified';
    const id = `${ownPrefix}${ownSeq++}`;
    const answer = await new Promise<JSONRPCMessage | undefined>((resolve) => {
      const timer = setTimeout(() => {
        fromClient.delete(id);
        resolve(undefined);
      }, escalationTimeoutMs);
      fromClient.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      void sendUp(
        {
          jsonrpc: '2.0',
          id,
          method: 'elicitation/create',
          params: {
            message: `The agent wants to run the tool "${name}"${targets}, and the safety gate blocked it (${block.reasonCode}): ${missing}. Attest that it is right to go ahead?`,
            requestedSchema: {
              type: 'object',
              properties: {
                attest: {
                  type: 'boolean',
                  title: 'Attest',
                  description: `I vouch for what is missing (${block.required}) and let "${name}" run`,
                },
              },
              required: ['attest'],
            },
          },
        },
        request.id,
      );
    });
    const result = answer && 'result' in answer ? asObject(answer.result) : undefined;
    const accepted = result?.action === 'accept' && asObject(result.content)?.attest === true;
    log(`escalated ${name} (${block.reasonCode}): ${accepted ? 'attested by the client' : 'not attested'}`);
    return accepted;
  }

  /** Ends the calls a gone gateway left in flight: their outcome is unknown (a write must be verified). */
  function endOrphans(s: SafetySession, orphaned: readonly string[]) {
    for (const id of orphaned) {
      if (!(id in s.context.calls) && !(id in s.context.shadowCalls)) continue;
      s.endToolCall({ id, ok: false, unknown: true });
      log(`call ${id} was left in flight by a gateway that is gone: its outcome is unknown, it must be verified`);
    }
  }

  /** On a shared session: ends the orphaned calls, then runs `fn`, all in one save. */
  async function sharedDecision<T>(sharedSession: SharedGatewaySession, fn: (s: SafetySession) => T): Promise<T> {
    const orphaned = await sharedSession.orphans();
    const value = await sharedSession.withSession((s) => {
      endOrphans(s, orphaned);
      const v = fn(s);
      lastSeen = s;
      return v;
    });
    await Promise.all(orphaned.map((id) => sharedSession.release(id, true)));
    return value;
  }

  const decideOn = (s: SafetySession, start: ToolCallStart, attested: FSMBlockedError | undefined) =>
    attested && !s.attest(attested, { by: 'mcp-client' }) ? attested : s.beginToolCall(start);

  /**
   * Asks the gate for a call (after attesting `attested`, an escalated block the client vouched for).
   * On a shared session the decision is saved (with the call claimed) before it is returned.
   */
  function decide(
    start: ToolCallStart,
    attested?: FSMBlockedError,
  ): FSMBlockedError | null | Promise<FSMBlockedError | null> {
    if (!shared) return decideOn(local!, start, attested);
    const run = (s: SafetySession) => decideOn(s, start, attested);
    return inOrder(async () => {
      await shared.claim(start.id);
      let blocked: FSMBlockedError | null;
      try {
        blocked = await sharedDecision(shared, run);
      } catch (e) {
        // The begin may have landed (a lost reply): the claim runs out, and the call is then orphaned.
        await shared.release(start.id, false).catch(() => undefined);
        throw e;
      }
      if (blocked) await shared.release(start.id, true).catch(() => undefined);
      return blocked;
    });
  }

  /** Changes the session: at once on a local one; on a shared one saved in order (logged if it cannot be). */
  function onSession(what: string, fn: (s: SafetySession) => void, callId: string) {
    const failed = (e: unknown) => log(`could not ${what} on the session: ${messageOf(e)}`);
    if (!shared) {
      try {
        fn(local!);
      } catch (e) {
        failed(e);
      }
      return;
    }
    void inOrder(async () => {
      try {
        await sharedDecision(shared, fn);
      } catch (e) {
        failed(e);
        // Not saved: the claim runs out, and the next gateway ends the call as an unknown outcome.
        await shared.release(callId, false).catch(() => undefined);
        return;
      }
      await shared.release(callId, true).catch((e: unknown) => log(`could not release ${callId}: ${messageOf(e)}`));
    });
  }

  const blockedResult = (declaration: ToolDeclaration | undefined, envelope: object) => ({
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    // structuredContent must match a declared output schema; the envelope only goes where none is declared.
    ...(asObject(declaration)?.outputSchema === undefined && { structuredContent: envelope }),
  });

  /**
   * The server's messages to the client, in order. On a shared session an answer waits until the
   * call's end is saved: when the client has an answer, every gateway on the session sees its end.
   */
  let upQueue: Promise<unknown> = Promise.resolve();
  const forwardUp = (message: JSONRPCMessage, relatedRequestId?: RequestId) => {
    if (!shared) return void sendUp(message, relatedRequestId);
    const saved = chain;
    upQueue = upQueue.then(() => saved).then(() => sendUp(message, relatedRequestId));
  };

  /** The admissions not finished yet (the last of them), or undefined when none is. */
  let admitting: Promise<void> | undefined;
  const queueAdmission = (next: Promise<void>) => {
    const tail: Promise<void> = next.then(() => {
      if (admitting === tail) admitting = undefined;
    });
    admitting = tail;
  };

  /** A failure in the gateway itself while admitting a call: the call ends as unknown and is answered with an error. */
  function failedAdmission(message: JSONRPCRequest, e: unknown) {
    log(`tools/call failed in the gateway: ${messageOf(e)}`);
    const p = untrack(message.id);
    if (p?.call) endUnknown(p.call);
    void replyError(message.id, JSONRPC_INTERNAL_ERROR, `assistant-safety gateway: ${messageOf(e)}`);
  }

  /** Admits a call (see {@link admit}); never throws, and what it returns never rejects. */
  function admitOne(message: JSONRPCRequest): Promise<void> | undefined {
    let admitted: Promise<void> | undefined;
    try {
      admitted = admit(message);
    } catch (e) {
      failedAdmission(message, e);
      return undefined;
    }
    return admitted?.catch((e: unknown) => failedAdmission(message, e));
  }

  /**
   * Admits a call: the gate decides it, then it is sent on to the server or answered. All of it
   * runs at once when nothing has to be waited for (a local session, the tool list known, no
   * escalation): then it returns the write's promise, or nothing. Otherwise it returns the
   * promise of the rest. Throws or rejects only on a failure in the gateway itself.
   */
  function admit(request: JSONRPCRequest): Promise<void> | undefined {
    const key = keyOf(request.id);
    // Cancelled while waiting, or the gateway stopped (which answered it).
    if (finished || !pending.has(key)) return;
    const params = asObject(request.params);
    const name = params?.name;
    if (typeof name !== 'string' || name.length === 0) {
      untrack(request.id);
      return replyError(request.id, JSONRPC_INVALID_PARAMS, 'tools/call: params.name: expected a non-empty string');
    }
    if (params?.task !== undefined) {
      untrack(request.id);
      return replyError(
        request.id,
        JSONRPC_INVALID_PARAMS,
        'tools/call: params.task: task-augmented tool calls are not supported by the assistant-safety gateway',
      );
    }
    if (serverHasTools && (listing || (!listFresh && !pins.has(name))))
      return fetchTools().then(() => admitListed(request, key, name, params?.arguments));
    return admitListed(request, key, name, params?.arguments);
  }

  /** {@link admit} once the server's tool list is known. */
  function admitListed(request: JSONRPCRequest, key: string, name: string, args: unknown): Promise<void> | undefined {
    if (finished || !pending.has(key)) return;
    const described = describeCall(name, args);
    // A reused id of a cancelled call the session may still hold gets a call id of its own.
    const reused = held.has(key) || retired.has(key);
    const callId = `${callPrefix}${String(request.id)}${reused ? `~${++reuses}` : ''}`;
    const start: ToolCallStart = {
      id: callId,
      kind: described.kind,
      tool: name,
      ...(described.targets && { targets: described.targets }),
      ...(described.stateOnly && { stateOnly: true }),
      ...(described.trust && { trust: described.trust }),
    };
    const a: Admission = { request, key, tracked: pending.get(key)!, name, args, described, callId, reused, start };
    let decided;
    try {
      // A local session decides at once: nothing (a cancellation) can come in between.
      decided = decide(start);
    } catch (e) {
      return refused(a, e);
    }
    if (decided instanceof Promise || (decided && clientElicits && escalate.has(decided.reasonCode)))
      return decideFurther(a, decided);
    return afterDecision(a, decided);
  }

  /** The gate's decision still to come (a shared session saving it) or to put to the client (escalation). */
  async function decideFurther(
    a: Admission,
    decided: FSMBlockedError | null | Promise<FSMBlockedError | null>,
  ): Promise<void> {
    const { request, key, name, callId } = a;
    let blocked;
    try {
      blocked = decided instanceof Promise ? await decided : decided;
      if (blocked && clientElicits && escalate.has(blocked.reasonCode)) {
        // A person may supply the missing evidence; the gate then decides the call again.
        if (await escalateBlock(blocked, request, name)) blocked = await decide(a.start, blocked);
        if (finished || !pending.has(key)) {
          if (!blocked) end({ callId, tool: name, kind: a.described.kind, ended: false });
          return;
        }
      }
    } catch (e) {
      return refused(a, e);
    }
    return afterDecision(a, blocked);
  }

  /** The gate refused to decide: bad input (the client is told), or a shared session that could not be saved. */
  function refused(a: Admission, e: unknown): Promise<void> {
    const { request, name } = a;
    if (!(e instanceof SafetyInputError) && !shared) throw e;
    untrack(request.id);
    if (e instanceof SafetyInputError)
      return replyError(request.id, JSONRPC_INVALID_REQUEST, `tools/call: ${e.message}`);
    log(`${name}: the shared session could not be saved: ${messageOf(e)}`);
    return replyError(
      request.id,
      JSONRPC_INTERNAL_ERROR,
      `assistant-safety gateway: the session could not be saved, so ${name} did not run: ${messageOf(e)}`,
    );
  }

  /** The gate has decided: a blocked call is answered; an allowed one goes to the server. */
  function afterDecision(a: Admission, blocked: FSMBlockedError | null): Promise<void> | undefined {
    const { request, key, name, described, callId } = a;
    const kind = described.kind;
    if (!blocked && (finished || !pending.has(key))) {
      // Cancelled (or the gateway stopped) while a shared session saved the decision: it never ran.
      end({ callId, tool: name, kind, ended: false });
      return;
    }
    if (blocked) {
      untrack(request.id);
      log(`blocked ${name} (${kind}): ${blocked.reasonCode}`);
      return sendUp({
        jsonrpc: '2.0',
        id: request.id,
        result: blockedResult(classifier.tools.get(name), blocked.toJSON()),
      });
    }
    const call: GatedCall = {
      callId,
      tool: name,
      kind,
      ended: false,
      args: a.args,
      ...(described.selfVerifying && { selfVerifying: true as const }),
    };
    if (a.reused) {
      // The server may still answer the cancelled call of this id: this one cannot be told apart.
      untrack(request.id);
      end(call);
      return replyError(
        request.id,
        JSONRPC_INVALID_REQUEST,
        `request id ${JSON.stringify(request.id)} belongs to a cancelled call the server may still answer: use a new id`,
      );
    }
    a.tracked.call = call;
    let sent: Promise<void>;
    try {
      sent = downstream.send(request);
    } catch (e) {
      notSent(request, call, e);
      return;
    }
    return sent.then(undefined, (e: unknown) => notSent(request, call, e));
  }

  /** The call could not be written to the server. */
  function notSent(request: JSONRPCRequest, call: GatedCall, e: unknown) {
    // The shared settle rule: a cut connection (EPIPE, ECONNRESET), a timeout or an unreadable
    // thrown value may have let the request through: unknown; an ordinary error is a failure.
    untrack(request.id);
    settle(call, { ok: false, error: e });
    forwardUp({
      jsonrpc: '2.0',
      id: request.id,
      error: { code: JSONRPC_CONNECTION_CLOSED, message: `the MCP server cannot be reached: ${messageOf(e)}` },
    });
  }

  /**
   * Ends a call by the one settle rule every harness uses (`settleToolCall`): a result is a
   * success (a tool declared self-verifying may verify itself, never with evidence its own
   * arguments carry), a thrown value is judged by `outcomeOfError`, and an unknown outcome of a
   * write must be verified.
   */
  function settle(call: GatedCall, settled: ToolCallSettlement | { ok: false; error: unknown }) {
    if (call.ended) return;
    call.ended = true;
    const settledCall = {
      id: call.callId,
      kind: call.kind,
      args: call.args,
      ...(call.selfVerifying && { selfVerifying: true }),
    };
    if (!shared) {
      // A local session: at once (no closure, no queue: this runs once per call).
      try {
        settleToolCall(local!, settledCall, settled);
      } catch (e) {
        log(`could not end ${call.tool} on the session: ${messageOf(e)}`);
      }
      return;
    }
    onSession(`end ${call.tool}`, (s) => settleToolCall(s, settledCall, settled), call.callId);
  }

  /** The tool reported failure (an `isError` result, a JSON-RPC error): nothing changed. */
  const end = (call: GatedCall) => settle(call, { ok: false });

  /** Cut off or gave up on: the tool may have acted (a write so ended must be verified). */
  const endUnknown = (call: GatedCall) => settle(call, { ok: false, unknown: true });

  /** How a call ended, as its answer says; `message` is a result or a JSON-RPC error. */
  function settlementOf(call: GatedCall, message: JSONRPCMessage): ToolCallSettlement {
    if ('result' in message) {
      const result = asObject(message.result) ?? {};
      if (result.isError === true) return { ok: false };
      // Only a self-verifying tool's result is read for evidence (`settleToolCall` looks at nothing else of it).
      return { ok: true, value: call.selfVerifying ? (evidenceOf(result) ?? result) : result };
    }
    // The server answered with more than could be read, or a proxy in between lost it: not known.
    if ('error' in message && (isTooLarge(message.error) || cutOff(message.error))) return { ok: false, unknown: true };
    return { ok: false };
  }

  /** Ends a call as its answer says; `answer` is a result or a JSON-RPC error. */
  const endByAnswer = (call: GatedCall, message: JSONRPCMessage) => settle(call, settlementOf(call, message));

  /**
   * A cancelled call: a read ends as failed now; a write stays in flight (so the next write is
   * blocked) until the server answers or the grace period ends, then its outcome is unknown.
   */
  function cancel(id: RequestId, call: GatedCall) {
    if (call.ended) return;
    if (call.kind !== 'write') return end(call);
    const key = keyOf(id);
    const timer = setTimeout(() => {
      held.delete(key);
      retired.add(key);
      log(
        `${call.tool}: the server did not answer the cancelled call ${JSON.stringify(id)} within ${cancelGraceMs} ms: its outcome is unknown, it must be verified`,
      );
      endUnknown(call);
    }, cancelGraceMs);
    timer.unref?.();
    held.set(key, { call, timer });
    log(`${call.tool}: cancelled by the client; held in flight until the server answers (at most ${cancelGraceMs} ms)`);
  }

  /** Remembers a request as pending, with its progress token if it has one. */
  const track = (request: JSONRPCRequest): Pending => {
    const token = asObject(asObject(request.params)?._meta)?.progressToken;
    const entry: Pending = { method: request.method };
    if (typeof token === 'string' || typeof token === 'number') {
      entry.progress = JSON.stringify(token);
      progressOf.set(entry.progress, request.id);
    }
    pending.set(keyOf(request.id), entry);
    return entry;
  };
  const untrack = (id: RequestId) => {
    const key = keyOf(id);
    const entry = pending.get(key);
    if (entry?.progress !== undefined) progressOf.delete(entry.progress);
    pending.delete(key);
    return entry;
  };

  /** Answers the client gives to the gateway's own requests (elicitation), by id. */
  const fromClient = new Map<string, (message: JSONRPCMessage) => void>();

  upstream.onmessage = (message: JSONRPCMessage) => {
    if (finished) return;
    if (!('method' in message) && typeof message.id === 'string' && message.id.startsWith(ownPrefix)) {
      const answer = fromClient.get(message.id);
      fromClient.delete(message.id);
      answer?.(message);
      return;
    }
    if (isRequest(message) && message.method === 'initialize')
      clientElicits = asObject(asObject(asObject(message.params)?.capabilities)?.elicitation) !== undefined;
    if (isRequest(message)) {
      const key = keyOf(message.id);
      if (pending.has(key)) {
        void replyError(
          message.id,
          JSONRPC_INVALID_REQUEST,
          `request id ${JSON.stringify(message.id)} is already in use`,
        );
        return;
      }
      if (message.method === 'tools/call') {
        // Pending from now on: a server crash or a cancellation while it waits for admission is seen.
        track(message);
        // With no call before it waiting or being admitted, admitted now; otherwise after those, in order.
        if (admitting) queueAdmission(admitting.then(() => admitOne(message)));
        else {
          const admitted = admitOne(message);
          if (admitted) queueAdmission(admitted);
        }
        return;
      }
      if (held.has(key) || retired.has(key)) {
        void replyError(
          message.id,
          JSONRPC_INVALID_REQUEST,
          `request id ${JSON.stringify(message.id)} belongs to a cancelled call the server may still answer: use a new id`,
        );
        return;
      }
      track(message);
      downstream.send(message).catch((e: unknown) => {
        untrack(message.id);
        void replyError(message.id, JSONRPC_CONNECTION_CLOSED, `the MCP server cannot be reached: ${messageOf(e)}`);
      });
      return;
    }
    if (isNotification(message) && message.method === 'notifications/cancelled') {
      const requestId = asObject(message.params)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        const p = untrack(requestId);
        if (p?.call) cancel(requestId, p.call);
      }
    }
    downstream.send(message).catch((e: unknown) => log(`cannot write to the MCP server: ${messageOf(e)}`));
    if (isNotification(message) && message.method === 'notifications/initialized' && serverHasTools) {
      // Learn the declarations before the first call needs them (once the server is initialised).
      void fetchTools();
    }
  };

  downstream.onmessage = (message: JSONRPCMessage) => {
    if (finished) return;
    if (!('method' in message) && message.id !== undefined) {
      if (typeof message.id === 'string' && message.id.startsWith(ownPrefix)) {
        const answer = own.get(message.id);
        own.delete(message.id);
        answer?.(message);
        return;
      }
      const key = keyOf(message.id);
      const wasHeld = held.get(key);
      if (wasHeld) {
        // The answer to a cancelled call: it ends the call; the client, which cancelled, gets nothing.
        clearTimeout(wasHeld.timer);
        held.delete(key);
        endByAnswer(wasHeld.call, message);
        log(`${wasHeld.call.tool}: the server answered the cancelled call ${JSON.stringify(message.id)}`);
        return;
      }
      if (retired.has(key))
        return void log(`dropped a late answer to the cancelled call ${JSON.stringify(message.id)}`);
      const p = untrack(message.id);
      if (p && 'result' in message) {
        const result = asObject(message.result) ?? {};
        if (p.method === 'initialize') serverHasTools = asObject(result.capabilities)?.tools !== undefined;
        if (p.method === 'tools/list' && Array.isArray(result.tools)) learn(result.tools as unknown[]);
      }
      if (p?.call && !shared) {
        // A local session: the answer goes to the client first, and the call ends in the same turn,
        // before the gateway handles any other message (the next call's decision sees the end), so
        // the client does not wait for the session's bookkeeping. The end is judged from the
        // answer as it arrived, before it is sent on.
        const settled = settlementOf(p.call, message);
        try {
          forwardUp(message);
        } finally {
          settle(p.call, settled);
        }
        return;
      }
      if (p?.call) endByAnswer(p.call, message);
    } else if (isNotification(message) && message.method === 'notifications/tools/list_changed') {
      // List again now, so changed definitions are seen (and new tools classified) before the next call.
      listFresh = false;
      listAgain = true;
      if (serverHasTools) void fetchTools();
    } else if (isNotification(message) && message.method === 'notifications/progress') {
      const token = asObject(message.params)?.progressToken;
      return forwardUp(message, progressOf.get(JSON.stringify(token)));
    }
    forwardUp(message);
  };

  const finish = async (reason: McpGatewayExit['reason']) => {
    if (finished) return;
    finished = true;
    let endedInFlight = 0;
    // Cut off mid-call: the tool may have acted. A write so ended must be verified.
    for (const [, p] of pending) {
      if (p.call && !p.call.ended) {
        endUnknown(p.call);
        endedInFlight++;
      }
    }
    for (const [, h] of held) {
      clearTimeout(h.timer);
      if (!h.call.ended) {
        endUnknown(h.call);
        endedInFlight++;
      }
    }
    held.clear();
    if (reason === 'server-closed') {
      // Every request the server did not answer gets an error, so no client waits forever.
      await Promise.all(
        [...pending.entries()].map(([key, p]) =>
          upstream
            .send({
              jsonrpc: '2.0',
              id: key.startsWith('n:') ? Number(key.slice(2)) : key.slice(2),
              error: {
                code: JSONRPC_CONNECTION_CLOSED,
                message: `the MCP server exited before answering ${p.method}${p.call ? ` (${p.call.tool})` : ''}`,
              },
            })
            .catch(() => undefined),
        ),
      );
    }
    pending.clear();
    // The ends are saved (a shared session) before the gateway says it stopped.
    await chain;
    await upQueue;
    for (const [, answer] of [...own, ...fromClient])
      answer({ jsonrpc: '2.0', id: 0, error: { code: JSONRPC_CONNECTION_CLOSED, message: 'closed' } });
    own.clear();
    fromClient.clear();
    await Promise.allSettled([
      reason === 'client-closed' ? Promise.resolve() : upstream.close(),
      reason === 'server-closed' ? Promise.resolve() : downstream.close(),
    ]);
    resolveClosed({ reason, endedInFlight });
  };

  upstream.onclose = () => void finish('client-closed');
  downstream.onclose = () => void finish('server-closed');
  upstream.onerror = (e) => log(`client transport: ${e.message}`);
  downstream.onerror = (e) => log(`server transport: ${e.message}`);

  return {
    get session() {
      return lastSeen!;
    },
    closed,
    get tools() {
      return classifier.tools;
    },
    definitionChanges: changes,
    explain: (toolName: string, args?: unknown) => explainNow(toolName, args),
    async start() {
      // A shared session: load it, and end what a gone gateway left in flight, before any traffic.
      if (shared) await inOrder(() => sharedDecision(shared, () => undefined));
      await downstream.start();
      await upstream.start();
    },
    async close() {
      await finish('closed');
    },
  };
}
