import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { classifyFromTools, type ExplainingClassifier, type ToolDeclaration } from '../classify/index.js';
import {
  createSafetySession,
  finishToolCall,
  hasVerificationEvidence,
  SafetyInputError,
  TOOL_KINDS,
  type SafetySession,
  type SessionRecorder,
  type ToolClassifier,
  type ToolKind,
} from '../index.js';

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
}

/** Why a gateway stopped. */
export interface McpGatewayExit {
  reason: 'client-closed' | 'server-closed' | 'closed';
  /** Tool calls that were in flight and were ended as failed. */
  endedInFlight: number;
}

/** A running gateway. See {@link createMcpGateway}. */
export interface McpGateway {
  readonly session: SafetySession;
  /** Starts the downstream transport, then the upstream one. */
  start(): Promise<void>;
  /** Stops both sides; in-flight calls are ended as failed. */
  close(): Promise<void>;
  /** Settles once, when either side closes or {@link McpGateway.close} is called. */
  readonly closed: Promise<McpGatewayExit>;
  /** The tools the server declared, as last listed. */
  readonly tools: ReadonlyMap<string, ToolDeclaration>;
  /** The kind a call would get now, and why. */
  explain(toolName: string, args?: unknown): { kind: ToolKind; rule: string; detail: string };
}

interface GatedCall {
  callId: string;
  tool: string;
  kind: ToolKind;
  ended: boolean;
}

interface Pending {
  method: string;
  call?: GatedCall;
  /** The request's progress token, as a key of `progressOf`. */
  progress?: string;
}

const keyOf = (id: RequestId) => (typeof id === 'string' ? `s:${id}` : `n:${id}`);
const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;
const isNotification = (m: JSONRPCMessage): m is Extract<JSONRPCMessage, { method: string }> =>
  'method' in m && !('id' in m);
