import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../src/server/startServer.js';
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

  it('should refuse every HTTP request without the token with 401', async () => {
    for (const path of ['/', '/index.html', '/api/recordings', '/api/machines', '/api/recordings/blocked.jsonl']) {
      const res = await fetch(server.origin + path);
      expect(res.status, path).toBe(401);
      expect(await res.text()).not.toContain('app');
    }
  });

  it('should refuse a wrong token with 403', async () => {
    const res = await fetch(`${server.origin}/api/recordings?token=${'0'.repeat(64)}`);
    expect(res.status).toBe(403);
    const short = await fetch(`${server.origin}/api/recordings`, { headers: { 'x-assistant-safety-token': 'x' } });
    expect(short.status).toBe(403);
  });

  it('should accept the token in the query, in the header, or in the cookie the page gets', async () => {
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie).toMatch(/^assistant_safety_\d+=/);
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    const byHeader = await fetch(`${server.origin}/api/recordings`, {
      headers: { 'x-assistant-safety-token': server.token },
    });
    expect(byHeader.status).toBe(200);
    const byCookie = await fetch(`${server.origin}/index.html`, { headers: { cookie } });
    expect(byCookie.status).toBe(200);
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
