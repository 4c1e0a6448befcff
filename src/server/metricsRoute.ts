import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordingEntry } from '../index.js';
import {
  createInsights,
  createEntryInterpreter,
  createPrometheusRegistry,
  createToolNamer,
  metricPointsOf,
  LIVE_SOURCE,
  type LiveInsights,
  type PrometheusRegistry,
} from '../insights/index.js';
import type { LiveHub } from './LiveHub.js';

/*
 * `serve --metrics`: the gate's metrics for the sessions the live hub sees,
 * in the Prometheus text format, on a loopback port of its own (no token:
 * Prometheus scrapes it as it is; it answers only GET /metrics, only on
 * 127.0.0.1, only with a local Host header). The series are the ones the
 * OpenTelemetry recorder would export, so the same queries work on both.
 */

/** The path of the metrics endpoint. */
export const METRICS_PATH = '/metrics';

/**
 * The insights aggregates (and the steps behind them) of the sessions the hub
 * holds now, for the app's Insights mode.
 *
 * @example
 * const { summary } = liveInsights(server.hub);
 */
export function liveInsights(hub: LiveHub): LiveInsights {
  const insights = createInsights({ details: true });
  for (const { id } of hub.list()) for (const entry of hub.entriesOf(id) ?? []) insights.add(entry, LIVE_SOURCE);
  return { summary: insights.summary(), details: insights.details() };
}

/** The port `serve --metrics` listens on by default (OpenTelemetry's Prometheus exporter's). */
export const DEFAULT_METRICS_PORT = 9464;

export interface MetricsOptions {
  /** Loopback port for `/metrics`; 0 picks a free one. Default {@link DEFAULT_METRICS_PORT}. */
  port?: number;
  /** Tool names the series may carry; any other is `other`. A number: the first that many seen. Default 50. */
  toolNames?: readonly string[] | number;
}

/** The running metrics endpoint. */
export interface MetricsEndpoint {
  /** `http://127.0.0.1:N/metrics` */
  url: string;
  port: number;
  /** The exposition text now (what a scrape gets). */
  render(): string;
  close(): Promise<void>;
}

/** Sessions whose count of counted entries is remembered (so an entry is never counted twice). */
const MAX_REMEMBERED_SESSIONS = 100_000;

/**
 * Counts the hub's entries into Prometheus series. Each scrape takes, per
 * session, the entries that arrived since the last one (the hub's count of
 * events received tells how many: not the entries' seq, which starts over
 * when another worker restores a shared session), so counters only grow,
 * even when the hub later drops old sessions or entries. Entries the hub
 * dropped before any scrape saw them are not counted.
 *
 * @example
 * const metrics = createHubMetrics(server.hub, { toolNames: ['pulse_query'] });
 * response.end(metrics.render());
 */
export function createHubMetrics(hub: LiveHub, options: Pick<MetricsOptions, 'toolNames'> = {}) {
  const registry: PrometheusRegistry = createPrometheusRegistry();
  const interpreter = createEntryInterpreter();
  const namer = createToolNamer(options.toolNames ?? 50);
  /** Per session: the hub's event count at the last scrape. */
  const counted = new Map<string, number>();
  /** Sessions the interpreter tracks: those whose agent was connected at a scrape that counted their entries. */
  const tracked = new Set<string>();
  let entries = 0;

  const add = (entry: RecordingEntry) => {
    entries += 1;
    registry.add(metricPointsOf(interpreter.observe(entry), namer));
    const { unverifiedWrites } = interpreter.evicted();
    if (unverifiedWrites > 0) registry.add([{ metric: 'unverifiedWrites', value: -unverifiedWrites, attributes: {} }]);
  };

  /** A session that ended (its agent disconnected, or the hub forgot it) leaves the gauges. */
  const end = (id: string) => {
    tracked.delete(id);
    const { unverifiedWrites } = interpreter.end(id);
    if (unverifiedWrites > 0) registry.add([{ metric: 'unverifiedWrites', value: -unverifiedWrites, attributes: {} }]);
  };

  function collect(): void {
    const sessions = hub.list();
    for (const { id, events, connected } of sessions) {
      const before = counted.get(id) ?? 0;
      if (events === before) continue;
      counted.delete(id);
      counted.set(id, events);
      if (counted.size > MAX_REMEMBERED_SESSIONS) counted.delete(counted.keys().next().value!);
      const fresh = events - before;
      if (fresh <= 0) continue;
      const held = hub.entriesOf(id) ?? [];
      for (let i = Math.max(0, held.length - fresh); i < held.length; i++) add(held[i]!);
      tracked.add(id);
      if (!connected) end(id);
    }
    const live = new Map(sessions.map((s) => [s.id, s.connected]));
    for (const id of [...tracked]) if (live.get(id) !== true) end(id);
  }

  return {
    render(): string {
      collect();
      const sessions = hub.list();
      return registry.render([
        { name: 'assistant_safety_live_sessions', help: 'Sessions the live hub holds now.', value: sessions.length },
        {
          name: 'assistant_safety_live_sessions_connected',
          help: 'Sessions whose agent is connected now.',
          value: sessions.filter((s) => s.connected).length,
        },
        {
          name: 'assistant_safety_entries_total',
          help: 'Recording entries counted into these metrics.',
          value: entries,
          type: 'counter',
        },
      ]);
    },
  };
}

function answer(req: IncomingMessage, res: ServerResponse, port: number, render: () => string): void {
  const host = req.headers.host ?? '';
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
    return void res.end('unexpected Host header\n');
  }
  const path = (req.url ?? '/').split('?')[0];
  if (path !== METRICS_PATH) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    return void res.end(`only ${METRICS_PATH} here\n`);
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
    return void res.end('only GET and HEAD\n');
  }
  const body = render();
  res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Starts the `/metrics` endpoint for a hub on 127.0.0.1; it closes with
 * `closeWith` (the main server) when given, and closes that server if it
 * cannot listen.
 *
 * @example
 * const metrics = await startMetricsServer(server.hub, { port: 0 });
 * await fetch(metrics.url); // Prometheus text
 */
export async function startMetricsServer(
  hub: LiveHub,
  options: MetricsOptions = {},
  closeWith?: Server,
): Promise<MetricsEndpoint> {
  const metrics = createHubMetrics(hub, options);
  let port = 0;
  const server = createServer(
    // The main server's timeouts, checked every second (Node's own default is every 30 s).
    { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1000 },
    (req, res) => answer(req, res, port, metrics.render),
  );
  const wanted = options.port ?? DEFAULT_METRICS_PORT;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      closeWith?.close(); // the server this one belongs to does not run without it
      // Not EADDRINUSE itself: `serve` would take it for its own port being taken.
      reject(new Error(`metrics: cannot listen on 127.0.0.1:${wanted}: ${e.code ?? e.message}`));
    });
    server.listen(wanted, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  closeWith?.once('close', () => void close());
  return { url: `http://127.0.0.1:${port}${METRICS_PATH}`, port, render: metrics.render, close };
}