const asObject = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** Whether a tool result carries verification evidence, in `structuredContent` or in a text item. */
function resultVerifies(result: Record<string, unknown>): boolean {
  if (hasVerificationEvidence(result.structuredContent)) return true;
  const content = Array.isArray(result.content) ? result.content : [];
  return content.some((item) => {
    const o = asObject(item);
    return o?.type === 'text' && typeof o.text === 'string' && hasVerificationEvidence(o.text);
  });
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
 * - Classification: `rules` win; then the tool's declared `kind` or MCP
 *   annotations (`readOnlyHint: true` is a read, anything else a write); the
 *   gateway learns the declarations from the server's own `tools/list`.
 * - The server closing fails every request it has not answered (a JSON-RPC
 *   error) and ends the in-flight calls as failed; the client closing closes
 *   the server.
 *
 * @example
 * const gateway = createMcpGateway({
 *   upstream: createStdioServerTransport(),
 *   downstream: new StdioClientTransport({ command: 'my-mcp-server', env: process.env as Record<string, string> }),
 *   session: createSafetySession({ recorder }),
 *   rules: { tools: { list_projects: 'resolve' } },
 * });
 * await gateway.start();
 * const exit = await gateway.closed; // { reason: 'client-closed', endedInFlight: 0 }
 */
export function createMcpGateway(options: McpGatewayOptions): McpGateway {
  const { upstream, downstream, log = () => undefined } = options;
  const session = options.session ?? createSafetySession(options.recorder ? { recorder: options.recorder } : {});
  const toolListTimeoutMs = options.toolListTimeoutMs ?? 10_000;
  // Validates the rules now: a bad rules file fails before any traffic, naming the path.
  let classifier: ExplainingClassifier = classifyFromTools([], { rules: options.rules, nameVerbs: options.nameVerbs });

  const pending = new Map<string, Pending>();
  /** Progress token → the request it reports on, so a transport with a stream per request (HTTP) routes it. */
  const progressOf = new Map<string, RequestId>();
  const own = new Map<string, (message: JSONRPCMessage) => void>();
  const ownPrefix = `assistant-safety-gateway:${globalThis.crypto.randomUUID()}:`;
  let ownSeq = 0;
  let serverHasTools = true;
  /** The declarations are a full listing, not outdated by a list_changed. */
  let listFresh = false;
  let listing: Promise<void> | undefined;
  let admissions: Promise<void> = Promise.resolve();
  let finished = false;
  let resolveClosed!: (exit: McpGatewayExit) => void;
  const closed = new Promise<McpGatewayExit>((resolve) => (resolveClosed = resolve));

  const learn = (tools: unknown[], replace: boolean) => {
    const merged = replace ? new Map<string, unknown>() : new Map<string, unknown>(classifier.tools);
    for (const tool of tools) {
      // What MCP declares and the gateway uses: the name, the annotations, whether there is an output schema.
      // (A non-standard field such as `kind` in a server's list is not taken as a classification.)
      const { name, annotations, outputSchema } = asObject(tool) ?? {};
      if (typeof name !== 'string' || name.length === 0) continue;
      merged.set(name, {
        name,
        ...(asObject(annotations) && { annotations }),
        ...(outputSchema !== undefined && { outputSchema }),
      });
    }
    try {
      classifier = classifyFromTools([...merged.values()], { rules: options.rules, nameVerbs: options.nameVerbs });
    } catch (e) {
      // A malformed declaration must not make anything a read: classify without declarations.
      log(`the server's tool list cannot be used (${(e as Error).message}); its tools are classified as undeclared`);
      classifier = classifyFromTools([], { rules: options.rules, nameVerbs: options.nameVerbs });
    }
  };

  const sendUp = (message: JSONRPCMessage, relatedRequestId?: RequestId) =>
    upstream
      .send(message, relatedRequestId === undefined ? undefined : { relatedRequestId })
      .catch((e: unknown) => log(`cannot write to the client: ${(e as Error).message}`));
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

  const fetchTools = () => {
    listing ??= (async () => {
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
      learn(tools, true);
      listFresh = true;
    })()
      .catch((e: unknown) => log(`could not list the server's tools: ${(e as Error).message}`))
      .finally(() => (listing = undefined));
    return listing;
  };

  const classify = (name: string, args: unknown): ToolKind => {
    const declaration = classifier.tools.get(name);
    if (!options.classify) return classifier(name, args);
    let kind: unknown;
    try {
      kind = options.classify(name, args, declaration);
    } catch (e) {
      log(`the classifier threw for ${name}: ${(e as Error).message}; classified as write`);
      return 'write';
    }
    return (TOOL_KINDS as readonly unknown[]).includes(kind) ? (kind as ToolKind) : 'write';
  };

  const blockedResult = (declaration: ToolDeclaration | undefined, envelope: object) => ({
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    // structuredContent must match a declared output schema; the envelope only goes where none is declared.
    ...(asObject(declaration)?.outputSchema === undefined && { structuredContent: envelope }),
  });

  async function admit(request: JSONRPCRequest): Promise<void> {
    const key = keyOf(request.id);
    // Cancelled while waiting, or the gateway stopped (which answered it).
    if (finished || !pending.has(key)) return;
    const params = asObject(request.params);
    const name = params?.name;
    if (typeof name !== 'string' || name.length === 0) {
      untrack(request.id);
      await replyError(request.id, JSONRPC_INVALID_PARAMS, 'tools/call: params.name: expected a non-empty string');
      return;
    }
    if (params?.task !== undefined) {
      untrack(request.id);
      await replyError(
        request.id,
        JSONRPC_INVALID_PARAMS,
        'tools/call: params.task: task-augmented tool calls are not supported by the assistant-safety gateway',
      );
      return;
    }
    if (serverHasTools && !listFresh && !classifier.tools.has(name)) await fetchTools();
    if (finished || !pending.has(key)) return;
    const tracked = pending.get(key)!;
    const args = params?.arguments;
    const kind = classify(name, args);
    const callId = String(request.id);
    let blocked;
    try {
      blocked = session.beginToolCall({ id: callId, kind, tool: name });
    } catch (e) {
      if (!(e instanceof SafetyInputError)) throw e;
      untrack(request.id);
      await replyError(request.id, JSONRPC_INVALID_REQUEST, `tools/call: ${e.message}`);
      return;
    }
    if (blocked) {
      untrack(request.id);
      log(`blocked ${name} (${kind}): ${blocked.reasonCode}`);
      await sendUp({
        jsonrpc: '2.0',
        id: request.id,
        result: blockedResult(classifier.tools.get(name), blocked.toJSON()),
      });
      return;
    }
    const call: GatedCall = { callId, tool: name, kind, ended: false };
    tracked.call = call;
    try {
      await downstream.send(request);
    } catch (e) {
      untrack(request.id);
      end(call, false);
      await replyError(
        request.id,
        JSONRPC_CONNECTION_CLOSED,
        `the MCP server cannot be reached: ${(e as Error).message}`,
      );
    }
  }

  function end(call: GatedCall, ok: boolean, verified = false) {
    if (call.ended) return;
    call.ended = true;
    try {
      finishToolCall(session, verified ? { id: call.callId, ok, verified } : { id: call.callId, ok });
    } catch (e) {
      log(`could not end ${call.tool} on the session: ${(e as Error).message}`);
    }
  }

  /** Cancelled or cut off: the tool may have acted. A write is treated as landed (it must be verified). */
  function endUnknown(call: GatedCall) {
    end(call, call.kind === 'write');
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
    const entry = pending.get(keyOf(id));
    if (entry?.progress !== undefined) progressOf.delete(entry.progress);
    pending.delete(keyOf(id));
    return entry;
  };

  upstream.onmessage = (message: JSONRPCMessage) => {
    if (finished) return;
    if (isRequest(message)) {
      if (pending.has(keyOf(message.id))) {
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
        admissions = admissions
          .then(() => admit(message))
          .catch((e: unknown) => {
            log(`tools/call failed in the gateway: ${(e as Error).stack ?? String(e)}`);
            untrack(message.id);
            void replyError(message.id, JSONRPC_INTERNAL_ERROR, `assistant-safety gateway: ${(e as Error).message}`);
          });
        return;
      }
      track(message);
      downstream.send(message).catch((e: unknown) => {
        untrack(message.id);
        void replyError(
          message.id,
          JSONRPC_CONNECTION_CLOSED,
          `the MCP server cannot be reached: ${(e as Error).message}`,
        );
      });
      return;
    }
    if (isNotification(message) && message.method === 'notifications/cancelled') {
      const requestId = asObject(message.params)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        const p = untrack(requestId);
        if (p?.call) endUnknown(p.call);
      }
    }
    downstream.send(message).catch((e: unknown) => log(`cannot write to the MCP server: ${(e as Error).message}`));
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
      const p = untrack(message.id);
      if (p && 'result' in message) {
        const result = asObject(message.result) ?? {};
        if (p.method === 'initialize') serverHasTools = asObject(result.capabilities)?.tools !== undefined;
        if (p.method === 'tools/list' && Array.isArray(result.tools)) learn(result.tools as unknown[], false);
        if (p.call) {
          const ok = result.isError !== true;
          end(p.call, ok, ok && p.call.kind === 'write' && resultVerifies(result));
        }
      } else if (p?.call) end(p.call, false);
    } else if (isNotification(message) && message.method === 'notifications/tools/list_changed') {
      listFresh = false;
    } else if (isNotification(message) && message.method === 'notifications/progress') {
      const token = asObject(message.params)?.progressToken;
      return void sendUp(message, progressOf.get(JSON.stringify(token)));
    }
    void sendUp(message);
  };

  const finish = async (reason: McpGatewayExit['reason']) => {
    if (finished) return;
    finished = true;
    let endedInFlight = 0;
    for (const [, p] of pending) {
      if (p.call && !p.call.ended) {
        end(p.call, false);
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
    for (const [, answer] of own)
      answer({ jsonrpc: '2.0', id: 0, error: { code: JSONRPC_CONNECTION_CLOSED, message: 'closed' } });
    own.clear();
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
    session,
    closed,
    get tools() {
      return classifier.tools;
    },
    explain(toolName: string, args?: unknown) {
      if (options.classify) {
        return { kind: classify(toolName, args), rule: 'classify', detail: 'the classify option' };
      }
      return classifier.explain(toolName, args);
    },
    async start() {
      await downstream.start();
      await upstream.start();
    },
    async close() {
      await finish('closed');
    },
  };
}
