import { describe, expect, it } from 'vitest';
import { serveAppInBrowser } from './helpers.js';

/*
 * The header's "blocked: CODE" belongs to the safety session shown. Switching to the Patrol machine
 * with a blocked step of a recording open left it there, over a Patrol run that has no blocks.
 */
const app = serveAppInBrowser({ open: false });

describe('the header when switching to the Patrol machine', () => {
  it("should drop the safety session's block badge", async () => {
    await app.page.goto(`${app.served.url}&mode=recordings&recording=final-answer-before-verification.jsonl`);
    const badge = app.page.locator('header .blocked-tag');
    // Step forward to the recording's first block.
    for (let i = 0; i < 40 && (await badge.count()) === 0; i++) await app.page.keyboard.press('ArrowRight');
    expect(await badge.textContent()).toMatch(/^blocked: [A-Z_]+$/);
    await app.page.getByRole('button', { name: 'patrol', exact: true }).click();
    await expect.poll(() => badge.count()).toBe(0);
    expect(app.errors).toEqual([]);
  });
});
