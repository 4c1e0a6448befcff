import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../src/server/startServer.js';
import { LIVE_PROTOCOL, TOKEN_PROTOCOL_PREFIX } from '../../src/live/protocol.js';
import { startTestServer } from './helpers.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Opens a socket; resolves 'open' or the HTTP status it was refused with. */
function upgrade(url: string, headers: Record<string, string> = {}): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(0));
  });
}

describe('the token', () => {
  it('should print the URL with the token, on 127.0.0.1', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
  });

  it('should refuse the page and every API request without the token with 401', async () => {
    for (const path of ['/', '/index.html', '/api/recordings', '/api/machines', '/api/recordings/blocked.jsonl']) {
      const res = await fetch(server.origin + path);
      expect(res.status, path).toBe(401);
      expect(await res.text()).not.toContain('<title>app');
    }
  });

  it('should refuse a wrong token with 403', async () => {
    const res = await fetch(`${server.origin}/api/recordings?token=${'0'.repeat(64)}`);
    expect(res.status).toBe(403);
    const short = await fetch(`${server.origin}/api/recordings`, { headers: { 'x-assistant-safety-token': 'x' } });
    expect(short.status).toBe(403);
  });

  it('should accept the token in the query or in the header', async () => {
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    const byHeader = await fetch(`${server.origin}/api/recordings`, {
      headers: { 'x-assistant-safety-token': server.token },
    });
    expect(byHeader.status).toBe(200);
  });

  it('should never set a cookie, so no other port or origin on the host ever receives the token', async () => {
    for (const path of ['/', `/?token=${server.token}`, `/index.html?token=${server.token}`, '/app.js']) {
      const res = await fetch(server.origin + path);
      expect(res.headers.get('set-cookie'), path).toBeNull();
    }
    const byHeader = await fetch(`${server.origin}/api/machines`, {
      headers: { 'x-assistant-safety-token': server.token },
    });
    expect(byHeader.headers.get('set-cookie')).toBeNull();
  });

  it('should not take a cookie as the token', async () => {
    for (const cookie of [`assistant_safety_${server.port}=${server.token}`, `token=${server.token}`]) {
      expect((await fetch(`${server.origin}/api/recordings`, { headers: { cookie } })).status).toBe(401);
      expect((await fetch(`${server.origin}/index.html`, { headers: { cookie } })).status).toBe(401);
    }
  });

  it("should serve the app's own scripts and styles without the token (they hold no data), and nothing else", async () => {
    const script = await fetch(`${server.origin}/app.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('app');
    expect((await fetch(`${server.origin}/api/sessions`)).status).toBe(401);
  });

  it('should open the live socket with the token as a WebSocket subprotocol (what a browser can send)', async () => {
    const ws = server.origin.replace('http', 'ws');
    const opened = await new Promise<string>((resolve) => {
      const socket = new WebSocket(`${ws}/live`, [LIVE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${server.token}`]);
      socket.on('open', () => {
        resolve(socket.protocol);
        socket.close();
      });
      socket.on('unexpected-response', (_req, res) => resolve(`HTTP ${res.statusCode}`));
      socket.on('error', (e) => resolve(String(e)));
    });
    expect(opened).toBe(LIVE_PROTOCOL);
    const wrong = await new Promise<string>((resolve) => {
      const socket = new WebSocket(`${ws}/live`, [LIVE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${'0'.repeat(64)}`]);
      socket.on('open', () => resolve('open'));
      socket.on('unexpected-response', (_req, res) => resolve(`HTTP ${res.statusCode}`));
      socket.on('error', (e) => resolve(String(e)));
    });
    expect(wrong).toBe('HTTP 403');
  });

  it('should refuse a WebSocket upgrade without the right token', async () => {
    const ws = server.origin.replace('http', 'ws');
    expect(await upgrade(`${ws}/live`)).toBe(401);
    expect(await upgrade(`${ws}/live?token=nope`)).toBe(403);
    expect(await upgrade(`${ws}/live?token=${server.token}`)).toBe('open');
    expect(await upgrade(`${ws}/live`, { 'x-assistant-safety-token': server.token })).toBe('open');
  });

  it('should refuse a request for another host name or from a foreign origin, token or not', async () => {
    const ws = server.origin.replace('http', 'ws');
    expect(await upgrade(`${ws}/live?token=${server.token}`, { origin: 'http://evil.example' })).toBe(403);
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      request(`${server.url}`, { headers: { host: 'evil.example' } }, (res) => resolve(res.statusCode ?? 0)).end();
    });
    expect(status).toBe(403);
  });
});
