import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecording, replayRecording } from '../../src/index.js';
import { ensureAppBuilt, launchChromium, newPage, screenshot, startServe, stopAll, type Served } from './helpers.js';

let browser: Browser;
let served: Served;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  ensureAppBuilt();
  [browser, served] = await Promise.all([launchChromium(), startServe()]);
  page = await newPage(browser, errors);
  await page.goto(`${served.url}&mode=playground`);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stopAll();
});

const state = () => page.getByTestId('active-state').textContent();

describe('the playground', () => {
  it('should run a session in the page, block an unsafe call where it happens, and save what was done as a recording', async () => {
    await expect.poll(state).toBe('RESOLVING');
    await page.locator('[data-pg="begin-write"]').click();
    await expect.poll(() => page.getByTestId('blocked-marker').count()).toBe(1);
    expect(await page.getByTestId('blocked-marker').textContent()).toContain('NO_VALIDATED_TARGET');
    await screenshot(page, 'playground-blocked');

    await page.locator('[data-pg="begin-resolve"]').click();
    expect(await page.getByTestId('blocked-marker').count()).toBe(0);
    await page.locator('[data-pg="end-ok-c2"]').click();
    await expect.poll(state).toBe('READING');
    await page.locator('[data-pg="begin-write"]').click();
    await expect.poll(state).toBe('WRITING');
    await page.locator('[data-pg="end-ok-c3"]').click();
    await expect.poll(state).toBe('VERIFYING');
    await page.locator('[data-pg="final-answer"]').click();
    expect(await page.getByTestId('blocked-marker').textContent()).toContain('FINAL_ANSWER_UNVERIFIED');
    await screenshot(page, 'playground-verifying');

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-pg="save"]').click()]);
    const entries = parseRecording(readFileSync((await download.path())!, 'utf8'));
    expect(entries.map((e) => e.call.type)).toEqual([
      'create',
      'beginToolCall',
      'beginToolCall',
      'endToolCall',
      'beginToolCall',
      'endToolCall',
      'canFinalAnswer',
    ]);
    expect(await page.getByTestId('timeline-row').count()).toBe(entries.length);
    expect(replayRecording(entries)).toMatchObject({ final: 'VERIFYING', divergences: [] });
    expect(errors).toEqual([]);
  });
});
