import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultStateDir } from '../node/stateDir.js';
import { runClaudeCodeHook } from './hookClaudeCode.js';
import type { CliIO } from './Command.js';

/*
 * `assistant-safety hook serve`: the hook resident. The hook command's small entry (hookFast.ts)
 * sends each event here instead of loading the gate in a new process; the answer is the one the
 * command would give (the same function runs it, with the event's own options). The server
 * listens on 127.0.0.1 only, on a port of the system's choosing, and answers only requests that
 * carry its token; both are in `<state folder>/serve.json` (mode 0600, in the 0700 state folder).
 */

/** The file through which hook commands find the resident server. */
const SERVE_FILE = 'serve.json';
/** The header carrying the server's token. */
const HOOK_TOKEN_HEADER = 'x-assistant-safety-hook-token';
const MAX_BODY = 4 * 1024 * 1024;

/** A running hook server. */
export interface HookServer {
  readonly port: number;
  /** Events answered so far. */
  readonly handled: number;
  close(): Promise<void>;
}

/** Starts the resident hook server for a state folder. */
export async function startHookServer(stateDir: string): Promise<HookServer> {
  const token = randomBytes(24).toString('hex');
  const expected = Buffer.from(token);
  let handled = 0;
  const server: Server = createServer((req, res) => {
    const given = Buffer.from(String(req.headers[HOOK_TOKEN_HEADER] ?? ''));
    if (req.method !== 'POST' || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(req.method !== 'POST' ? 405 : 401).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      let body: { args?: unknown; input?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        res.writeHead(400).end();
        return;
      }
      const args = Array.isArray(body.args) && body.args.every((a) => typeof a === 'string') ? body.args : undefined;
      if (args === undefined || typeof body.input !== 'string') {
        res.writeHead(400).end();
        return;
      }
      const input = body.input;
      let out = '';
      let err = '';
      const io: CliIO = { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) };
      runClaudeCodeHook(['--state-dir', stateDir, ...args], io, async () => input).then(
        (code) => {
          handled++;
          answer(res, { code, out, err });
        },
        (e: unknown) =>
          answer(res, { code: 2, out: '', err: `assistant-safety hook: ${String(e)}; the call is refused\n` }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  chmodSync(stateDir, 0o700);
  const file = join(stateDir, SERVE_FILE);
  writeFileSync(file, JSON.stringify({ port, token, pid: process.pid }), { mode: 0o600 });
  chmodSync(file, 0o600);
  return {
    port,
    get handled() {
      return handled;
    },
    async close() {
      try {
        if ((JSON.parse(readFileSync(file, 'utf8')) as { pid?: number }).pid === process.pid) rmSync(file);
      } catch {
        // gone already
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `hook serve`: runs until SIGINT or SIGTERM. */
export async function runHookServe(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { 'state-dir': { type: 'string' } } });
  const dir = values['state-dir'] ?? defaultStateDir();
  const server = await startHookServer(dir);
  io.out(`assistant-safety hook serve: listening on 127.0.0.1:${server.port} for ${dir}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}

/** The answer with its length (never chunked): the hook's small entry reads it off a plain socket. */
function answer(res: ServerResponse, body: { code: number; out: string; err: string }): void {
  const text = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length }).end(text);
}
