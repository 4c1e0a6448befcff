import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { SafetySession } from '../index.js';
import type { McpGateway, McpGatewayOptions } from './McpGatewayOptions.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { AnnotationTrust } from './annotationTrust.js';
import { createStatelessUpstream, type StatelessUpstream } from './statelessUpstream.js';
import { createMcpGateway } from './createMcpGateway.js';
import { JSONRPC_INVALID_REQUEST, JSONRPC_PARSE_ERROR } from './jsonRpc.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';

export interface HttpGatewayOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Clients send `Authorization: Bearer <token>`. Default: 32 random bytes, hex. */
  token?: string;
  /** A new connection to the MCP server, one per MCP session (e.g. `() => spawnMcpServer(command, args)`). */
  connectServer: () => Transport;
  /** A new safety session, one per MCP session. */
  createSession: (mcpSessionId: string) => SafetySession;
  rules?: unknown;
  nameVerbs?: boolean;
  /** See {@link McpGatewayOptions.trustAnnotations}. */
  trustAnnotations?: AnnotationTrust;
  /** See {@link McpGatewayOptions.cancelGraceMs}. */
  cancelGraceMs?: number;
  /** See {@link McpGatewayOptions.escalate}. */
  escalate?: McpGatewayOptions['escalate'];
  log?: (line: string) => void;
  /** Largest request body, bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Most MCP sessions open at once (each has a server process); an `initialize` past it gets 503. Default 16. */
  maxSessions?: number;
  /** An MCP session with no request for this long ends, its server process with it. Default 10 min. */
  idleTimeoutMs?: number;
  /** How long a client may take to send a request; default 10 s for the headers, 30 s for the whole request, checked every second. */
  timeouts?: Partial<HttpGatewayTimeouts>;
}

/** How long a client may take to send a request (not how long its answer may take: a tool call runs as long as it runs). */
export interface HttpGatewayTimeouts {
  /** All of a request's headers within this, ms (then the connection closes). */
  headersMs: number;
  /** The whole request, body included, within this, ms (then `408` and the connection closes). */
  requestMs: number;
  /** How often the two are checked, ms (Node's own default is 30 s). */
  checkIntervalMs: number;
}

/** The gateway's timeouts unless `timeouts` says otherwise (Node's own are 60 s and 300 s). */
const DEFAULT_HTTP_TIMEOUTS: HttpGatewayTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  checkIntervalMs: 1000,
};

/** A running Streamable HTTP gateway. See {@link listenHttp}. */
export interface HttpGateway {
  /** `http://127.0.0.1:N/mcp` */
  url: string;
  token: string;
  /** Open MCP sessions, by MCP session id. */
  readonly gateways: ReadonlyMap<string, McpGateway>;
  /** Closes every session (and its server) and the listener. */
  close(): Promise<void>;
}

const MCP_PATH = '/mcp';

function sameToken(given: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/.exec(given ?? '');
  if (!match) return false;
  const a = Buffer.from(match[1]!);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

const jsonError = (res: ServerResponse, status: number, code: number, message: string) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message } }));
};

function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        resolve(undefined);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const isInitialize = (body: unknown) =>
  typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';

const OPTION_KEYS = keysOf<HttpGatewayOptions>({
  host: true,
  port: true,
  token: true,
  connectServer: true,
  createSession: true,
  rules: true,
  nameVerbs: true,
  trustAnnotations: true,
  cancelGraceMs: true,
  escalate: true,
  log: true,
  maxBodyBytes: true,
  maxSessions: true,
  idleTimeoutMs: true,
  timeouts: true,
});

/**
 * Serves the gateway over MCP Streamable HTTP on `host:port` (`/mcp`), behind
 * a bearer token and a Host check (no DNS rebinding): each MCP session (each
 * `initialize`) gets its own MCP server connection and its own safety
 * session, gated by {@link createMcpGateway}; the session ends with the
 * client's DELETE, the server's exit, `idleTimeoutMs` without a request, or
 * {@link HttpGateway.close}. At most `maxSessions` are open at once.
 *
 * @example
 * const http = await listenHttp({
 *   port: 8808,
 *   connectServer: () => spawnMcpServer('my-mcp-server'),
 *   createSession: (id) => createSafetySession({ id, recorder }),
 * });
 * console.error(`${http.url}  (Authorization: Bearer ${http.token})`);
 */
