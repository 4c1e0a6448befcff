import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigRecording, blockedRecording, toJSONL } from '../viz/fixtures.js';
import { ensureAppBuilt, launchChromium, newPage, screenshot, startServe, stopAll, type Served } from './helpers.js';

/*
 * The app parses a server's recording while it downloads: a bad line deep in
 * a big file must still name the line and the field, and leave the recording
 * already open on screen, not a half-loaded one.
 */

const BAD_LINE = 25_000;
let browser: Browser;
let served: Served;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  ensureAppBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'viz-bad-line-'));
  writeFileSync(join(dir, 'good.jsonl'), toJSONL(blockedRecording()));
  const big = bigRecording(30_000);
  const lines = toJSONL(big).split('\n');
  lines[BAD_LINE - 1] = JSON.stringify({ ...big[BAD_LINE - 1], decision: 'maybe' });
  writeFileSync(join(dir, 'schema-deep.jsonl'), lines.join('\n'));
  lines[BAD_LINE - 1] = '{"v":1,"session":"cut';
  writeFileSync(join(dir, 'json-deep.jsonl'), lines.join('\n'));
  [browser, served] = await Promise.all([launchChromium(), startServe(['--recordings', dir])]);
  page = await newPage(browser, errors);
  await page.goto(`${served.url}&mode=recordings`);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stopAll();
});

describe("a bad line deep in a server's recording", () => {
  it('should name the line and the field, and keep the recording already open', async () => {
    await page.locator('[data-recording="good.jsonl"]').click();
    await expect.poll(() => page.getByTestId('timeline-row').count()).toBe(11);
    for (const [name, what] of [
      ['schema-deep.jsonl', 'decision'],
      ['json-deep.jsonl', 'not JSON'],
    ] as const) {
      await page.locator(`[data-recording="${name}"]`).click();
      const error = page.getByTestId('recording-error');
      await expect
        .poll(async () => ((await error.count()) ? await error.textContent() : ''), { timeout: 60_000 })
        .toContain(`${name}, line ${BAD_LINE}: ${what}`);
      expect(await page.getByTestId('timeline-row').count()).toBe(11);
      expect(await page.locator('.position').textContent()).toMatch(/ \/ 11$/);
    }
    await screenshot(page, 'recording-bad-line-deep');
    expect(errors).toEqual([]);
  }, 120_000);
});
