import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ensureAppBuilt, launchChromium, newPage, screenshot, startServe, stopAll, type Served } from './helpers.js';

let browser: Browser;
let served: Served;

beforeAll(async () => {
  ensureAppBuilt();
  [browser, served] = await Promise.all([launchChromium(), startServe()]);
}, 60_000);
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
});
