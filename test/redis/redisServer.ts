import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * A real redis-server for one test file (or one bench run): a free loopback
 * port, a temporary folder, persistence off unless `aof` asks for an
 * append-only file (fsync on every write, so a SIGKILL loses nothing that was
 * acknowledged). Nothing relies on a system service.
 */

export interface TestRedisOptions {
  /** Keep an append-only file (appendfsync always) so a restart keeps every acknowledged write. */
  aof?: boolean;
}

export interface TestRedis {
  /** `redis://127.0.0.1:PORT` */
  readonly url: string;
  readonly port: number;
  /** The server's working folder (the AOF lives here). */
  readonly dir: string;
  /** The server's process id (changes on restart). */
  readonly pid: number | undefined;
  /** Kills the server at once (SIGKILL): connections drop, nothing is flushed. */
  kill(): Promise<void>;
  /** Starts it again on the same port and folder (with the same persistence). */
  restart(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** A port the kernel says is free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections and answers PING on the port, or rejects after `ms`. */
async function waitForPing(port: number, ms: number, child: ChildProcess): Promise<void> {
  const until = Date.now() + ms;
  let lastError = '';
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      const done = (value: boolean) => {
        socket.destroy();
        resolve(value);
      };
      socket.setTimeout(500, () => done(false));
      socket.once('error', (e) => {
        lastError = e.message;
        done(false);
      });
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => done(String(data).startsWith('+PONG')));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server did not answer on port ${port} within ${ms} ms (${lastError})`);
}

/**
 * Starts `redis-server` on a free loopback port in a temporary folder.
 *
 * @example
 * const redis = await startTestRedis();
 * const store = createRedisSessionStore({ url: redis.url });
 * // ...
 * await store.close();
 * await redis.stop();
 */
export async function startTestRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'assistant-safety-redis-'));
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--daemonize',
    'no',
    '--logfile',
    '',
    '--loglevel',
    'warning',
    ...(options.aof ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
  ];
  let child: ChildProcess | undefined;
  let stderr = '';

  const start = async () => {
    const c = spawn(REDIS_SERVER, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    child = c;
    c.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + String(d)).slice(-4000);
    });
    const spawned = new Promise<void>((resolve, reject) => {
      c.once('spawn', resolve);
      c.once('error', (e) => reject(new Error(`cannot start ${REDIS_SERVER}: ${e.message}`)));
    });
    await spawned;
    try {
      await waitForPing(port, 10_000, c);
    } catch (e) {
      c.kill('SIGKILL');
      throw new Error(`${(e as Error).message}\n${stderr}`);
    }
  };

  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    get pid() {
      return child?.pid;
    },
    kill,
    restart: async () => {
      await kill();
      await start();
    },
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
