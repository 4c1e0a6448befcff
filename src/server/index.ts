/*
 * assistant-safety/server: the local server behind `assistant-safety serve`:
 * the app, recordings, machine files and the live hub, on 127.0.0.1 behind a
 * session token.
 */
export { startServer, DEFAULT_SERVER_TIMEOUTS } from './startServer.js';
export type { ServerOptions, RunningServer, ServerTimeouts } from './startServer.js';
export { LiveHub, DEFAULT_HUB_LIMITS } from './LiveHub.js';
export type { LiveHubLimits, LiveHubStats, EvictedSession } from './LiveHub.js';
export { serveApp, DEFAULT_PORT } from './serveApp.js';
export type { ServeAppOptions } from './serveApp.js';
export {
  startMetricsServer,
  createHubMetrics,
  liveInsights,
  METRICS_PATH,
  DEFAULT_METRICS_PORT,
} from './metricsRoute.js';
export type { MetricsOptions, MetricsEndpoint } from './metricsRoute.js';
