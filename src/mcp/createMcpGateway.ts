import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDeclaration } from '../classify/index.js';
import {
  callDigest,
  SafetyInputError,
  type FSMBlockedError,
  type SafetySession,
  type ToolCallStart,
} from '../index.js';
import { createAdmissionQueue } from './admissionQueue.js';
import { createElicitation } from './elicitation.js';
import { createGatewayPolicy, type GatedCall } from './gatewayPolicy.js';
import {
  asObject,
  idOfKey,
  isNotification,
  isRequest,
  JSONRPC_CONNECTION_CLOSED,
  JSONRPC_INTERNAL_ERROR,
  JSONRPC_INVALID_PARAMS,
  JSONRPC_INVALID_REQUEST,
  keyOf,
  messageOf,
} from './jsonRpc.js';
import { createCancelHolds, createOwnRequests, createRequestTracker, type Pending } from './requestTracking.js';
import type { McpGateway, McpGatewayExit, McpGatewayOptions } from './McpGatewayOptions.js';
import { createToolCatalogue, type Explained } from './toolCatalogue.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';
import { timerDelayProblem } from '../core/timerDelay.js';

/*
 * The gateway, split as the MCP SDK splits Protocol / Server / Transport: request tracking
 * (requestTracking.ts), the tool catalogue and pinning (toolCatalogue.ts), elicitation
 * (elicitation.ts), the admission queue (admissionQueue.ts) and the policy that decides and
 * settles each call (gatewayPolicy.ts). This file routes the messages between the two
 * transports and admits each tools/call through those pieces.
 */

/** The `_meta` key under which the gateway tells the client what the gate did with an answer. */
export const GATE_META = 'assistant-safety/gate';
/** The warning a client gets with a result whose end the shared session could not save. */
export const END_NOT_RECORDED =
  'assistant-safety gateway: this tool ran and this is its result, but the safety session could not record that it ended (its store is unreachable). Do not run it again: the next write is blocked until the session is reachable and this call is verified by a read.';

/** What the gateway knows of a call being admitted. */
interface Admission {
  request: JSONRPCRequest;
  key: string;
  tracked: Pending<GatedCall>;
  name: string;
  args: unknown;
  described: Explained;
  callId: string;
  /** Its id belongs to a cancelled call the session may still hold. */
  reused: boolean;
  start: ToolCallStart;
}

