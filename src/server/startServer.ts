import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { WebSocketServer } from 'ws';
import {
  LIVE_PATH,
  LIVE_PROTOCOL,
  MAX_MESSAGE_BYTES,
  RECORDING_NAME,
  TOKEN_HEADER,
  TOKEN_PROTOCOL_PREFIX,
  type RecordingFileInfo,
} from '../live/protocol.js';
import { DEFAULT_HUB_LIMITS, LiveHub, type LiveHubLimits } from './LiveHub.js';
import { handleMachineRoute, MACHINE_ROUTE } from './machineRoutes.js';
import { recoverMachineFiles } from '../node/machineFiles.js';
import { jsonSyntaxError } from '../node/jsonSyntaxError.js';
import { LIVE_INSIGHTS_PATH } from '../insights/index.js';
import { liveInsights, startMetricsServer, type MetricsEndpoint, type MetricsOptions } from './metricsRoute.js';

/*
 * One HTTP server on 127.0.0.1 for the visualiser: the built app, the
 * machines and recordings as JSON/text, and the live hub's WebSocket. The
 * page, every API request and every socket need the token generated at start:
 * in the query `?token=` (the printed URL), the `x-assistant-safety-token`
 * header (the app's requests), or a WebSocket subprotocol (the app's socket).
 * Never a cookie: cookies ignore ports, so any other server on this host
 * would receive it. The app's own scripts and styles are served without the
 * token: they are the package's code and hold no data.
 */

export interface ServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Folder of `.jsonl` recordings offered to the app. */
  recordingsDir: string;
  /** Folder of machine JSON files. */
  machinesDir: string;
  /** The built app (dist/viz). */
  appDir: string;
  /** Default: 32 random bytes, hex. */
  token?: string;
  hubLimits?: Partial<LiveHubLimits>;
  /** Also serve `/metrics` (Prometheus text) for the hub's sessions, on a loopback port of its own. */
  metrics?: MetricsOptions;
  /** How long a client may take; defaults in {@link DEFAULT_SERVER_TIMEOUTS}. */
  timeouts?: Partial<ServerTimeouts>;
}

/** How long a client may take over a request (see `docs/limits.md`). */
export interface ServerTimeouts {
  /** All of a request's headers must arrive within this, ms (then the connection closes). */
  headersMs: number;
  /** The whole request, body included, within this, ms (then `408` and the connection closes). */
  requestMs: number;
  /** How often the two are checked, ms: a slow client is cut at most this much later (Node's own default is 30 s). */
  checkIntervalMs: number;
}

/** The server's timeouts unless `timeouts` says otherwise. */
export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = { headersMs: 10_000, requestMs: 30_000, checkIntervalMs: 1000 };

