import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigRecording, blockedRecording, toJSONL } from '../viz/fixtures.js';
import { ensureAppBuilt, launchChromium, newPage, startServe, stopAll, type Served } from './helpers.js';

/*
 * Opening a recording while a big one is still downloading and parsing
 * cancels the big one: the one opened last is what stays on screen.
 */

let browser: Browser;
let served: Served;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  ensureAppBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'viz-switch-'));
  writeFileSync(join(dir, 'big.jsonl'), toJSONL(bigRecording(50_000)));
  writeFileSync(join(dir, 'small.jsonl'), toJSONL(blockedRecording()));
  [browser, served] = await Promise.all([launchChromium(), startServe(['--recordings', dir])]);
  page = await newPage(browser, errors);
  await page.goto(`${served.url}&mode=recordings`);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stopAll();
});

describe('opening a recording while another is loading', () => {
  it('should show the one opened last, never the earlier one finishing after it', async () => {
    await page.locator('[data-recording="small.jsonl"]').waitFor();
    // Both clicks in one task: the big one cannot have finished loading in between.
    await page.evaluate(() => {
      (document.querySelector('[data-recording="big.jsonl"]') as HTMLButtonElement).click();
      (document.querySelector('[data-recording="small.jsonl"]') as HTMLButtonElement).click();
    });
    const status = page.getByTestId('recording-status');
    await expect.poll(async () => ((await status.count()) ? await status.textContent() : '')).toContain('small.jsonl');
    await expect.poll(() => page.locator('.position').textContent()).toMatch(/ \/ 11$/);
    // Long enough for the big one to have finished, had it not been cancelled.
    await page.waitForTimeout(3000);
    expect(await status.textContent()).toContain('small.jsonl: 11 events');
    expect(await page.locator('.position').textContent()).toMatch(/ \/ 11$/);
    expect(await page.getByTestId('recording-error').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 60_000);
});