export async function listenHttp(options: HttpGatewayOptions): Promise<HttpGateway> {
  // As createMcpGateway: a misspelt `rules` or `trustAnnotations` would gate with defaults nobody chose.
  refuseUnknownOptions('listenHttp', options, OPTION_KEYS);
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(32).toString('hex');
  const log = options.log ?? (() => undefined);
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 16;
  const idleMs = options.idleTimeoutMs ?? 10 * 60_000;
  const gateways = new Map<string, McpGateway>();
  /** When each session last got or finished a request. */
  const lastSeen = new Map<string, number>();
  /** POSTs still open per session: a session waiting on its server is not idle. */
  const busy = new Map<string, number>();
  /** Counts a POST of session `id` as open until its response ends. */
  const hold = (id: string, req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') return;
    busy.set(id, (busy.get(id) ?? 0) + 1);
    res.once('close', () => {
      busy.set(id, (busy.get(id) ?? 1) - 1);
      if (lastSeen.has(id)) lastSeen.set(id, Date.now());
    });
  };
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, at] of lastSeen) {
        if (now - at < idleMs || (busy.get(id) ?? 0) > 0) continue;
        lastSeen.delete(id);
        log(`session ${id}: idle for ${idleMs} ms: closing it`);
        void gateways.get(id)?.close();
      }
    },
    Math.max(50, Math.min(idleMs / 4, 30_000)),
  );
  sweep.unref();
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...options.timeouts };
  const server = createServer(
    {
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs), // node refuses more
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    (req, res) => {
      void handle(req, res).catch((e: unknown) => {
        log(`http: ${(e as Error).message}`);
        if (!res.headersSent) jsonError(res, 500, -32603, 'internal error');
        else res.end();
      });
    },
  );

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (!allowedHosts.has(req.headers.host ?? ''))
      return jsonError(res, 403, JSONRPC_INVALID_REQUEST, 'host not allowed');
    // A browser page on another site sends its own origin (the MCP transport requires this check).
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin))
      return jsonError(res, 403, JSONRPC_INVALID_REQUEST, `origin not allowed: ${origin.slice(0, 100)}`);
    if (!sameToken(req.headers.authorization, token))
      return jsonError(res, 401, JSONRPC_INVALID_REQUEST, 'missing or wrong bearer token');
    if (new URL(req.url ?? '/', 'http://x').pathname !== MCP_PATH)
      return jsonError(res, 404, JSONRPC_INVALID_REQUEST, `the MCP endpoint is ${MCP_PATH}`);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = transports.get(sessionId);
      if (!transport) return jsonError(res, 404, JSONRPC_INVALID_REQUEST, 'no such MCP session');
      if (lastSeen.has(sessionId)) lastSeen.set(sessionId, Date.now());
      hold(sessionId, req, res);
      return transport.handleRequest(req, res);
    }
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
      res.setHeader('allow', 'GET, POST, DELETE');
      return jsonError(res, 405, JSONRPC_INVALID_REQUEST, `${req.method} is not an MCP method: GET, POST or DELETE`);
    }
    if (req.method !== 'POST')
      return jsonError(res, 400, JSONRPC_INVALID_REQUEST, 'an MCP session starts with a POST of initialize');
    // Declared too large: refused before a byte of it is read (the rest is not read: the connection closes).
    if (Number(req.headers['content-length'] ?? 0) > maxBody) {
      res.setHeader('connection', 'close');
      return jsonError(res, 413, JSONRPC_INVALID_REQUEST, `body over ${maxBody} bytes`);
    }
    const text = await readBody(req, maxBody);
    if (text === undefined) return jsonError(res, 413, JSONRPC_INVALID_REQUEST, `body over ${maxBody} bytes`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (e) {
      return jsonError(res, 400, JSONRPC_PARSE_ERROR, `Parse error: ${(e as Error).message}`);
    }
    // No session named and no initialize: a stateless client.
    if (!isInitialize(body)) return handleStateless(req, res, body);

    if (gateways.size >= maxSessions)
      return jsonError(
        res,
        503,
        JSONRPC_INVALID_REQUEST,
        `too many MCP sessions open (${maxSessions}): close one (DELETE) or wait for one to end`,
      );
    // A new MCP session: its own server connection and safety session.
    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sid) => void transports.set(sid, transport),
    });
    hold(id, req, res);
    const started = await open(id, transport);
    if (typeof started === 'string') return jsonError(res, 502, -32603, started);
    await transport.handleRequest(req, res, body);
  }

  /** Starts a gateway session (server and safety session) under `id`; a string says why it could not. */
  async function open(id: string, upstream: Transport): Promise<McpGateway | string> {
    const gateway = createMcpGateway({
      upstream,
      downstream: options.connectServer(),
      session: options.createSession(id),
      ...(options.rules !== undefined && { rules: options.rules }),
      ...(options.nameVerbs && { nameVerbs: true }),
      ...(options.trustAnnotations !== undefined && { trustAnnotations: options.trustAnnotations }),
      ...(options.cancelGraceMs !== undefined && { cancelGraceMs: options.cancelGraceMs }),
      ...(options.escalate !== undefined && { escalate: options.escalate }),
      log: (line) => log(`session ${id}: ${line}`),
    } satisfies McpGatewayOptions);
    gateways.set(id, gateway);
    lastSeen.set(id, Date.now());
    void gateway.closed.then((exit) => {
      gateways.delete(id);
      transports.delete(id);
      lastSeen.delete(id);
      busy.delete(id);
      if (stateless?.id === id) stateless = undefined;
      log(`session ${id} ended: ${exit.reason}`);
    });
    try {
      await gateway.start();
    } catch (e) {
      gateways.delete(id);
      lastSeen.delete(id);
      await gateway.close();
      return `the MCP server could not start: ${(e as Error).message}`;
    }
    log(`session ${id} started`);
    return gateway;
  }

  /** Requests that name no MCP session (stateless clients) share one gateway session. */
  let stateless: { id: string; upstream: StatelessUpstream; ready: Promise<McpGateway | string> } | undefined;
  async function handleStateless(req: IncomingMessage, res: ServerResponse, body: unknown) {
    const messages: JSONRPCMessage[] = [];
    for (const [i, item] of (Array.isArray(body) ? body : [body]).entries()) {
      const parsed = JSONRPCMessageSchema.safeParse(item);
      if (!parsed.success)
        return jsonError(res, 400, JSONRPC_INVALID_REQUEST, `Invalid Request: message ${i} is not a JSON-RPC message`);
      messages.push(parsed.data);
    }
    if (!stateless) {
      if (gateways.size >= maxSessions)
        return jsonError(res, 503, JSONRPC_INVALID_REQUEST, `too many MCP sessions open (${maxSessions})`);
      const id = `stateless-${randomUUID()}`;
      const upstream = createStatelessUpstream();
      stateless = { id, upstream, ready: open(id, upstream) };
    }
    const { id, upstream, ready } = stateless;
    const gateway = await ready;
    if (typeof gateway === 'string') {
      if (stateless?.id === id) stateless = undefined;
      return jsonError(res, 502, -32603, gateway);
    }
    lastSeen.set(id, Date.now());
    hold(id, req, res);
    const version = req.headers['mcp-protocol-version'];
    const answers = await upstream.handle(messages, typeof version === 'string' ? version : undefined);
    if (answers.length === 0) {
      res.writeHead(202).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  allowedHosts = new Set([`${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`]);
  allowedOrigins = new Set([...allowedHosts].map((h) => `http://${h}`));
  return {
    url: `http://${host}:${port}${MCP_PATH}`,
    token,
    gateways,
    async close() {
      clearInterval(sweep);
      await Promise.allSettled([...gateways.values()].map((g) => g.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
