import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/** The error code of an answer the gateway could not read because it was over the read limit. */
export const JSONRPC_RESULT_TOO_LARGE = -32001;

/** The default longest line read from the server, in bytes: 10 MiB, the SDK's own limit. */
const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;
/** The default wait after closing the server's stdin, then after SIGTERM, before the next step. */
const DEFAULT_KILL_GRACE_MS = 1000;

export interface SpawnMcpServerOptions {
  /** The server's environment. Default: this process's whole environment (a client's config sets the gateway's). */
  env?: Record<string, string>;
  cwd?: string;
  /** Where the server's stderr goes. Default `inherit`: the gateway's stderr, never its stdout. */
  stderr?: 'inherit' | 'pipe' | 'ignore';
  /**
   * Longest message read from the server, in bytes. Default 10 MiB (the SDK's). A longer answer is
   * not read: the request it answers gets a JSON-RPC error ({@link JSONRPC_RESULT_TOO_LARGE}) and
   * the session goes on.
   */
  maxLineBytes?: number;
  /** How long the server's process group gets after its stdin closes, then after SIGTERM. Default 1000 ms. */
  killGraceMs?: number;
}

/** The connection to an MCP server run as a child process: an SDK `Transport` plus the process. */
export interface McpServerProcess extends Transport {
  /** The server's pid (its process group's id), once started. */
  readonly pid: number | undefined;
  /** The server's stderr when `stderr: 'pipe'`. */
  readonly stderr: Readable | null;
  /**
   * How the server's process ended, once it has: its exit code, or the signal that ended it
   * (`{ code: null, signal: 'SIGKILL' }`); undefined while it runs or before it started.
   */
  readonly exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
}

