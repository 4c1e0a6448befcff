import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { DEFAULT_SERVER_TIMEOUTS } from 'assistant-safety/server';
import { startTestServer } from './helpers.js';

/*
 * Hostile inputs at the server's limits: each answers as docs/limits.md says,
 * never 500, never the server's folders in a message, and the socket limits
 * hold at the times the page gives.
 */

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const headers = (extra: Record<string, string> = {}) => ({ 'x-assistant-safety-token': server.token, ...extra });

describe('hostile requests', () => {
  it('should refuse a 300-character machine name with a 400 that names no folder', async () => {
    for (const method of ['GET', 'PUT', 'POST'] as const) {
      const name = 'a'.repeat(300);
      const path = method === 'POST' ? `${name}/preview` : name;
      const response = await fetch(`${server.origin}/api/machines/${path}`, {
        method,
        headers: headers({ 'content-type': 'application/json' }),
        ...(method !== 'GET' && { body: JSON.stringify({ definition: {}, baseVersion: 'absent' }) }),
      });
      const text = await response.text();
      expect(response.status, `${method}: ${text}`).toBe(400);
      expect(text).toMatch(/name/);
      expect(text).not.toContain(server.dir);
      expect(text).not.toMatch(/ENAMETOOLONG|\/tmp\/|\/work\//);
    }
  });

  it('should answer about 1 MiB of nested brackets with a 4xx, not a stack overflow', async () => {
    const depth = 500_000; // just under the 1 MiB body limit
    const body = `{"definition":${'['.repeat(depth)}${']'.repeat(depth)},"baseVersion":null}`;
    const response = await fetch(`${server.origin}/api/machines/deep`, {
      method: 'PUT',
      headers: headers({ 'content-type': 'application/json' }),
      body,
    });
    const text = await response.text();
    expect(response.status, text).toBeGreaterThanOrEqual(400);
    expect(response.status, text).toBeLessThan(500);
    expect(text).not.toMatch(/call stack/i);
  });

  it('should close a WebSocket whose message is over the limit with 1009 and a clean TCP close, not a reset', async () => {
    // A client that sends one 9 MiB frame and reads only what comes back (as a browser does): it must
    // get the close frame (1009) and then the end of the connection, not a reset that loses the frame (1006).
    const outcome = await new Promise<{ frame: string; how: string }>((resolve) => {
      const socket = connect(server.port, '127.0.0.1');
      let data = Buffer.alloc(0);
      let upgraded = false;
      const events: string[] = [];
      socket.on('error', (e) => events.push(`error ${(e as NodeJS.ErrnoException).code ?? e.message}`));
      socket.on('end', () => events.push('end'));
      socket.on('close', () => resolve({ frame: data.subarray(0, 4).toString('hex'), how: events.join(', ') }));
      socket.on('data', (chunk) => {
        data = Buffer.concat([data, chunk]);
        if (upgraded || !data.includes('\r\n\r\n')) return;
        upgraded = true;
        expect(data.toString('latin1')).toMatch(/^HTTP\/1\.1 101/);
        data = data.subarray(data.indexOf('\r\n\r\n') + 4);
        const size = 9 * 1024 * 1024;
        const header = Buffer.alloc(14);
        header[0] = 0x81; // FIN, text
        header[1] = 0x80 | 127; // masked, 64-bit length
        header.writeBigUInt64BE(BigInt(size), 2);
        randomBytes(4).copy(header, 10);
        socket.write(Buffer.concat([header, Buffer.alloc(size, 0x61)]));
      });
      socket.on('connect', () =>
        socket.write(
          `GET /live?token=${server.token} HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-key: ${randomBytes(16).toString('base64')}\r\nsec-websocket-version: 13\r\n\r\n`,
        ),
      );
    });
    expect(outcome).toEqual({ frame: '880203f1', how: 'end' }); // a close frame, code 1009 (0x03f1)
  });
});

describe('socket timeouts', () => {
  // Short timeouts so the test is quick; Node checks them every checkIntervalMs (its own default is 30 s).
  const timeouts = { headersMs: 1000, requestMs: 2000, checkIntervalMs: 200 };
  let short: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    short = await startTestServer({ timeouts });
  });
  afterAll(() => short.close());

  /** Opens a raw socket, runs `act`, and resolves with what the server wrote and when it closed. */
  const probe = (act: (socket: ReturnType<typeof connect>) => void) =>
    new Promise<{ ms: number; text: string }>((resolve, reject) => {
      const start = performance.now();
      const socket = connect(short.port, '127.0.0.1');
      let text = '';
      socket.on('data', (d) => (text += String(d)));
      socket.on('error', reject);
      socket.on('close', () => resolve({ ms: performance.now() - start, text }));
      socket.on('connect', () => act(socket));
    });
  // Generous: a loaded machine delays the check, but never by Node's default 30 s interval.
  const SLACK_MS = 4000;

  it('should close a connection whose headers have not all come within headersMs', async () => {
    const { ms, text } = await probe((socket) => socket.write(`GET / HTTP/1.1\r\nhost: 127.0.0.1:${short.port}\r\n`));
    expect(ms).toBeGreaterThanOrEqual(timeouts.headersMs - 50);
    expect(ms).toBeLessThan(timeouts.headersMs + timeouts.checkIntervalMs + SLACK_MS);
    expect(text === '' || text.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('should answer 408 and close a request whose body has not all come within requestMs', async () => {
    const { ms, text } = await probe((socket) =>
      socket.write(
        `PUT /api/machines/slow HTTP/1.1\r\nhost: 127.0.0.1:${short.port}\r\nx-assistant-safety-token: ${short.token}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"defi`,
      ),
    );
    expect(ms).toBeGreaterThanOrEqual(timeouts.requestMs - 50);
    expect(ms).toBeLessThan(timeouts.requestMs + timeouts.checkIntervalMs + SLACK_MS);
    expect(text).toMatch(/^HTTP\/1\.1 408/);
  });

  it('should check at most every second by default', async () => {
    expect(DEFAULT_SERVER_TIMEOUTS).toEqual({ headersMs: 10_000, requestMs: 30_000, checkIntervalMs: 1000 });
  });
});
