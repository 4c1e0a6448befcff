import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeFigure, median, ratioText, type Figure } from './measure.js';

export interface McpSizes {
  /** Tool calls per run and route (cycles of read, write, verifying read). */
  calls: number;
  /** Measured runs of each route, interleaved. */
  runs: number;
}

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const TSX = path('../node_modules/tsx/dist/loader.mjs');
const SERVER = [process.execPath, '--import', TSX, path('../test/mcp/fixtureServer.ts')];
const ROUTES = {
  direct: SERVER,
  'plain proxy': [process.execPath, '--import', TSX, path('./mcpPlainProxy.ts'), '--', ...SERVER],
  gateway: [process.execPath, '--import', TSX, path('../src/cli/bin.ts'), 'mcp-gateway', '--', ...SERVER],
} as const;
type Route = keyof typeof ROUTES;

/** A read, a write, and the read that verifies it: the gateway admits every call of the cycle. */
const CYCLE = [
  { name: 'find_service', arguments: { name: 'web' } },
  { name: 'restart_service', arguments: { name: 'web' } },
  { name: 'get_status', arguments: { name: 'web' } },
];

interface Run {
  perSecond: number;
  p50: number;
  p99: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Calls of one route in a row before the next route's turn: a burst of load from elsewhere hits every route alike. */
const SLICE = 100;
/** Calls per route before measuring: every route's code paths compiled (the gateway's session too). */
const WARM_UP = 300;

/** Calls `calls` tools on `client` in the cycle's order from `first`, adding each round trip's milliseconds. */
async function callCycle(client: Client, first: number, calls: number, latencies: number[]): Promise<void> {
  for (let i = first; i < first + calls; i++) {
    const call = CYCLE[i % CYCLE.length]!;
    const t = performance.now();
    const result = await client.callTool(call);
    latencies.push(performance.now() - t);
    if (result.isError) throw new Error(`call ${i} (${call.name}) failed: ${JSON.stringify(result)}`);
  }
}

/**
 * One run of every route, interleaved in slices of {@link SLICE} calls (each slice starting with
 * the next route, so none always follows another): each route's calls/s over its own time, and
 * its p50 and p99 over its `calls` round trips.
 */
async function measureRun(clients: Record<Route, Client>, calls: number): Promise<Record<Route, Run>> {
  const routes = Object.keys(ROUTES) as Route[];
  const latencies = Object.fromEntries(routes.map((r) => [r, [] as number[]])) as Record<Route, number[]>;
  const busy = Object.fromEntries(routes.map((r) => [r, 0])) as Record<Route, number>;
  for (let done = 0, turn = 0; done < calls; done += SLICE, turn++) {
    const n = Math.min(SLICE, calls - done);
    for (let k = 0; k < routes.length; k++) {
      const route = routes[(turn + k) % routes.length]!;
      const t = performance.now();
      await callCycle(clients[route], done, n, latencies[route]);
      busy[route] += performance.now() - t;
    }
  }
  const runs = {} as Record<Route, Run>;
  for (const route of routes) {
    const sorted = latencies[route].sort((a, b) => a - b);
    runs[route] = {
      perSecond: (calls / busy[route]) * 1000,
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
    };
  }
  return runs;
}

/**
 * Part 6: the MCP gateway. The same tool calls (read, write, verifying read)
 * made by the SDK's client over stdio directly to a server, through a plain
 * pass-through proxy built with the same SDK (one more stdio hop, no gate),
 * and through `assistant-safety mcp-gateway`, interleaved in slices of 100
 * calls within each run: round trips per second and p50/p99 latency, each
 * route against the one before it. The gateway against the plain proxy is the
 * gate's own cost; the note gives the spread of that ratio run by run.
 */
export async function mcpFigures({ calls = 2000, runs = 5 }: Partial<McpSizes> = {}): Promise<Figure[]> {
  const clients = {} as Record<Route, Client>;
  try {
    for (const route of Object.keys(ROUTES) as Route[]) {
      const [command, ...args] = ROUTES[route];
      const client = new Client({ name: 'assistant-safety-bench', version: '1' });
      await client.connect(new StdioClientTransport({ command: command!, args, stderr: 'inherit' }));
      await callCycle(client, 0, Math.min(calls, WARM_UP), []); // warm-up (JIT, the gateway's tool list)
      clients[route] = client;
    }
    const results: Record<Route, Run[]> = { direct: [], 'plain proxy': [], gateway: [] };
    for (let r = 0; r < runs; r++) {
      const run = await measureRun(clients, calls);
      for (const route of Object.keys(ROUTES) as Route[]) results[route].push(run[route]);
    }
    const runsOf = (route: Route, key: keyof Run) => results[route].map((x) => x[key]);
    const figures: Figure[] = [];
    const against: Record<Route, Route | undefined> = {
      direct: undefined,
      'plain proxy': 'direct',
      gateway: 'plain proxy',
    };
    for (const route of Object.keys(ROUTES) as Route[]) {
      const base = against[route];
      figures.push(
        makeFigure({
          suite: 'mcp',
          name: `${route}: tool-call round trips`,
          unit: 'calls/s',
          better: 'higher',
          runs: runsOf(route, 'perSecond'),
          ...(base && { baseline: { name: base, runs: runsOf(base, 'perSecond') } }),
        }),
      );
      for (const key of ['p50', 'p99'] as const) {
        figures.push(
          makeFigure({
            suite: 'mcp',
            name: `${route}: ${key} latency`,
            unit: 'ms',
            better: 'lower',
            runs: runsOf(route, key),
            ...(base && {
              baseline: {
                name: base,
                runs: runsOf(base, key),
                describe: (ratio: number) => ratioText(ratio, `the ${base}'s`),
              },
            }),
            ...(route === 'gateway' &&
              key === 'p50' && {
                target: {
                  text: 'within 10 % of the plain proxy',
                  test: (_s, ratio) => ratio !== undefined && ratio <= 1.1,
                },
              }),
          }),
        );
      }
    }
    const gateway = figures.find((f) => f.name === 'gateway: p50 latency')!;
    const perRun = results.gateway.map((g, i) => g.p50 / results['plain proxy'][i]!.p50).sort((a, b) => a - b);
    gateway.note =
      `the gate's overhead over the plain proxy: ${((gateway.baseline!.ratio - 1) * 100).toFixed(1)} % at the median; ` +
      `run by run ${perRun[0]!.toFixed(2)}–${perRun.at(-1)!.toFixed(2)}×, median ${median(perRun).toFixed(2)}×`;
    return figures;
  } finally {
    await Promise.all(Object.values(clients).map((c) => c.close().catch(() => undefined)));
  }
}
