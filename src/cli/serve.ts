import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer, type RunningServer } from '../server/startServer.js';
import { UsageError, type CliIO, type Command } from './Command.js';
import { packageRoot } from '../node/packageRoot.js';
import { DEFAULT_METRICS_PORT, type MetricsOptions } from '../server/metricsRoute.js';

/** The port `serve` tries first when none is given. */
export const DEFAULT_PORT = 4400;

export interface ServeOptions {
  port?: number;
  recordingsDir?: string;
  machinesDir?: string;
  token?: string;
  metrics?: MetricsOptions;
}

/** `./<name>` if the working folder has one, else the package's own. */
function defaultDir(name: string): string {
  const local = resolve(name);
  return existsSync(local) ? local : join(packageRoot(), name);
}

/**
 * Starts the visualiser's server as `serve` does: the given port, or
 * {@link DEFAULT_PORT} and a free one if that is taken.
 */
export async function serve(options: ServeOptions, io: CliIO): Promise<RunningServer> {
  const appDir = join(packageRoot(), 'dist', 'viz');
  if (!existsSync(join(appDir, 'index.html'))) {
    io.err(
      'serve: the app is not built (dist/viz is missing): run `npm run build`; the API and live hub work meanwhile',
    );
  }
  const base = {
    recordingsDir: options.recordingsDir ?? defaultDir('recordings'),
    machinesDir: options.machinesDir ?? defaultDir('machines'),
    appDir,
    ...(options.token !== undefined && { token: options.token }),
    ...(options.metrics && { metrics: options.metrics }),
  };
  try {
    return await startServer({ ...base, port: options.port ?? DEFAULT_PORT });
  } catch (e) {
    if (options.port === undefined && (e as { code?: string }).code === 'EADDRINUSE') {
      io.err(`serve: port ${DEFAULT_PORT} is taken, using a free one`);
      return startServer({ ...base, port: 0 });
    }
    throw e;
  }
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the visualiser, the recordings and the live hub on 127.0.0.1',
  usage: `assistant-safety serve [--port N] [--recordings DIR] [--machines DIR] [--metrics [--metrics-port N]]

Starts one HTTP server on 127.0.0.1: the visualiser app, the recordings of DIR
(default ./recordings, else the package's), the machines (default ./machines,
else the package's) and the live hub agents stream to with createLiveRecorder.
Prints the URL with a fresh random token on a line of its own; requests and
sockets without the token are refused. Stops on Ctrl-C.

  --port N          port to listen on (default ${DEFAULT_PORT}, or a free one if taken; 0: a free one)
  --recordings DIR  folder of .jsonl recordings to offer
  --machines DIR    folder of machine JSON files to draw
  --metrics         also serve /metrics (Prometheus text) for the live sessions, without
                    the token, on a loopback port of its own (docs/observability.md)
  --metrics-port N  that port (default ${DEFAULT_METRICS_PORT}; 0: a free one)`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        recordings: { type: 'string' },
        machines: { type: 'string' },
        metrics: { type: 'boolean' },
        'metrics-port': { type: 'string' },
      },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    let port: number | undefined;
    if (values.port !== undefined) {
      port = Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new UsageError(`--port: not a port: ${values.port}`);
    }
    const metricsPort = values['metrics-port'] === undefined ? undefined : Number(values['metrics-port']);
    if (metricsPort !== undefined && !(Number.isInteger(metricsPort) && metricsPort >= 0 && metricsPort <= 65535))
      throw new UsageError(`--metrics-port: not a port: ${values['metrics-port']}`);
    for (const dir of [values.recordings, values.machines]) {
      if (dir !== undefined && !existsSync(dir)) {
        io.err(`serve: no such folder: ${dir}`);
        return 2;
      }
    }
    const server = await serve(
      {
        ...(port !== undefined && { port }),
        ...(values.recordings !== undefined && { recordingsDir: resolve(values.recordings) }),
        ...(values.machines !== undefined && { machinesDir: resolve(values.machines) }),
        ...((values.metrics || metricsPort !== undefined) && {
          metrics: { port: metricsPort ?? DEFAULT_METRICS_PORT },
        }),
      },
      io,
    );
    io.out('assistant-safety visualiser: open');
    io.out(server.url);
    if (server.metrics) io.out(`metrics (Prometheus text, no token, loopback only): ${server.metrics.url}`);
    await new Promise<void>((done) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        done();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await server.close();
    return 0;
  },
};
