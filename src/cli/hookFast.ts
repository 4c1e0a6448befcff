import { lstatSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { defaultStateDir } from '../node/stateDir.js';

/*
 * The hook command's entry (`hook claude-code`): it loads nothing but node's own modules before
 * it knows whether a resident server (`hook serve`) is up. If one is, the event goes there and
 * its answer is this process's answer; if none is (no serve.json, or nothing listening), the
 * gate is loaded and decides here, as always. Once the event was sent, the server's silence is
 * never taken as "decide here": the server may have decided already (a call begun twice would
 * be let through), so it is a refusal (exit 2).
 */

const SERVE_FILE = 'serve.json';
const HOOK_TOKEN_HEADER = 'x-assistant-safety-hook-token';

interface Answer {
  code: number;
  out: string;
  err: string;
}

/** All of stdin, or undefined when it did not close within `ms`. */
function readStdin(ms: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      process.stdin.destroy();
      resolve(undefined);
    }, ms);
    process.stdin.on('data', (c: Buffer) => chunks.push(c));
    process.stdin.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    process.stdin.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** The server of this state folder, if its file is this user's alone. */
function server(dir: string): { port: number; token: string } | undefined {
  const file = join(dir, SERVE_FILE);
  try {
    const stats = lstatSync(file);
    const uid = process.getuid?.();
    if (!stats.isFile() || (uid !== undefined && stats.uid !== uid) || (stats.mode & 0o077) !== 0) return undefined;
    const value = JSON.parse(readFileSync(file, 'utf8')) as { port?: unknown; token?: unknown };
    if (typeof value.port !== 'number' || typeof value.token !== 'string') return undefined;
    return { port: value.port, token: value.token };
  } catch {
    return undefined;
  }
}

/** `'absent'`: nothing received the event (decide here); otherwise the server's answer, or why there is none. */
function ask(
  target: { port: number; token: string },
  args: string[],
  input: string,
  ms: number,
): Promise<Answer | 'absent' | string> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ args, input });
    let sent = false;
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: 'POST',
        path: '/',
        headers: { [HOOK_TOKEN_HEADER]: target.token, 'content-type': 'application/json' },
        timeout: ms,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode === 401) return resolve('absent'); // another server took the port: not ours
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer);
          } catch {
            resolve(`the hook server answered ${res.statusCode} without an answer`);
          }
        });
      },
    );
    req.on('socket', (socket) => socket.on('connect', () => (sent = true)));
    req.on('timeout', () => req.destroy(new Error(`no answer within ${ms} ms`)));
    req.on('error', (e) => resolve(sent ? `the hook server failed: ${e.message}` : 'absent'));
    req.end(body);
  });
}

/** Runs one hook event: through the resident server when it is up, else in this process. */
export async function runFastHook(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) return fallback(argv, undefined);
  const d = argv.indexOf('--deadline-ms');
  const given = d >= 0 ? Number(argv[d + 1]) : NaN;
  const deadlineMs = Number.isInteger(given) && given > 0 ? given : 5000;
  const input = await readStdin(deadlineMs);
  if (input === undefined) {
    process.stderr.write(
      `assistant-safety hook: no answer within ${deadlineMs} ms (reading the hook input on stdin); the call is refused\n`,
    );
    return 2;
  }
  const i = argv.indexOf('--state-dir');
  const dir = (i >= 0 ? argv[i + 1] : undefined) ?? defaultStateDir();
  const target = server(dir);
  if (target !== undefined) {
    const answer = await ask(target, argv, input, deadlineMs);
    if (typeof answer === 'object') {
      if (answer.out) process.stdout.write(answer.out);
      if (answer.err) process.stderr.write(answer.err);
      return answer.code;
    }
    if (answer !== 'absent') {
      process.stderr.write(`assistant-safety hook: ${answer}; the call is refused\n`);
      return 2;
    }
  }
  return fallback(argv, input);
}

async function fallback(argv: string[], input: string | undefined): Promise<number> {
  const { runClaudeCodeHook } = await import('./hookClaudeCode.js');
  return runClaudeCodeHook(
    argv,
    { out: (t) => console.log(t), err: (t) => console.error(t) },
    ...(input === undefined ? [] : [async () => input]),
  );
}
