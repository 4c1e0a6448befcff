import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { formatPath } from '../core/MachineDefinition.js';
import { JSONRPC_INVALID_REQUEST, JSONRPC_PARSE_ERROR } from './jsonRpc.js';

export interface StdioServerTransportOptions {
  /** Longest line accepted, in bytes. Default 10 MiB (the SDK's). */
  maxLineBytes?: number;
  /**
   * Most bytes waiting for a client that does not read. Past it, notifications (progress, logs,
   * list changes) are dropped and counted, not buffered; answers are always written. Default 8 MiB.
   */
  maxBufferedBytes?: number;
}

/**
 * MCP over stdio towards the client (newline-delimited JSON-RPC), like the
 * SDK's `StdioServerTransport`, with two differences a gateway needs: a
 * malformed line gets a JSON-RPC error (`-32700` for bad JSON, `-32600` for
 * JSON that is not a JSON-RPC message, with the request's id when it has
 * one) instead of being dropped, the end of stdin (the client went away)
 * closes the transport, and a client that stops reading cannot make the
 * gateway buffer without bound: past `maxBufferedBytes` waiting, notifications
 * are dropped and the count is reported (`onerror`) when it starts and when
 * the client reads again.
 *
 * @example
 * const upstream = createStdioServerTransport(); // process.stdin / process.stdout
 * const gateway = createMcpGateway({ upstream, downstream, session });
 */
export function createStdioServerTransport(
  stdin: Readable = process.stdin,
  stdout: Writable = process.stdout,
  options: StdioServerTransportOptions = {},
): Transport {
  const maxLineBytes = options.maxLineBytes ?? 10 * 1024 * 1024;
  const maxBuffered = options.maxBufferedBytes ?? 8 * 1024 * 1024;
  let dropped = 0;
  /** Who waits for the client to read (one 'drain' listener for all of them). */
  let waiting: Array<() => void> = [];
  const onDrain = () => {
    const now = waiting;
    waiting = [];
    for (const wake of now) wake();
  };
  let droppedNow = 0;
  let buffer: Buffer | undefined;
  let skipping = false; // inside an over-long line, until its newline
  let closed = false;

  const transport: Transport = {
    async start() {
      stdin.on('data', onData);
      stdin.on('end', onEnd);
      stdin.on('close', onEnd);
      stdin.on('error', onError);
      // A client that died leaves a broken pipe: that is the end of the session, not a crash.
      stdout.on('error', onStdoutError);
      stdout.on('drain', onDrain);
    },
    send(message: JSONRPCMessage) {
      return new Promise<void>((resolve, reject) => {
        if (closed) return reject(new Error('the client transport is closed'));
        if (!('id' in message) && stdout.writableLength > maxBuffered) {
          dropped++;
          if (droppedNow++ === 0) {
            transport.onerror?.(
              new Error(
                `the client is not reading: over ${maxBuffered} bytes wait for it, so notifications are dropped until it reads again`,
              ),
            );
            waiting.push(() => {
              transport.onerror?.(
                new Error(`the client reads again: ${droppedNow} notification(s) dropped (${dropped} in this session)`),
              );
              droppedNow = 0;
            });
          }
          return resolve();
        }
        if (stdout.write(JSON.stringify(message) + '\n')) resolve();
        else waiting.push(resolve);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      stdin.off('error', onError);
      stdout.off('error', onStdoutError);
      stdout.off('drain', onDrain);
      onDrain();
      stdin.pause();
      buffer = undefined;
      transport.onclose?.();
    },
  };

  const reply = (code: number, message: string, id?: string | number) => {
    transport.onerror?.(new Error(message));
    void transport
      .send({ jsonrpc: '2.0', ...(id !== undefined && { id }), error: { code, message } })
      .catch(() => undefined);
  };

  const handleLine = (line: string) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      return reply(JSONRPC_PARSE_ERROR, `Parse error: ${(e as Error).message}`);
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (parsed.success) return transport.onmessage?.(parsed.data);
    const o =
      typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
    const id = typeof o.id === 'string' || (typeof o.id === 'number' && Number.isInteger(o.id)) ? o.id : undefined;
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length ? ` at ${formatPath(issue.path)}` : '';
    // A malformed notification has no id to answer; anything else gets the error.
    if (typeof o.method === 'string' && id === undefined && !('id' in o)) {
      transport.onerror?.(new Error(`Invalid notification ${o.method}${where}: ${issue?.message ?? 'malformed'}`));
      return;
    }
    reply(
      JSONRPC_INVALID_REQUEST,
      `Invalid Request: not a JSON-RPC 2.0 message${where}${issue ? `: ${issue.message}` : ''}`,
      id,
    );
  };

  function onData(chunk: Buffer) {
    let data = buffer ? Buffer.concat([buffer, chunk]) : chunk;
    buffer = undefined;
    let start = 0;
    for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
      if (skipping) skipping = false;
      else handleLine(data.toString('utf8', start, nl).replace(/\r$/, ''));
      start = nl + 1;
      if (closed) return;
    }
    data = data.subarray(start);
    if (data.length > maxLineBytes) {
      if (!skipping) reply(JSONRPC_PARSE_ERROR, `Parse error: a message is longer than ${maxLineBytes} bytes`);
      skipping = true;
      return;
    }
    if (data.length > 0 && !skipping) buffer = data;
  }
  function onEnd() {
    void transport.close();
  }
  function onError(error: Error) {
    transport.onerror?.(error);
  }
  function onStdoutError(error: Error) {
    transport.onerror?.(error);
    void transport.close();
  }
  return transport;
}