const OPTION_KEYS = keysOf<McpGatewayOptions>({
  upstream: true,
  downstream: true,
  session: true,
  recorder: true,
  sharedSession: true,
  rules: true,
  nameVerbs: true,
  classify: true,
  log: true,
  toolListTimeoutMs: true,
  trustAnnotations: true,
  cancelGraceMs: true,
  escalate: true,
  escalationTimeoutMs: true,
});

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
  // A misspelt `rules` or `trustAnnotations` would gate with defaults nobody chose.
  refuseUnknownOptions('createMcpGateway', options, OPTION_KEYS);
  for (const key of ['toolListTimeoutMs', 'cancelGraceMs', 'escalationTimeoutMs'] as const) {
    const problem = options[key] === undefined ? undefined : timerDelayProblem(options[key]);
    if (problem !== undefined) throw new TypeError(`createMcpGateway: options.${key}: ${problem}`);
  }
  const { upstream, downstream, log = () => undefined } = options;
  const toolListTimeoutMs = options.toolListTimeoutMs ?? 10_000;
  const cancelGraceMs = options.cancelGraceMs ?? 30_000;
  const ownPrefix = `assistant-safety-gateway:${globalThis.crypto.randomUUID()}:`;
  let finished = false;
  let reuses = 0;
  let resolveClosed!: (exit: McpGatewayExit) => void;
  const closed = new Promise<McpGatewayExit>((resolve) => (resolveClosed = resolve));

  const policy = createGatewayPolicy({
    session: options.session,
    recorder: options.recorder,
    sharedSession: options.sharedSession,
    log,
  });
  const pending = createRequestTracker<GatedCall>();
  /** Cancelled writes the server has not answered, by request id; then retired ids. */
  const held = createCancelHolds<GatedCall>();
  /** The gateway's own requests to the server (the tool list) and to the client (elicitation). */
  const toServer = createOwnRequests(ownPrefix);
  const toClient = createOwnRequests(ownPrefix);
  const admissions = createAdmissionQueue();

  const cannotWriteUp = (e: unknown) => log(`cannot write to the client: ${messageOf(e)}`);
  const sendUp = (message: JSONRPCMessage, relatedRequestId?: RequestId) =>
    upstream.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId }).catch(cannotWriteUp);
  const replyError = (id: RequestId, code: number, message: string) =>
    sendUp({ jsonrpc: '2.0', id, error: { code, message } });

  const catalogue = createToolCatalogue({
    rules: options.rules,
    nameVerbs: options.nameVerbs,
    classify: options.classify,
    trust: options.trustAnnotations ?? 'all',
    log,
    stopped: () => finished,
    // A shared session is loaded before any traffic; until then nothing is known of it.
    bindsTargets: () => (policy.session as SafetySession | undefined)?.context.config.targets === 'bind',
    async listPage(cursor) {
      const params = cursor === undefined ? undefined : { cursor };
      const answer = await toServer.request(toolListTimeoutMs, (id) =>
        downstream.send({ jsonrpc: '2.0', id, method: 'tools/list', ...(params && { params }) }),
      );
      if (!answer) throw new Error(`tools/list: no answer within ${toolListTimeoutMs} ms`);
      return answer;
    },
  });

  const elicitation = createElicitation({
    escalate: options.escalate ?? [],
    timeoutMs: options.escalationTimeoutMs ?? 5 * 60_000,
    log,
    ask: (params, timeoutMs, relatedRequestId) =>
      toClient.request(timeoutMs, (id) =>
        sendUp({ jsonrpc: '2.0', id, method: 'elicitation/create', params }, relatedRequestId),
      ),
  });

  const settle = policy.settle;
  /** The tool reported failure (an `isError` result, a JSON-RPC error): nothing changed. */
  const end = (call: GatedCall) => settle(call, { ok: false });
  /** Cut off or gave up on: the tool may have acted (a write so ended must be verified). */
  const endUnknown = (call: GatedCall) => settle(call, { ok: false, unknown: true });
  /** Ends a call as its answer says; `message` is a result or a JSON-RPC error. */
  const endByAnswer = (call: GatedCall, message: JSONRPCMessage) => settle(call, policy.settlementOf(call, message));

  /** The gate refused to decide: bad input (the client is told), or a shared session that could not be saved. */
  function refused(a: Admission, e: unknown): Promise<void> {
    const { request, name } = a;
    if (!(e instanceof SafetyInputError) && !policy.shared) throw e;
    pending.untrack(request.id);
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
      pending.untrack(request.id);
      log(`blocked ${name} (${kind}): ${blocked.reasonCode}`);
      return sendUp({
        jsonrpc: '2.0',
        id: request.id,
        result: blockedResult(catalogue.tools.get(name), blocked.toJSON()),
      });
    }
    const call: GatedCall = {
      callId,
      tool: name,
      kind,
      ended: false,
      args: a.args,
      ...(described.selfVerifying && { selfVerifying: true as const }),
      discover: (result) => catalogue.discover(name, result, a.args),
    };
    if (a.reused) {
      // The server may still answer the cancelled call of this id: this one cannot be told apart.
      pending.untrack(request.id);
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
    pending.untrack(request.id);
    settle(call, { ok: false, error: e });
    forwardUp({
      jsonrpc: '2.0',
      id: request.id,
      error: { code: JSONRPC_CONNECTION_CLOSED, message: `the MCP server cannot be reached: ${messageOf(e)}` },
    });
  }

  /**
   * A cancelled call: a read ends as failed now; a write stays in flight (so the next write is
   * blocked) until the server answers or the grace period ends, then its outcome is unknown.
   */
  function cancel(id: RequestId, call: GatedCall) {
    if (call.ended) return;
    if (call.kind !== 'write') return void end(call);
    held.hold(keyOf(id), call, cancelGraceMs, (expired) => {
      log(
        `${expired.tool}: the server did not answer the cancelled call ${JSON.stringify(id)} within ${cancelGraceMs} ms: its outcome is unknown, it must be verified`,
      );
      endUnknown(expired);
    });
    log(`${call.tool}: cancelled by the client; held in flight until the server answers (at most ${cancelGraceMs} ms)`);
  }

  /**
   * A tool's answer whose end the shared session could not save: the tool ran, so its real result
   * is kept (never turned into an error, which an agent would retry), with a warning text item and
   * `_meta` saying the gate could not record it (docs/mcp-gateway.md, "When Redis is gone mid-call").
   */
  const withEndNotRecorded = (message: JSONRPCMessage): JSONRPCMessage => {
    const result = 'result' in message ? asObject(message.result) : undefined;
    if (!result) return message;
    const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
    return {
      ...message,
      result: {
        ...result,
        content: [...content, { type: 'text', text: END_NOT_RECORDED }],
        _meta: { ...asObject(result._meta), [GATE_META]: { recorded: false, warning: END_NOT_RECORDED } },
      },
    } as JSONRPCMessage;
  };

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
  const forwardUp = (message: JSONRPCMessage, relatedRequestId?: RequestId, endSaved?: Promise<boolean>) => {
    if (!policy.shared) return void sendUp(message, relatedRequestId);
    const saved = endSaved ?? policy.saved();
    upQueue = upQueue
      .then(() => saved)
      .then((ok) => sendUp(ok === false ? withEndNotRecorded(message) : message, relatedRequestId));
  };

  /** A failure in the gateway itself while admitting a call: the call ends as unknown and is answered with an error. */
  function failedAdmission(message: JSONRPCRequest, e: unknown) {
    log(`tools/call failed in the gateway: ${messageOf(e)}`);
    const p = pending.untrack(message.id);
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
      pending.untrack(request.id);
      return replyError(request.id, JSONRPC_INVALID_PARAMS, 'tools/call: params.name: expected a non-empty string');
    }
    if (params?.task !== undefined) {
      pending.untrack(request.id);
      return replyError(
        request.id,
        JSONRPC_INVALID_PARAMS,
        'tools/call: params.task: task-augmented tool calls are not supported by the assistant-safety gateway',
      );
    }
    if (catalogue.needsListing(name))
      return catalogue.fetchTools().then(() => admitListed(request, key, name, params?.arguments));
    return admitListed(request, key, name, params?.arguments);
  }

  /** {@link admit} once the server's tool list is known. */
  function admitListed(request: JSONRPCRequest, key: string, name: string, args: unknown): Promise<void> | undefined {
    if (finished || !pending.has(key)) return;
    const described = catalogue.describe(name, args);
    // A reused id of a cancelled call the session may still hold gets a call id of its own.
    const reused = held.isTaken(key);
    const callId = `${policy.callPrefix}${String(request.id)}${reused ? `~${++reuses}` : ''}`;
    const start: ToolCallStart = {
      id: callId,
      kind: described.kind,
      tool: name,
      ...(described.targets && { targets: described.targets }),
      ...(described.stateOnly && { stateOnly: true }),
      ...(described.trust && { trust: described.trust }),
      ...(described.creates && { creates: true }),
      ...(described.created && { created: described.created }),
      ...(described.egress && { egress: true }),
      // A person's answer (elicitation) binds to this very call.
      digest: callDigest({ tool: name, args, ...(described.targets && { targets: described.targets }) }),
    };
    const a: Admission = { request, key, tracked: pending.get(key)!, name, args, described, callId, reused, start };
    let decided;
    try {
      // A local session decides at once: nothing (a cancellation) can come in between.
      decided = policy.decide(start);
    } catch (e) {
      return refused(a, e);
    }
    if (decided instanceof Promise || (decided && elicitation.wants(decided))) return decideFurther(a, decided);
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
      if (blocked && elicitation.wants(blocked)) {
        // A person may supply the missing evidence; the gate then decides the call again.
        if (await elicitation.attests(blocked, request.id, name)) blocked = await policy.decide(a.start, blocked);
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

  upstream.onmessage = (message: JSONRPCMessage) => {
    if (finished) return;
    if (!('method' in message) && toClient.owns(message.id))
      return toClient.answer(message as typeof message & { id: string });
    if (isRequest(message) && message.method === 'initialize') elicitation.clientInitialized(message.params);
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
        pending.track(message);
        // With no call before it waiting or being admitted, admitted now; otherwise after those, in order.
        admissions.run(() => admitOne(message));
        return;
      }
      if (held.isTaken(key)) {
        void replyError(
          message.id,
          JSONRPC_INVALID_REQUEST,
          `request id ${JSON.stringify(message.id)} belongs to a cancelled call the server may still answer: use a new id`,
        );
        return;
      }
      pending.track(message);
      downstream.send(message).catch((e: unknown) => {
        pending.untrack(message.id);
        void replyError(message.id, JSONRPC_CONNECTION_CLOSED, `the MCP server cannot be reached: ${messageOf(e)}`);
      });
      return;
    }
    if (isNotification(message) && message.method === 'notifications/cancelled') {
      const requestId = asObject(message.params)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        const p = pending.untrack(requestId);
        if (p?.call) cancel(requestId, p.call);
      }
    }
    downstream.send(message).catch((e: unknown) => log(`cannot write to the MCP server: ${messageOf(e)}`));
    // Learn the declarations before the first call needs them (once the server is initialised).
    if (isNotification(message) && message.method === 'notifications/initialized') catalogue.serverInitialized();
  };

  downstream.onmessage = (message: JSONRPCMessage) => {
    if (finished) return;
    if (!('method' in message) && message.id !== undefined) {
      if (toServer.owns(message.id)) return toServer.answer(message as typeof message & { id: string });
      const key = keyOf(message.id);
      const wasHeld = held.take(key);
      if (wasHeld) {
        // The answer to a cancelled call: it ends the call; the client, which cancelled, gets nothing.
        endByAnswer(wasHeld, message);
        log(`${wasHeld.tool}: the server answered the cancelled call ${JSON.stringify(message.id)}`);
        return;
      }
      if (held.isRetired(key))
        return void log(`dropped a late answer to the cancelled call ${JSON.stringify(message.id)}`);
      const p = pending.untrack(message.id);
      if (p && 'result' in message) {
        const result = asObject(message.result) ?? {};
        if (p.method === 'initialize') catalogue.setServerHasTools(asObject(result.capabilities)?.tools !== undefined);
        if (p.method === 'tools/list' && Array.isArray(result.tools)) catalogue.learn(result.tools as unknown[]);
      }
      if (p?.call && !policy.shared) {
        // A local session: the answer goes to the client first, and the call ends in the same turn,
        // before the gateway handles any other message (the next call's decision sees the end), so
        // the client does not wait for the session's bookkeeping. The end is judged from the
        // answer as it arrived, before it is sent on.
        const settled = policy.settlementOf(p.call, message);
        try {
          forwardUp(message);
        } finally {
          settle(p.call, settled);
        }
        return;
      }
      if (p?.call) {
        // A shared session: the answer waits for the end's save, and says so when it failed.
        const saved = endByAnswer(p.call, message);
        if (saved) return forwardUp(message, undefined, saved);
      }
    } else if (isNotification(message) && message.method === 'notifications/tools/list_changed') {
      // List again now, so changed definitions are seen (and new tools classified) before the next call.
      catalogue.listChanged();
    } else if (isNotification(message) && message.method === 'notifications/progress') {
      return forwardUp(message, pending.requestOfProgress(asObject(message.params)?.progressToken));
    }
    forwardUp(message);
  };

  const finish = async (reason: McpGatewayExit['reason']) => {
    if (finished) return;
    finished = true;
    let endedInFlight = 0;
    // Cut off mid-call: the tool may have acted. A write so ended must be verified.
    for (const call of [...[...pending.entries()].map(([, p]) => p.call), ...held.drain()]) {
      if (call && !call.ended) {
        endUnknown(call);
        endedInFlight++;
      }
    }
    if (reason === 'server-closed') {
      // Every request the server did not answer gets an error, so no client waits forever.
      await Promise.all(
        [...pending.entries()].map(([key, p]) =>
          upstream
            .send({
              jsonrpc: '2.0',
              id: idOfKey(key),
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
    await policy.saved();
    await upQueue;
    const closedAnswer = {
      jsonrpc: '2.0',
      id: 0,
      error: { code: JSONRPC_CONNECTION_CLOSED, message: 'closed' },
    } as const;
    toServer.closeAll(closedAnswer);
    toClient.closeAll(closedAnswer);
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
      return policy.session;
    },
    closed,
    get tools() {
      return catalogue.tools;
    },
    definitionChanges: catalogue.definitionChanges,
    explain: (toolName: string, args?: unknown) => catalogue.explain(toolName, args),
    async start() {
      // A shared session: load it, and end what a gone gateway left in flight, before any traffic.
      await policy.start();
      await downstream.start();
      await upstream.start();
    },
    async close() {
      await finish('closed');
    },
  };
}
