import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeFigure, ratioText, type Figure } from './measure.js';

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

async function measure(client: Client, calls: number): Promise<Run> {
  const latencies: number[] = [];
  const start = performance.now();
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    const result = await client.callTool(CYCLE[i % CYCLE.length]!);
    latencies.push(performance.now() - t);
    if (result.isError)
      throw new Error(`call ${i} (${CYCLE[i % CYCLE.length]!.name}) failed: ${JSON.stringify(result)}`);
  }
  const total = performance.now() - start;
  latencies.sort((a, b) => a - b);
  return { perSecond: (calls / total) * 1000, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

/**
 * Part 6: the MCP gateway. The same tool calls (read, write, verifying read)
 * made by the SDK's client over stdio directly to a server, through a plain
 * pass-through proxy built with the same SDK (one more stdio hop, no gate),
 * and through `assistant-safety mcp-gateway`, runs interleaved: round trips
 * per second and p50/p99 latency, each route against the one before it. The
 * gateway against the plain proxy is the gate's own cost.
 */
export async function mcpFigures({ calls = 2000, runs = 5 }: Partial<McpSizes> = {}): Promise<Figure[]> {
  const clients = {} as Record<Route, Client>;
  try {
    for (const route of Object.keys(ROUTES) as Route[]) {
      const [command, ...args] = ROUTES[route];
      const client = new Client({ name: 'assistant-safety-bench', version: '1' });
      await client.connect(new StdioClientTransport({ command: command!, args, stderr: 'inherit' }));
      await measure(client, Math.min(calls, 60)); // warm-up (JIT, the gateway's tool list)
      clients[route] = client;
    }
    const results: Record<Route, Run[]> = { direct: [], 'plain proxy': [], gateway: [] };
    for (let r = 0; r < runs; r++) {
      for (const route of Object.keys(ROUTES) as Route[]) results[route].push(await measure(clients[route], calls));
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
    gateway.note = `the gate's overhead over the plain proxy: ${((gateway.baseline!.ratio - 1) * 100).toFixed(1)} % at the median`;
    return figures;
  } finally {
    await Promise.all(Object.values(clients).map((c) => c.close().catch(() => undefined)));
  }
}
