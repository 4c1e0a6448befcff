import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultStateDir } from '../node/stateDir.js';
import { runClaudeCodeHook } from './hookClaudeCode.js';
import type { CliIO } from './Command.js';
import {
  HOOK_MAX_BODY as MAX_BODY,
  HOOK_NONCE_HEADER,
  HOOK_PROOF_HEADER,
  hookProof,
  sameProof,
} from '../hooks/serveProof.js';
import { HOOK_EVENT_ENV } from './hookEnv.js';

/*
 * `assistant-safety hook serve`: the hook resident. The hook command's small entry (hookFast.ts)
 * sends each event here instead of loading the gate in a new process; the answer is the one the
 * command would give (the same function runs it, with the event's own options). The server
 * listens on 127.0.0.1 only, on a port of the system's choosing, and answers only requests that
 * prove they know its token (an HMAC of a fresh nonce: the token itself never travels, see
 * hookFast.ts), with its own proof; port, token and pid are in `<state folder>/serve.json` (mode
 * 0600, in the 0700 state folder). Any other request gets a status and a JSON `{ error }`.
 */

/** The file through which hook commands find the resident server. */
const SERVE_FILE = 'serve.json';

/** A JSON answer with its length (never chunked: the hook's small entry reads it off a plain socket). */
function reply(res: ServerResponse, status: number, value: unknown, proof?: { token: string; nonce: string }): void {
  const text = Buffer.from(JSON.stringify(value), 'utf8');
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': text.length,
    'cache-control': 'no-store',
    ...(proof && { [HOOK_PROOF_HEADER]: hookProof(proof.token, proof.nonce, text) }),
  });
  res.end(text);
}

/** Why a request is not the hook command's (status, error), or the nonce it proved the token with. */
function refusal(req: IncomingMessage, port: number, token: string): [number, string] | { nonce: string } {
  // A page reaching 127.0.0.1 through DNS rebinding sends its own host name.
  if (req.headers.host !== `127.0.0.1:${port}`) return [403, 'unexpected Host header'];
  if (req.method !== 'POST') return [405, 'only POST'];
  const nonce = req.headers[HOOK_NONCE_HEADER];
  const proof = req.headers[HOOK_PROOF_HEADER];
  if (typeof nonce !== 'string' || !/^[0-9a-f]{32}$/.test(nonce) || typeof proof !== 'string')
    return [401, `a request needs ${HOOK_NONCE_HEADER} (32 hex digits) and ${HOOK_PROOF_HEADER}`];
  if (!sameProof(proof, hookProof(token, nonce))) return [401, `wrong ${HOOK_PROOF_HEADER}`];
  return { nonce };
}

/**
 * The request's args, input and the hook command's environment variables that an event reads
 * (HOOK_EVENT_ENV: the live token, the mode; its environment, which this process does not share),
 * or what is wrong with its body.
 */
function eventOf(text: string): { args: string[]; input: string; env: Record<string, string | undefined> } | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    return `the body is not JSON: ${(e as Error).message}`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body is not a JSON object';
  const { args, input, env } = body as { args?: unknown; input?: unknown; env?: unknown };
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) return 'args: not an array of strings';
  if (typeof input !== 'string') return 'input: not a string';
  if (env !== undefined && (typeof env !== 'object' || env === null || Array.isArray(env)))
    return 'env: not a JSON object';
  // Each one the event reads, as the command had it; one it did not send is unset, not the server's.
  const sent: Record<string, string | undefined> = {};
  for (const name of HOOK_EVENT_ENV) {
    const value = (env as Record<string, unknown> | undefined)?.[name];
    if (value !== undefined && typeof value !== 'string') return `env.${name}: not a string`;
    sent[name] = value || undefined;
  }
  return { args, input, env: sent };
}

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
  let handled = 0;
  let port = 0;
  // A client that is slow to send its request is cut (Node's defaults are minutes, checked every 30 s).
  const limits = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1000 };
  const server: Server = createServer(limits, (req, res) => {
    const checked = refusal(req, port, token);
    if (Array.isArray(checked)) {
      if (checked[0] === 405) res.setHeader('allow', 'POST');
      res.setHeader('connection', 'close'); // its body, if any, is not read
      return reply(res, checked[0], { error: checked[1] });
    }
    const proof = { token, nonce: checked.nonce };
    const tooLarge = () => {
      res.setHeader('connection', 'close');
      reply(res, 413, { error: `the body is larger than ${MAX_BODY} bytes` }, proof);
    };
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) return tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      if (size > MAX_BODY) return;
      size += c.length;
      if (size > MAX_BODY) {
        chunks.length = 0;
        tooLarge();
      } else chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_BODY) return;
      const event = eventOf(Buffer.concat(chunks).toString('utf8'));
      if (typeof event === 'string') return reply(res, 400, { error: event }, proof);
      const { args, input } = event;
      // The server's own environment, but the live token and the mode only as the command had them (none: none).
      const env = { ...process.env, ...event.env };
      let out = '';
      let err = '';
      const io: CliIO = { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) };
      runClaudeCodeHook(['--state-dir', stateDir, ...args], io, async () => input, env).then(
        (code) => {
          handled++;
          reply(res, 200, { code, out, err }, proof);
        },
        (e: unknown) =>
          reply(
            res,
            200,
            { code: 2, out: '', err: `assistant-safety hook: ${String(e)}; the call is refused\n` },
            proof,
          ),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as { port: number }).port;
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
