import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedRecording, toJSONL } from '../viz/fixtures.js';
import {
  ensureAppBuilt,
  launchChromium,
  newPage,
  screenshot,
  startAgent,
  startServe,
  stopAll,
  type Served,
} from './helpers.js';

let browser: Browser;
let served: Served;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  ensureAppBuilt();
  [browser, served] = await Promise.all([launchChromium(), startServe()]);
  page = await newPage(browser, errors);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stopAll();
});

describe('a live session from a real agent process', () => {
  it('should appear in the list and be followed event by event as the agent works', async () => {
    await page.goto(served.url); // served with a hub, the page opens on the live sessions
    const dir = mkdtempSync(join(tmpdir(), 'viz-e2e-'));
    const file = join(dir, 'agent.jsonl');
    const entries = blockedRecording('e2e-agent');
    writeFileSync(file, toJSONL(entries));
    const agent = startAgent(served.url, ['--recording', file, '--delay', '150', '--name', 'e2e agent']);

    const item = page.getByTestId('live-session');
    await expect.poll(() => item.count(), { timeout: 20_000 }).toBe(1);
    expect(await item.textContent()).toContain('e2e agent');
    // The page follows the session: rows arrive while the agent is still running.
    await expect.poll(() => page.getByTestId('timeline-row').count(), { timeout: 10_000 }).toBeGreaterThan(2);
    const seenWhileRunning = await page.getByTestId('timeline-row').count();
    expect(seenWhileRunning).toBeLessThan(entries.length);
    await screenshot(page, 'live-following');

    expect(await agent.done).toBe(0);
    await expect.poll(() => page.getByTestId('timeline-row').count()).toBe(entries.length);
    expect(await page.getByTestId('active-state').textContent()).toBe(entries.at(-1)!.after);
    expect(await page.getByTestId('divergence').count()).toBe(0);
    await expect.poll(() => item.locator('.dot-off').count()).toBe(1); // the agent is gone
    await screenshot(page, 'live-done');
    expect(errors).toEqual([]);
  });

  it('should list the sessions of the demo agent process', async () => {
    const agent = startAgent(served.url, ['--delay', '0', '--name', 'demo']);
    expect(await agent.done).toBe(0);
    await expect.poll(() => page.getByTestId('live-session').count(), { timeout: 10_000 }).toBeGreaterThan(2);
    expect(await page.getByTestId('live-session').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('demo · demo-')]),
    );
    await page.getByTestId('live-session').last().click();
    await expect.poll(() => page.getByTestId('timeline-row').count()).toBeGreaterThan(3);
    expect(errors).toEqual([]);
  });
});
