import { randomBytes } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { defaultStateDir } from '../node/stateDir.js';
import { MAX_TIMER_MS } from '../core/timerDelay.js';
import { HOOK_MAX_BODY, HOOK_NONCE_HEADER, HOOK_PROOF_HEADER, hookProof, sameProof } from '../hooks/serveProof.js';
import { HOOK_EVENT_ENV, HOOK_PATH_OPTIONS } from './hookEnv.js';

/*
 * The hook command's entry (`hook claude-code`): it loads nothing but node's own modules before
 * it knows whether a resident server (`hook serve`) is up. If one is, the event goes there and
 * its answer is this process's answer; if none is (no serve.json, or nothing listening), the
 * gate is loaded and decides here, as always. Once the event was sent, the server's silence is
 * never taken as "decide here": the server may have decided already (a call begun twice would
 * be let through), so it is a refusal (exit 2).
 *
 * The token never travels: serve.json can outlive its server (killed, or the machine restarted),
 * and any local user may listen on the port it names. So the event goes only to a server whose
 * pid is alive and this user's, the request carries a proof (an HMAC of a fresh nonce under the
 * token) instead of the token, and an answer counts only with the server's proof of its own
 * (the nonce and the answer's bytes, under the token): a squatter learns no token and decides nothing.
 */

const SERVE_FILE = 'serve.json';
interface Answer {
  code: number;
  out: string;
  err: string;
}

/** All of stdin, or undefined when it did not close within `ms`. */
function readStdin(ms: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stream = process.stdin;
    const timer = setTimeout(() => {
      stream.destroy();
      resolve(undefined);
    }, ms);
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    stream.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** The process `pid` runs and is this user's (signal 0 checks both, sending nothing). */
function alive(pid: unknown): boolean {
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false; // ESRCH: gone; EPERM: another user's process took its number
  }
}

/** The server of this state folder, if its file is this user's alone and its process still runs. */
function server(dir: string): { port: number; token: string } | undefined {
  const file = join(dir, SERVE_FILE);
  try {
    const stats = lstatSync(file);
    const uid = process.getuid?.();
    if (!stats.isFile() || (uid !== undefined && stats.uid !== uid) || (stats.mode & 0o077) !== 0) return undefined;
    const value = JSON.parse(readFileSync(file, 'utf8')) as { port?: unknown; token?: unknown; pid?: unknown };
    if (typeof value.port !== 'number' || typeof value.token !== 'string' || !alive(value.pid)) return undefined;
    return { port: value.port, token: value.token };
  } catch {
    return undefined;
  }
}

/**
 * `'absent'`: nothing received the event (decide here); otherwise the server's answer, or why there
 * is none. One HTTP/1.1 request written on a plain socket: in a process that lives for one event,
 * node's HTTP client costs more to warm up (about 5 ms here) than the server takes to decide.
 */
function ask(
  target: { port: number; token: string },
  args: string[],
  input: string,
  ms: number,
): Promise<Answer | 'absent' | string> {
  return new Promise((resolve) => {
    // The live token and the mode are the agent's, in this process's environment, not the server's: they go along.
    const env: Record<string, string> = {};
    for (const name of HOOK_EVENT_ENV) {
      const value = process.env[name];
      if (value) env[name] = value; // empty: as unset
    }
    const body = Buffer.from(JSON.stringify({ args, input, env }), 'utf8');
    // Sent, it would be refused (413) and so the call: decided here instead, as without the server.
    if (body.length > HOOK_MAX_BODY) return resolve('absent');
    const nonce = randomBytes(16).toString('hex');
    const head =
      `POST / HTTP/1.1\r\nhost: 127.0.0.1:${target.port}\r\n${HOOK_NONCE_HEADER}: ${nonce}\r\n` +
      `${HOOK_PROOF_HEADER}: ${hookProof(target.token, nonce)}\r\n` +
      `content-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`;
    let sent = false;
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port: target.port });
    socket.setTimeout(ms, () => socket.destroy(new Error(`no answer within ${ms} ms`)));
    socket.on('connect', () => {
      sent = true;
      // Not `end()`: node's HTTP server drops a request whose client half-closes before the answer.
      // `connection: close` has the server close once it answered.
      socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(answerOf(Buffer.concat(chunks), target.token, nonce)));
    socket.on('error', (e) => resolve(sent ? `the hook server failed: ${e.message}` : 'absent'));
  });
}

