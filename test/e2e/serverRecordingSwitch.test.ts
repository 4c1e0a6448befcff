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
    // The big download, if the browser started it at all before it was cancelled: it must end (failed).
    let big: 'none' | 'pending' | 'failed' | 'finished' = 'none';
    const isBig = (r: { url(): string }) => r.url().includes('/api/recordings/big.jsonl');
    app.page.on('request', (r) => isBig(r) && (big = 'pending'));
    app.page.on('requestfailed', (r) => isBig(r) && (big = 'failed'));
    app.page.on('requestfinished', (r) => isBig(r) && (big = 'finished'));
    // Both clicks in one task: the big one cannot have finished loading in between.
    await app.page.evaluate(() => {
      (document.querySelector('[data-recording="big.jsonl"]') as HTMLButtonElement).click();
      (document.querySelector('[data-recording="small.jsonl"]') as HTMLButtonElement).click();
    });
    const status = app.page.getByTestId('recording-status');
    await expect.poll(async () => ((await status.count()) ? await status.textContent() : '')).toContain('small.jsonl');
    await expect.poll(() => app.page.locator('.position').textContent()).toMatch(/ \/ 11$/);
    // The browser reports requests in order: by the time the small one is shown, the big one was
    // either never sent or is reported; wait until it ended, then let the page handle that (two frames).
    await expect.poll(() => big, { timeout: 30_000 }).not.toBe('pending');
    expect(big).not.toBe('finished');
    await app.page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r)))),
    );
    expect(await status.textContent()).toContain('small.jsonl: 11 events');
    expect(await app.page.locator('.position').textContent()).toMatch(/ \/ 11$/);
    expect(await app.page.getByTestId('recording-error').count()).toBe(0);
    expect(app.errors).toEqual([]);
  }, 120_000);
});