const asObject = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** A JSON-RPC id as JSON text: a number or a string literal. */
const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
const ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * The id of an answer too long to parse, from its first and last bytes: serialisers put the
 * top-level `id` either first (after `jsonrpc`) or last (the TypeScript SDK's own order).
 */
function idOfTruncated(head: string, tail: string): RequestId | undefined {
  const found = ID_AT_START.exec(head)?.[1] ?? ID_AT_END.exec(tail)?.[1];
  if (found === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(found);
    return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : undefined;
  } catch {
    return undefined;
  }
}

const HAS_PROC = process.platform === 'linux' && existsSync('/proc/self/stat');

/**
 * Whether any process of group `pgid` still runs. A zombie does not count: it has ended, and
 * in a container whose init does not reap orphans it may stay a zombie for good. Without
 * `/proc`, asks the kernel (zombies then count until reaped).
 */
function groupRuns(pgid: number): boolean {
  if (!HAS_PROC) {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}

/**
 * The transport to an MCP server run as a child process over stdio
 * (newline-delimited JSON-RPC), built for a gateway that must leave nothing
 * behind:
 *
 * - The server starts in its own process group (a `npx` wrapper and the
 *   server it spawns alike), and `close()` ends the whole group: stdin
 *   closed, then SIGTERM after `killGraceMs`, then SIGKILL after
 *   `killGraceMs` more. A server that exits on its own has what it left
 *   behind in its group ended the same way; so does the gateway's own exit.
 * - The child inherits the whole environment, because a client's config
 *   gives its `env` to the gateway it starts, meaning the server.
 * - An answer over `maxLineBytes` is dropped and the request it answers gets
 *   a JSON-RPC error instead: the session goes on.
 *
 * @example
 * const downstream = spawnMcpServer('npx', ['-y', '@modelcontextprotocol/server-filesystem', '/tmp/notes']);
 * const gateway = createMcpGateway({ upstream: createStdioServerTransport(), downstream, session });
 */
export function spawnMcpServer(
  command: string,
  args: readonly string[] = [],
  options: SpawnMcpServerOptions = {},
): McpServerProcess {
  const env =
    options.env ??
    Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const groups = process.platform !== 'win32';
  let child: ChildProcess | undefined;
  /** Inside an over-long line: its first and (so far) last bytes. */
  let skipping: { head: string; tail: Buffer } | undefined;
  let closing: Promise<void> | undefined;
  let closedOnce = false;

  /** Signals the server's whole process group; false when nothing of it is left. */
  const signalGroup = (signal: NodeJS.Signals): boolean => {
    const pid = child?.pid;
    if (pid === undefined) return false;
    try {
      if (groups) process.kill(-pid, signal);
      else if (child!.exitCode === null && child!.signalCode === null) child!.kill(signal);
      else return false;
      return true;
    } catch {
      return false;
    }
  };
  /** The gateway is exiting (even by process.exit or a crash): nothing of the server may outlive it. */
  const onProcessExit = () => void signalGroup('SIGKILL');
  const gone = () => {
    const pid = child?.pid;
    if (pid === undefined) return true;
    if (!groups) return child!.exitCode !== null || child!.signalCode !== null;
    return !groupRuns(pid);
  };
  const waitGone = async (ms: number) => {
    const end = Date.now() + ms;
    while (!gone() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    return gone();
  };
  /** stdin closed, SIGTERM after the grace period, SIGKILL after another. */
  const endGroup = () =>
    (closing ??= (async () => {
      child?.stdin?.end();
      if (await waitGone(graceMs)) return;
      signalGroup('SIGTERM');
      if (await waitGone(graceMs)) return;
      signalGroup('SIGKILL');
      await waitGone(graceMs);
    })());

  const emitClose = () => {
    if (closedOnce) return;
    closedOnce = true;
    process.off('exit', onProcessExit);
    transport.onclose?.();
  };

  const handleLine = (line: string) => {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (e) {
      transport.onerror?.(
        new Error(`the MCP server sent a line that is not a JSON-RPC message: ${(e as Error).message}`),
      );
      return;
    }
    transport.onmessage?.(message);
  };

  const endOverLong = () => {
    const { head, tail } = skipping!;
    skipping = undefined;
    const id = idOfTruncated(head, tail.toString('utf8'));
    transport.onerror?.(
      new Error(
        `the MCP server sent a message over ${maxLineBytes} bytes (the read limit); it was dropped${id === undefined ? ' (no request id found in it)' : ` and request ${JSON.stringify(id)} answered with an error`}`,
      ),
    );
    if (id === undefined) return;
    transport.onmessage?.({
      jsonrpc: '2.0',
      id,
      error: {
        code: JSONRPC_RESULT_TOO_LARGE,
        message: `the MCP server's answer is over the gateway's read limit of ${maxLineBytes} bytes; it was dropped`,
      },
    });
  };

  const keepTail = (tail: Buffer, more: Buffer) => {
    const joined = Buffer.concat([tail, more]);
    return joined.subarray(Math.max(0, joined.length - 512));
  };

  /** The start of the current line, in pieces (joined once its newline comes: no quadratic copying). */
  let parts: Buffer[] = [];
  let partsBytes = 0;
  const onData = (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (skipping) {
        skipping.tail = keepTail(skipping.tail, piece);
        endOverLong();
        continue;
      }
      const line = partsBytes === 0 ? piece : Buffer.concat([...parts, piece]);
      parts = [];
      partsBytes = 0;
      if (line.length > maxLineBytes) {
        skipping = { head: line.toString('utf8', 0, 512), tail: line.subarray(Math.max(512, line.length - 512)) };
        endOverLong();
      } else handleLine(line.toString('utf8').replace(/\r$/, ''));
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0) return;
    if (skipping) {
      skipping.tail = keepTail(skipping.tail, rest);
      return;
    }
    parts.push(rest);
    partsBytes += rest.length;
    if (partsBytes > maxLineBytes) {
      // Over the limit and no end in sight: keep only its first and last bytes from here on.
      const joined = Buffer.concat(parts);
      skipping = { head: joined.toString('utf8', 0, 512), tail: joined.subarray(Math.max(512, joined.length - 512)) };
      parts = [];
      partsBytes = 0;
    }
  };

  const transport: McpServerProcess = {
    get pid() {
      return child?.pid;
    },
    get stderr() {
      return child?.stderr ?? null;
    },
    get exit() {
      if (!child || (child.exitCode === null && child.signalCode === null)) return undefined;
      return { code: child.exitCode, signal: child.signalCode };
    },
    start() {
      if (child) throw new Error('spawnMcpServer: already started');
      return new Promise<void>((resolve, reject) => {
        const started = spawn(command, [...args], {
          env,
          stdio: ['pipe', 'pipe', options.stderr ?? 'inherit'],
          detached: groups,
          windowsHide: true,
          ...(options.cwd !== undefined && { cwd: options.cwd }),
        });
        child = started;
        started.once('error', (error) => {
          if (started.pid === undefined) {
            emitClose();
            return reject(error);
          }
          transport.onerror?.(error);
        });
        started.once('spawn', () => {
          process.on('exit', onProcessExit);
          resolve();
        });
        // The leader exited (a crash, or a wrapper that quit): what it left in its group goes too.
        started.once('exit', () => void endGroup());
        started.once('close', () => void endGroup().then(emitClose));
        started.stdout!.on('data', onData);
        started.stdout!.on('error', (e) => transport.onerror?.(e));
        // A server that stopped reading its stdin: the write fails, the session ends with the process.
        started.stdin!.on('error', (e) => transport.onerror?.(e));
      });
    },
    send(message: JSONRPCMessage) {
      return new Promise<void>((resolve, reject) => {
        const stdin = child?.stdin;
        if (!stdin || !stdin.writable || closing) return reject(new Error('the MCP server is not running'));
        if (stdin.write(JSON.stringify(message) + '\n')) resolve();
        else stdin.once('drain', resolve);
      });
    },
    async close() {
      if (!child) return emitClose();
      await endGroup();
      // 'close' follows once the pipes are shut; do not wait for a grandchild's inherited pipe.
      emitClose();
    },
  };
  return transport;
}

/** Whether a JSON-RPC error is the one {@link spawnMcpServer} answers an over-long message with. */
export const isTooLarge = (error: unknown) => asObject(error)?.code === JSONRPC_RESULT_TOO_LARGE;