export interface RunningServer {
  /** The page's URL, token included: `http://127.0.0.1:N/?token=...`. */
  url: string;
  /** `http://127.0.0.1:N` */
  origin: string;
  port: number;
  token: string;
  hub: LiveHub;
  /** The `/metrics` endpoint, with `metrics` set. */
  metrics?: MetricsEndpoint;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a browser's WebSocket offers as a subprotocol, if any. */
function protocolToken(req: IncomingMessage): string | undefined {
  const offered = req.headers['sec-websocket-protocol'];
  if (typeof offered !== 'string') return undefined;
  for (const p of offered.split(',')) {
    const name = p.trim();
    if (name.startsWith(TOKEN_PROTOCOL_PREFIX)) return name.slice(TOKEN_PROTOCOL_PREFIX.length);
  }
  return undefined;
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json; charset=utf-8') {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}
const sendJSON = (res: ServerResponse, status: number, value: unknown) => send(res, status, JSON.stringify(value));
const fail = (res: ServerResponse, status: number, error: string) => sendJSON(res, status, { error });

/** Resolves `name` inside `dir`, or undefined when it would leave it (also through a symlink). */
async function inside(dir: string, name: string): Promise<string | undefined> {
  const root = await realpath(dir).catch(() => undefined);
  if (!root) return undefined;
  const path = resolve(root, name);
  if (!path.startsWith(root + sep)) return undefined;
  const real = await realpath(path).catch(() => undefined);
  return real && real.startsWith(root + sep) ? real : undefined;
}

/**
 * Starts the visualiser's server on 127.0.0.1.
 *
 * @example
 * const server = await startServer({ recordingsDir: 'recordings', machinesDir: 'machines', appDir: 'dist/viz' });
 * console.log(server.url); // http://127.0.0.1:40123/?token=...
 * await server.close();
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const token = options.token ?? randomBytes(32).toString('hex');
  // Finish (or clean up after) machine saves a crash interrupted.
  recoverMachineFiles(options.machinesDir);
  const hub = new LiveHub({ ...DEFAULT_HUB_LIMITS, ...options.hubLimits });
  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  /**
   * 401 without a token, 403 with a wrong one or from a foreign Host/Origin; undefined when allowed.
   * `needsToken` false: only the Host and Origin checks (the app's public scripts and styles).
   */
  const refusal = (req: IncomingMessage, url: URL, needsToken = true): [number, string] | undefined => {
    // A page on another site reaching us through DNS rebinding would send its own Host; a second one is ambiguous.
    if (req.rawHeaders.filter((_, i) => i % 2 === 0 && /^host$/i.test(req.rawHeaders[i]!)).length > 1)
      return [400, 'more than one Host header'];
    if (!allowedHosts().has(req.headers.host ?? '')) return [403, 'unexpected Host header'];
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedHosts().has(origin.replace(/^http:\/\//, ''))) return [403, 'foreign origin'];
    if (!needsToken) return undefined;
    const header = req.headers[TOKEN_HEADER];
    const given =
      url.searchParams.get('token') ?? (typeof header === 'string' ? header : undefined) ?? protocolToken(req);
    if (given === undefined || given === '')
      return [
        401,
        'a token is required: open the whole URL this server printed when it started (`npm start` or `assistant-safety serve`), ?token=… included',
      ];
    if (!sameToken(given, token)) return [403, 'wrong token'];
    return undefined;
  };

  const listRecordings = async (): Promise<RecordingFileInfo[]> => {
    const names = await readdir(options.recordingsDir).catch(() => [] as string[]);
    const out: RecordingFileInfo[] = [];
    for (const name of names.filter((n) => RECORDING_NAME.test(n)).sort()) {
      // lstat: a symlink is not offered (it could point anywhere).
      const s = await lstat(join(options.recordingsDir, name)).catch(() => undefined);
      if (s?.isFile()) out.push({ name, size: s.size, modified: s.mtimeMs });
    }
    return out;
  };

  const listMachines = async () => {
    const names = (await readdir(options.machinesDir).catch(() => [] as string[]))
      .filter((n) => n.endsWith('.json') && !n.endsWith('.layout.json'))
      .sort((a, b) => (a === 'assistant-safety.json' ? -1 : b === 'assistant-safety.json' ? 1 : a.localeCompare(b)));
    const machines = [];
    for (const file of names) {
      // Regular files only: a symlink could point anywhere, a folder is no machine.
      const s = await lstat(join(options.machinesDir, file)).catch(() => undefined);
      if (!s?.isFile()) continue;
      let text: string;
      try {
        text = await readFile(join(options.machinesDir, file), 'utf8');
      } catch {
        continue;
      }
      try {
        machines.push({ file, json: JSON.parse(text) as unknown });
      } catch (e) {
        // Where it breaks, so the app says that instead of judging a stand-in as a machine.
        machines.push({ file, json: null, error: jsonSyntaxError(text, e) });
      }
    }
    return machines;
  };

  /**
   * The app's files. Its scripts, styles and icons are public (the package's own code, no data), so the page
   * loads them without a cookie; the page itself (index.html) needs the token, `refused` says why not.
   */
  const serveStatic = async (
    res: ServerResponse,
    pathname: string,
    head: boolean,
    refused: [number, string] | undefined,
  ) => {
    let name: string;
    try {
      name = pathname === '/' ? 'index.html' : decodeURIComponent(pathname.slice(1));
    } catch {
      return fail(res, 400, 'bad percent-encoding in the path');
    }
    const path = await inside(options.appDir, name);
    const index = await inside(options.appDir, 'index.html');
    if (refused && (!path || path === index)) {
      return send(res, refused[0], `${refused[0]}: ${refused[1]}.\n`, 'text/plain; charset=utf-8');
    }
    if (!index) return send(res, 503, 'The app is not built: run `npm run build`.\n', 'text/plain; charset=utf-8');
    const s = path ? await stat(path).catch(() => undefined) : undefined;
    if (!path || !s?.isFile()) return fail(res, 404, 'not found');
    res.writeHead(200, {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'content-length': s.size,
      'cache-control': name === 'index.html' ? 'no-store' : 'max-age=3600',
    });
    if (head) return res.end();
    createReadStream(path, { highWaterMark: 1 << 20 }).pipe(res);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('x-frame-options', 'DENY');
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      return fail(res, 400, 'bad request URL');
    }
    // The Host and Origin checks hold for everything; the token for all but the app's public files.
    const foreign = refusal(req, url, false);
    const refused = foreign ?? refusal(req, url);
    const api = url.pathname.startsWith('/api/');
    if (refused && (foreign || api)) {
      // A person at a browser gets a sentence; a script gets JSON.
      if (url.pathname.startsWith('/api/')) return fail(res, refused[0], refused[1]);
      return send(res, refused[0], `${refused[0]}: ${refused[1]}.\n`, 'text/plain; charset=utf-8');
    }
    // The editor's machine endpoints: read, preview a save, save (PUT).
    if (url.pathname.startsWith(MACHINE_ROUTE)) {
      return handleMachineRoute(req, res, url.pathname, options.machinesDir);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return fail(res, 405, 'only GET and HEAD');
    }
    const path = url.pathname;
    if (path === '/api/machines') return sendJSON(res, 200, { machines: await listMachines() });
    if (path === '/api/recordings') return sendJSON(res, 200, { recordings: await listRecordings() });
    if (path === '/api/sessions') return sendJSON(res, 200, { sessions: hub.list() });
    if (path === LIVE_INSIGHTS_PATH) return sendJSON(res, 200, liveInsights(hub));
    if (path.startsWith('/api/recordings/')) {
      let name: string;
      try {
        name = decodeURIComponent(path.slice('/api/recordings/'.length));
      } catch {
        return fail(res, 400, 'bad recording name');
      }
      if (!RECORDING_NAME.test(name)) return fail(res, 400, 'a recording is a plain file name ending in .jsonl');
      const file = await inside(options.recordingsDir, name);
      const s = file ? await stat(file).catch(() => undefined) : undefined;
      if (!file || !s?.isFile()) return fail(res, 404, `no recording named ${name}`);
      res.writeHead(200, {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'content-length': s.size,
        'cache-control': 'no-store',
      });
      if (req.method === 'HEAD') return res.end();
      return void createReadStream(file, { highWaterMark: 1 << 20 }).pipe(res);
    }
    if (path.startsWith('/api/')) return fail(res, 404, 'no such API');
    return serveStatic(res, path, req.method === 'HEAD', refused);
  };

  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS, ...options.timeouts };
  // Bounded: a slow or idle client cannot hold a socket for long, checked every checkIntervalMs.
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    (req, res) => {
      handle(req, res).catch((e: unknown) => {
        // Never the message itself: a file system error names the server's folders.
        const code = (e as NodeJS.ErrnoException | undefined)?.code;
        if (!res.headersSent) fail(res, 500, `server error${typeof code === 'string' ? ` (${code})` : ''}`);
        else res.destroy();
      });
    },
  );

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    // Select the hub's protocol, never echo the token one back.
    handleProtocols: (offered) => (offered.has(LIVE_PROTOCOL) ? LIVE_PROTOCOL : false),
  });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      return void socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    }
    const refused = refusal(req, url);
    if (refused) {
      const [status, message] = refused;
      return void socket.end(
        `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 400 ? 'Bad Request' : 'Forbidden'}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${message}\n`,
      );
    }
    if (url.pathname !== LIVE_PATH) return void socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n');
    wss.handleUpgrade(req, socket, head, (ws) => hub.accept(ws));
  });

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolvePromise();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const metrics = options.metrics && (await startMetricsServer(hub, options.metrics, server));
  return {
    ...(metrics && { metrics }),
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    hub,
    close: () =>
      new Promise<void>((done) => {
        hub.close();
        wss.close();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