/**
 * The server's answer from its whole response: a status line, headers with the length and the
 * proof, the JSON body. A whole answer without the server's proof came from another process on
 * the port, which decided nothing: `'absent'`, as a 401 (another server, or an older hook serve).
 */
function answerOf(response: Buffer, token: string, nonce: string): Answer | 'absent' | string {
  const split = response.indexOf('\r\n\r\n');
  const head = response.subarray(0, split < 0 ? response.length : split).toString('latin1');
  const status = /^HTTP\/1\.[01] (\d{3}) /.exec(head)?.[1];
  if (status === '401') return 'absent'; // another server took the port: not ours
  const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
  const body = split < 0 ? undefined : response.subarray(split + 4);
  if (length === undefined || body === undefined || body.length !== Number(length))
    return `the hook server answered ${status ?? 'nothing'} without an answer`;
  const proof = new RegExp(`\r\n${HOOK_PROOF_HEADER}: *([0-9a-f]+)`, 'i').exec(head)?.[1];
  if (!sameProof(proof, hookProof(token, nonce, body))) return 'absent';
  if (status !== '200') return `the hook server answered ${status}: ${errorOf(body)}`;
  try {
    const answer = JSON.parse(body.toString('utf8')) as Answer;
    if (typeof answer.code !== 'number') throw new TypeError('no code');
    return answer;
  } catch {
    return `the hook server answered ${status} without an answer`;
  }
}

/** The `error` a refusal's JSON body carries, or its text. */
function errorOf(body: Buffer): string {
  const text = body.toString('utf8');
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    return typeof error === 'string' ? error : text;
  } catch {
    return text;
  }
}

/** Runs one hook event: through the resident server when it is up, else in this process. */
export async function runFastHook(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) return fallback(argv, undefined);
  const given = Number(optionValue(argv, '--deadline-ms') ?? NaN);
  // An out-of-range value reads stdin within the default: the gate then refuses it by name.
  const deadlineMs = Number.isInteger(given) && given > 0 && given <= MAX_TIMER_MS ? given : 5000;
  const input = await readStdin(deadlineMs);
  if (input === undefined) {
    process.stderr.write(
      `assistant-safety hook: no answer within ${deadlineMs} ms (reading the hook input on stdin); the call is refused\n`,
    );
    return 2;
  }
  const dir = optionValue(argv, '--state-dir') ?? defaultStateDir();
  const target = server(dir);
  if (target !== undefined) {
    const answer = await ask(target, withAbsolutePaths(argv), input, deadlineMs);
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

/** The arguments with every path option's value made absolute against this process's folder (the agent's). */
function withAbsolutePaths(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const name = HOOK_PATH_OPTIONS.find((o) => a === `--${o}` || a.startsWith(`--${o}=`));
    if (name === undefined) out.push(a);
    else if (a === `--${name}`) {
      out.push(a);
      if (i + 1 < argv.length) out.push(resolve(argv[++i]!));
    } else out.push(`--${name}=${resolve(a.slice(name.length + 3))}`);
  }
  return out;
}

/**
 * An option's value as the full parser reads it, `--name value` or `--name=value` (the last one
 * given): the server picked by the state folder must be the one the event's own options name.
 */
function optionValue(argv: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === name) value = argv[++i];
    else if (a.startsWith(`${name}=`)) value = a.slice(name.length + 1);
  }
  return value;
}

async function fallback(argv: string[], input: string | undefined): Promise<number> {
  const { runClaudeCodeHook } = await import('./hookClaudeCode.js');
  return runClaudeCodeHook(
    argv,
    { out: (t) => console.log(t), err: (t) => console.error(t) },
    ...(input === undefined ? [] : [async () => input]),
  );
}
