import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigRecording, toJSONL } from '../viz/fixtures.js';
import { ensureAppBuilt, launchChromium, newPage, screenshot, startServe, stopAll, type Served } from './helpers.js';

const N = 100_000;
const entries = bigRecording(N);
let browser: Browser;
let served: Served;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  ensureAppBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'viz-big-'));
  writeFileSync(join(dir, 'big.jsonl'), toJSONL(entries));
  [browser, served] = await Promise.all([launchChromium(), startServe(['--recordings', dir])]);
  page = await newPage(browser, errors);
  await page.goto(`${served.url}&mode=recordings`);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stopAll();
});

describe('a 100,000-event recording', () => {
  // How fast it opens and steps is the benchmark's business (npm run bench, suite "app"): no time is asserted here.
  it('should open, step and scrub it with the timeline virtualised', async () => {
    await page.locator('[data-recording="big.jsonl"]').click();
    await expect.poll(() => page.locator('.position').textContent(), { timeout: 60_000 }).toMatch(/ \/ 100,000$/);
    expect(await page.getByTestId('timeline-row').count()).toBeLessThan(80);

    const at = async () => Number((await page.locator('.position').textContent())!.split(' / ')[0]!.replace(/,/g, ''));
    const first = await at();
    for (let i = 0; i < 21; i++) await page.getByTestId('step-forward').click();
    await expect.poll(at).toBe(first + 21);
    expect(await page.getByTestId('active-state').textContent()).toBe(entries[first + 20]!.after);

    await page.keyboard.press('End');
    await expect.poll(() => page.locator('.position').textContent()).toBe('100,000 / 100,000');
    expect(await page.getByTestId('active-state').textContent()).toBe(entries.at(-1)!.after);
    await page.locator('input.scrub').fill('50000');
    await expect.poll(() => page.locator('.position').textContent()).toBe('50,001 / 100,000');
    // The replay against the machine finishes in the background while the page stays usable.
    await expect
      .poll(() => page.getByTestId('analysis-status').textContent(), { timeout: 60_000 })
      .toContain('no divergence');
    await screenshot(page, 'recording-100k');
    expect(errors).toEqual([]);
  }, 180_000);
});
