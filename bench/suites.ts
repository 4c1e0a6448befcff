import { appFigures, type AppSizes } from './appSuite.js';
import { gateFigures, type GateSizes } from './gate.js';
import { hookFigures, type HookSizes } from './hookLatency.js';
import { graphFigures, type GraphSizes } from './graphSuite.js';
import { otelFigures, type OtelSizes } from './otelSuite.js';
import type { Figure } from './measure.js';
import { mcpFigures, type McpSizes } from './mcpSuite.js';
import { replayFigures, type ReplaySizes } from './replaySuite.js';
import { redisFigures, type RedisSizes } from './redisSuite.js';
import { redisClusterFigures, type RedisClusterSizes } from './redisClusterSuite.js';
import { atRestFigures, type AtRestSizes } from './sessionsAtRest.js';
import { auditFigures, type AuditSizes } from './auditSuite.js';

/** How big each suite runs. */
export interface BenchSizes {
  gate: GateSizes;
  atRest: AtRestSizes;
  replay: ReplaySizes;
  graph: GraphSizes;
  app: AppSizes;
  redis: RedisSizes;
  redisCluster: RedisClusterSizes;
  mcp: McpSizes;
  otel: OtelSizes;
  hook: HookSizes;
  audit: AuditSizes;
}

/** The sizes the issue asks for, fitted to about three minutes on a 2-core machine. */
export const FULL_SIZES: BenchSizes = {
  gate: { cycles: 10_000, runs: 7 },
  atRest: { sessions: 100_000, heapRuns: 2, restores: 3_000, runs: 5 },
  replay: { events: 1_000_000, runs: 3 },
  graph: { runs: 3, mutationRuns: 2, simpleDepth: 3 },
  app: { events: 100_000, runs: 2 },
  redis: { decisions: 2000, runs: 3 },
  redisCluster: { decisions: 500, runs: 3 },
  mcp: { calls: 2000, runs: 5 },
  otel: { cycles: 10_000, runs: 5 },
  hook: { events: 20, runs: 3 },
  // 100,000 traces (2 million calls) take minutes on 2 shared cores (about 4,000 calls/s there):
  // 5,000 traces (about 100,000 calls) keep the suite near a minute.
  audit: { traces: 5_000, runs: 2 },
};

/** Tiny sizes: every suite runs end to end in seconds (the smoke test). */
export const TINY_SIZES: BenchSizes = {
  gate: { cycles: 50, runs: 2 },
  atRest: { sessions: 5_000, heapRuns: 2, restores: 20, runs: 2 },
  replay: { events: 2_000, runs: 2 },
  graph: { runs: 2, mutationRuns: 2, simpleDepth: 2, mutants: 2 },
  app: { events: 300, runs: 2, steps: 3 },
  redis: { decisions: 50, runs: 2 },
  redisCluster: { decisions: 50, runs: 1 },
  mcp: { calls: 30, runs: 2 },
  otel: { cycles: 50, runs: 2 },
  hook: { events: 3, runs: 2 },
  audit: { traces: 200, runs: 2 },
};

export type SuiteId =
  'gate' | 'atRest' | 'replay' | 'graph' | 'app' | 'redis' | 'redisCluster' | 'mcp' | 'otel' | 'hook' | 'audit';

export interface Suite {
  id: SuiteId;
  title: string;
  run(sizes: BenchSizes): Promise<Figure[]>;
}

/** Every suite, in the order of the parts. */
export const SUITES: readonly Suite[] = [
  { id: 'gate', title: '1. gate decisions', run: async (s) => gateFigures(s.gate) },
  { id: 'atRest', title: '2. sessions at rest', run: async (s) => atRestFigures(s.atRest) },
  { id: 'replay', title: '3. replay', run: (s) => replayFigures(s.replay) },
  { id: 'graph', title: '4. graph work', run: async (s) => graphFigures(s.graph) },
  { id: 'app', title: '5. the app', run: (s) => appFigures(s.app) },
  { id: 'redis', title: '6. sessions shared on Redis', run: (s) => redisFigures(s.redis) },
  {
    id: 'redisCluster',
    title: '6b. sessions on a Redis Cluster',
    run: (s) => redisClusterFigures(s.redisCluster),
  },
  { id: 'mcp', title: '7. the MCP gateway', run: (s) => mcpFigures(s.mcp) },
  { id: 'otel', title: '8. OpenTelemetry instrumentation', run: (s) => otelFigures(s.otel) },
  { id: 'hook', title: '9. the Claude Code hook', run: (s) => hookFigures(s.hook) },
  { id: 'audit', title: '10. auditing existing traces', run: (s) => auditFigures(s.audit) },
];
