import { describe, expect, it } from 'vitest';
import { bigRecording, blockedRecording, toJSONL } from '../viz/fixtures.js';
import { screenshot, serveAppInBrowser, tempFolder } from './helpers.js';

/*
 * The app parses a server's recording while it downloads: a bad line deep in
 * a big file must still name the line and the field, and leave the recording
 * already open on screen, not a half-loaded one.
 */

const BAD_LINE = 25_000;
const app = serveAppInBrowser({
  serve: () => {
    const big = bigRecording(30_000);
    const lines = toJSONL(big).split('\n');
    const withBadLine = (line: string) => lines.with(BAD_LINE - 1, line).join('\n');
    const dir = tempFolder('viz-bad-line-', {
      'good.jsonl': toJSONL(blockedRecording()),
      'schema-deep.jsonl': withBadLine(JSON.stringify({ ...big[BAD_LINE - 1], decision: 'maybe' })),
      'json-deep.jsonl': withBadLine('{"v":1,"session":"cut'),
    });
    return ['--recordings', dir];
  },
  mode: 'recordings',
  timeout: 120_000,
});

describe("a bad line deep in a server's recording", () => {
  it('should name the line and the field, and keep the recording already open', async () => {
    await app.page.locator('[data-recording="good.jsonl"]').click();
    await expect.poll(() => app.page.getByTestId('timeline-row').count()).toBe(11);
    for (const [name, what] of [
      ['schema-deep.jsonl', 'decision'],
      ['json-deep.jsonl', 'not JSON'],
    ] as const) {
      await app.page.locator(`[data-recording="${name}"]`).click();
      const error = app.page.getByTestId('recording-error');
      await expect
        .poll(async () => ((await error.count()) ? await error.textContent() : ''), { timeout: 60_000 })
        .toContain(`${name}, line ${BAD_LINE}: ${what}`);
      expect(await app.page.getByTestId('timeline-row').count()).toBe(11);
      expect(await app.page.locator('.position').textContent()).toMatch(/ \/ 11$/);
    }
    await screenshot(app.page, 'recording-bad-line-deep');
    expect(app.errors).toEqual([]);
  }, 120_000);
});
