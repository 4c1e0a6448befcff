import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from '../node/packageRoot.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';
import type { MetricsOptions } from './metricsRoute.js';
import { startServer, type RunningServer } from './startServer.js';

/** The port `serve` tries first when none is given. */
export const DEFAULT_PORT = 4400;

export interface ServeAppOptions {
  /** Default {@link DEFAULT_PORT}, or a free one when that is taken; 0: a free one. */
  port?: number;
  /** Default `./recordings` if the working folder has one, else the package's. */
  recordingsDir?: string;
  /** Default `./machines` if the working folder has one, else the package's. */
  machinesDir?: string;
  token?: string;
  /** Also serve `/metrics` on a loopback port of its own (docs/observability.md). */
  metrics?: MetricsOptions;
  /** Where warnings go (the app not built, the default port taken). Default `console.error`. */
  warn?: (message: string) => void;
}

const OPTION_KEYS = keysOf<ServeAppOptions>({
  port: true,
  recordingsDir: true,
  machinesDir: true,
  token: true,
  metrics: true,
  warn: true,
});

/** `./<name>` if the working folder has one, else the package's own. */
function defaultDir(name: string): string {
  const local = resolve(name);
  return existsSync(local) ? local : join(packageRoot(), name);
}

/**
 * Starts the visualiser's server as `assistant-safety serve` does: the built
 * app of this package, the recordings and machines folders, on the given port
 * or {@link DEFAULT_PORT} (a free one if that is taken).
 *
 * @example
 * const server = await serveApp({ port: 0 });
 * console.log(server.url); // http://127.0.0.1:PORT/?token=…
 * await server.close();
 */
export async function serveApp(options: ServeAppOptions = {}): Promise<RunningServer> {
  refuseUnknownOptions('serveApp', options, OPTION_KEYS);
  const warn = options.warn ?? ((message: string) => console.error(message));
  const appDir = join(packageRoot(), 'dist', 'viz');
  if (!existsSync(join(appDir, 'index.html'))) {
    warn('serve: the app is not built (dist/viz is missing): run `npm run build`; the API and live hub work meanwhile');
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
      warn(`serve: port ${DEFAULT_PORT} is taken, using a free one`);
      return startServer({ ...base, port: 0 });
    }
    throw e;
  }
}
