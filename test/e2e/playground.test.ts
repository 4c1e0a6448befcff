import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRecording, replayRecording } from '../../src/index.js';
import { screenshot, serveAppInBrowser } from './helpers.js';

const app = serveAppInBrowser({ mode: 'playground' });

const state = () => app.page.getByTestId('active-state').textContent();

describe('the playground', () => {
  it('should run a session in the page, block an unsafe call where it happens, and save what was done as a recording', async () => {
    await expect.poll(state).toBe('RESOLVING');
    await app.page.locator('[data-pg="begin-write"]').click();
    await expect.poll(() => app.page.getByTestId('blocked-marker').count()).toBe(1);
    expect(await app.page.getByTestId('blocked-marker').textContent()).toContain('NO_VALIDATED_TARGET');
    await screenshot(app.page, 'playground-blocked');

    await app.page.locator('[data-pg="begin-resolve"]').click();
    expect(await app.page.getByTestId('blocked-marker').count()).toBe(0);
    await app.page.locator('[data-pg="end-ok-c2"]').click();
    await expect.poll(state).toBe('READING');
    await app.page.locator('[data-pg="begin-write"]').click();
    await expect.poll(state).toBe('WRITING');
    await app.page.locator('[data-pg="end-ok-c3"]').click();
    await expect.poll(state).toBe('VERIFYING');
    await app.page.locator('[data-pg="final-answer"]').click();
    expect(await app.page.getByTestId('blocked-marker').textContent()).toContain('FINAL_ANSWER_UNVERIFIED');
    await screenshot(app.page, 'playground-verifying');

    const [download] = await Promise.all([
      app.page.waitForEvent('download'),
      app.page.locator('[data-pg="save"]').click(),
    ]);
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
    expect(await app.page.getByTestId('timeline-row').count()).toBe(entries.length);
    expect(replayRecording(entries)).toMatchObject({ final: 'VERIFYING', divergences: [] });
    expect(app.errors).toEqual([]);
  });
});
