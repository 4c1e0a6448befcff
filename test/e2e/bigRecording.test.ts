import { describe, expect, it } from 'vitest';
import { bigRecording, toJSONL } from '../viz/fixtures.js';
import { screenshot, serveAppInBrowser, tempFolder } from './helpers.js';

const N = 100_000;
const entries = bigRecording(N);
const app = serveAppInBrowser({
  serve: () => ['--recordings', tempFolder('viz-big-', { 'big.jsonl': toJSONL(entries) })],
  mode: 'recordings',
  timeout: 120_000,
});

describe('a 100,000-event recording', () => {
  // How fast it opens and steps is the benchmark's business (npm run bench, suite "app"): no time is asserted here.
  it('should open, step and scrub it with the timeline virtualised', async () => {
    await app.page.locator('[data-recording="big.jsonl"]').click();
    await expect.poll(() => app.page.locator('.position').textContent(), { timeout: 60_000 }).toMatch(/ \/ 100,000$/);
    expect(await app.page.getByTestId('timeline-row').count()).toBeLessThan(80);

    const at = async () =>
      Number((await app.page.locator('.position').textContent())!.split(' / ')[0]!.replace(/,/g, ''));
    const first = await at();
    for (let i = 0; i < 21; i++) await app.page.getByTestId('step-forward').click();
    await expect.poll(at).toBe(first + 21);
    expect(await app.page.getByTestId('active-state').textContent()).toBe(entries[first + 20]!.after);

    await app.page.keyboard.press('End');
    await expect.poll(() => app.page.locator('.position').textContent()).toBe('100,000 / 100,000');
    expect(await app.page.getByTestId('active-state').textContent()).toBe(entries.at(-1)!.after);
    await app.page.locator('input.scrub').fill('50000');
    await expect.poll(() => app.page.locator('.position').textContent()).toBe('50,001 / 100,000');
    // The replay against the machine finishes in the background while the page stays usable.
    await expect
      .poll(() => app.page.getByTestId('analysis-status').textContent(), { timeout: 60_000 })
      .toContain('no divergence');
    await screenshot(app.page, 'recording-100k');
    expect(app.errors).toEqual([]);
  }, 180_000);
});
