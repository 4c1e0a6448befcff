import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { WebSocketServer } from 'ws';
import { LIVE_PATH, RECORDING_NAME, TOKEN_HEADER, type RecordingFileInfo } from '../live/protocol.js';
import { DEFAULT_HUB_LIMITS, LiveHub, type LiveHubLimits } from './LiveHub.js';
import { handleMachineRoute, MACHINE_ROUTE } from './machineRoutes.js';
import { LIVE_INSIGHTS_PATH } from '../insights/index.js';
import { liveInsights, startMetricsServer, type MetricsEndpoint, type MetricsOptions } from './metricsRoute.js';

/*
 * One HTTP server on 127.0.0.1 for the visualiser: the built app, the
 * machines and recordings as JSON/text, and the live hub's WebSocket. Every
 * request and every socket needs the token generated at start (query
 * `?token=`, the `x-assistant-safety-token` header, or the cookie the page
 * gets when opened with the token, which its scripts and styles then carry).
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
}

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

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
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
  const hub = new LiveHub({ ...DEFAULT_HUB_LIMITS, ...options.hubLimits });
  let port = 0;
  const cookieName = () => `assistant_safety_${port}`;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  /** 401 without a token, 403 with a wrong one or from a foreign Host/Origin; undefined when allowed. */
  const refusal = (req: IncomingMessage, url: URL): [number, string] | undefined => {
    // A page on another site reaching us through DNS rebinding would send its own Host.
    if (!allowedHosts().has(req.headers.host ?? '')) return [403, 'unexpected Host header'];
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedHosts().has(origin.replace(/^http:\/\//, ''))) return [403, 'foreign origin'];
    const header = req.headers[TOKEN_HEADER];
    const given =
      url.searchParams.get('token') ?? (typeof header === 'string' ? header : undefined) ?? cookie(req, cookieName());
    if (given === undefined || given === '')
      return [401, 'a token is required: open the URL that `assistant-safety serve` printed, token included'];
    if (!sameToken(given, token)) return [403, 'wrong token'];
    return undefined;
  };

  const listRecordings = async (): Promise<RecordingFileInfo[]> => {
    const names = await readdir(options.recordingsDir).catch(() => [] as string[]);
    const out: RecordingFileInfo[] = [];
    for (const name of names.filter((n) => RECORDING_NAME.test(n)).sort()) {
      const s = await stat(join(options.recordingsDir, name)).catch(() => undefined);
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
      try {
        machines.push({ file, json: JSON.parse(await readFile(join(options.machinesDir, file), 'utf8')) as unknown });
      } catch (e) {
        machines.push({ file, json: { error: `not JSON: ${(e as Error).message}` } });
      }
    }
    return machines;
  };

  const serveStatic = async (res: ServerResponse, pathname: string, head: boolean) => {
    const name = pathname === '/' ? 'index.html' : decodeURIComponent(pathname.slice(1));
    if (!existsSync(join(options.appDir, 'index.html'))) {
      return send(res, 503, 'The app is not built: run `npm run build`.\n', 'text/plain; charset=utf-8');
    }
    const path = await inside(options.appDir, name);
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
    const refused = refusal(req, url);
    if (refused) {
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
    if (url.searchParams.has('token')) {
      // The page's own scripts and styles cannot carry the query: give the browser a cookie for them.
      res.setHeader('set-cookie', `${cookieName()}=${token}; HttpOnly; SameSite=Strict; Path=/`);
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
    return serveStatic(res, path, req.method === 'HEAD');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) fail(res, 500, `server error: ${(e as Error).message}`);
      else res.destroy();
    });
  });
  // Bounded: a slow or idle client cannot hold a socket for long.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  const wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
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
        `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Forbidden'}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${message}\n`,
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
