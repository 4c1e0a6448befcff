import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunningServer } from '../server/startServer.js';
import { DEFAULT_PORT, serveApp, type ServeAppOptions } from '../server/serveApp.js';
import { UsageError, type CliIO, type Command } from './Command.js';
import { checkRedisServer, startServeBridge } from '../redis/cliSupport.js';
import { REDIS_TARGET_OPTIONS, redisTargetOf, refuseDurability } from './redisTarget.js';
import { DEFAULT_METRICS_PORT } from '../server/metricsRoute.js';
import { untilStopped } from './untilStopped.js';

interface ServeOptions extends Omit<ServeAppOptions, 'warn'> {}

/** `serveApp` with the CLI's error stream for warnings. */
function serve(options: ServeOptions, io: CliIO): Promise<RunningServer> {
  return serveApp({ ...options, warn: io.err });
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the visualiser, the recordings and the live hub on 127.0.0.1',
  usage: `assistant-safety serve [--port N] [--recordings DIR] [--machines DIR]
                       [--redis URL | --redis-cluster URL[,URL...] [--redis-prefix P]]
                       [--metrics [--metrics-port N]]

Starts one HTTP server on 127.0.0.1: the visualiser app, the recordings of DIR
(default ./recordings, else the package's), the machines (default ./machines,
else the package's) and the live hub agents stream to with createLiveRecorder.
Prints the URL with a fresh random token on a line of its own; requests and
sockets without the token are refused. Stops on Ctrl-C.

  --port N          port to listen on (default ${DEFAULT_PORT}, or a free one if taken; 0: a free one)
  --recordings DIR  folder of .jsonl recordings to offer
  --machines DIR    folder of machine JSON files to draw
  --redis URL       also show, live, the sessions workers share through Redis (createRedisSessionStore
                    with streams on), whichever worker handles each call
  --redis-cluster URL[,URL...]
                    the same from a Redis Cluster (some of its nodes; the rest are found):
                    the sessions on every primary
  --redis-prefix P  the workers' key prefix (default assistant-safety:)
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
        ...REDIS_TARGET_OPTIONS,
        'redis-prefix': { type: 'string' },
        metrics: { type: 'boolean' },
        'metrics-port': { type: 'string' },
      },
    });
    const redis = redisTargetOf(values);
    refuseDurability(values, 'serve');
    if (redis === undefined && values['redis-prefix'] !== undefined)
      throw new UsageError('--redis-prefix goes with --redis or --redis-cluster');
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
    if (redis !== undefined) {
      // A Redis that is down may come up (the bridge keeps trying); one that refuses the URL will not.
      const problem = await checkRedisServer(redis);
      if (problem && !problem.unreachable) {
        io.err(`serve: ${problem.message}`);
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
    const bridge =
      redis === undefined ? undefined : await startServeBridge(redis, values['redis-prefix'], server.url, io);
    if (server.metrics) io.out(`metrics (Prometheus text, no token, loopback only): ${server.metrics.url}`);
    await untilStopped();
    await bridge?.close();
    await server.close();
    return 0;
  },
};
