import { describe, expect, it } from 'vitest';
import { bigRecording, blockedRecording, toJSONL } from '../viz/fixtures.js';
import { serveAppInBrowser, tempFolder } from './helpers.js';

/*
 * Opening a recording while a big one is still downloading and parsing
 * cancels the big one: the one opened last is what stays on screen.
 */

const app = serveAppInBrowser({
  serve: () => [
    '--recordings',
    tempFolder('viz-switch-', {
      'big.jsonl': toJSONL(bigRecording(50_000)),
      'small.jsonl': toJSONL(blockedRecording()),
    }),
  ],
  mode: 'recordings',
  timeout: 120_000,
});

describe('opening a recording while another is loading', () => {
  it('should show the one opened last, never the earlier one finishing after it', async () => {
    await app.page.locator('[data-recording="small.jsonl"]').waitFor();
    // Both clicks in one task: the big one cannot have finished loading in between.
    await app.page.evaluate(() => {
      (document.querySelector('[data-recording="big.jsonl"]') as HTMLButtonElement).click();
      (document.querySelector('[data-recording="small.jsonl"]') as HTMLButtonElement).click();
    });
    const status = app.page.getByTestId('recording-status');
    await expect.poll(async () => ((await status.count()) ? await status.textContent() : '')).toContain('small.jsonl');
    await expect.poll(() => app.page.locator('.position').textContent()).toMatch(/ \/ 11$/);
    // Long enough for the big one to have finished, had it not been cancelled.
    await app.page.waitForTimeout(3000);
    expect(await status.textContent()).toContain('small.jsonl: 11 events');
    expect(await app.page.locator('.position').textContent()).toMatch(/ \/ 11$/);
    expect(await app.page.getByTestId('recording-error').count()).toBe(0);
    expect(app.errors).toEqual([]);
  }, 60_000);
});
