import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ensureAppBuilt, launchChromium, newPage, screenshot, startServe, stopAll, type Served } from './helpers.js';

let browser: Browser;
let served: Served;

beforeAll(async () => {
  ensureAppBuilt();
  [browser, served] = await Promise.all([launchChromium(), startServe()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stopAll();
});

describe('the server without the token', () => {
  it('should refuse the page in the browser without the token, and with a wrong one', async () => {
    const errors: string[] = [];
    const page = await newPage(browser, errors);
    const bare = await page.goto(served.origin + '/');
    expect(bare?.status()).toBe(401);
    expect(await page.textContent('body')).toContain('a token is required');
    expect(await page.getByTestId('active-state').count()).toBe(0);
    await screenshot(page, 'refused-without-token');
    const wrong = await page.goto(`${served.origin}/?token=${'f'.repeat(64)}`);
    expect(wrong?.status()).toBe(403);
    await page.close();
  });

  it('should refuse the live socket without the token', async () => {
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${served.origin.replace('http', 'ws')}/live`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => resolve(0));
    });
    expect(status).toBe(401);
  });

  it('should serve the app with the token', async () => {
    const errors: string[] = [];
    const page = await newPage(browser, errors);
    const ok = await page.goto(served.url);
    expect(ok?.status()).toBe(200);
    await expect
      .poll(() => page.locator('[data-testid="active-state"], [data-testid="no-active-state"]').count())
      .toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('should never hand the token to another server on this host (no cookie: cookies ignore ports)', async () => {
    // Another local web app the user visits after opening the visualiser: it logs every header it receives.
    const seen: string[] = [];
    const other = createServer((req, res) => {
      seen.push(JSON.stringify(req.headers));
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>other</title><img src="/pixel.png">');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const errors: string[] = [];
      const page = await newPage(browser, errors);
      // The app requests its API and opens the live socket: all with the token, none by cookie.
      const socketProtocols: string[] = [];
      page.on('websocket', (ws) => socketProtocols.push(ws.url()));
      await page.goto(served.url);
      // The app is up once the machine, fetched through the API with the token, is drawn.
      await expect.poll(() => page.locator('svg.diagram [data-state]').count()).toBeGreaterThan(0);
      expect(await page.context().cookies()).toEqual([]);
      await page.goto(`${otherOrigin}/`);
      await page.goto(`http://localhost:${new URL(otherOrigin).port}/page`);
      expect(seen.length).toBeGreaterThanOrEqual(2);
      for (const headers of seen) expect(headers).not.toContain(served.token);
      for (const url of socketProtocols) expect(url).not.toContain(served.token);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await new Promise((r) => other.close(r));
    }
  });
});
