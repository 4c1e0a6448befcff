import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runClaudeCodeHook } from '../../src/cli/hookClaudeCode.js';
import { bash, edit, events, read, todo } from '../hooks/fixtures.js';
import { root, screenshot, serveAppInBrowser } from './helpers.js';

/*
 * A Claude Code session followed live in the app: the hook command's code, run once per event as
 * Claude Code runs it, streaming to the app's hub with `--live`. Under the coding profile two edits
 * in a row pass, Stop is sent back while the edited file is unchecked, and the test run clears it.
 * The screenshot is the one docs/coding-agents.md shows (copied to docs/images/ by hand).
 */

const app = serveAppInBrowser({ open: false });

describe('a Claude Code session followed live', () => {
  it('should show each hook event of the session as it is decided, the Stop sent back included', async () => {
    await app.page.setViewportSize({ width: 1280, height: 720 });
    await app.page.goto(app.served.url);
    const state = mkdtempSync(join(tmpdir(), 'hook-live-'));
    const e = events('claude-live-e2e');
    const answers: string[] = [];
    const hook = async (event: unknown) => {
      const out: string[] = [];
      const code = await runClaudeCodeHook(
        ['--state-dir', state, '--live', app.served.url],
        { out: (t) => out.push(t), err: () => {} },
        async () => JSON.stringify(event),
      );
      expect(code).toBe(0);
      answers.push(out.join(''));
    };

    await hook(e.pre('Read', read(), 'r1'));
    await hook(e.post('Read', read(), 'r1'));
    await hook(e.pre('TodoWrite', todo(), 't1'));
    await hook(e.post('TodoWrite', todo(), 't1'));
    for (const id of ['w1', 'w2']) {
      await hook(e.pre('Edit', edit(), id));
      await hook(e.post('Edit', edit(), id));
    }
    await hook(e.stop(false));
    expect(answers.at(-1)).toMatch(/"decision":"block".*Read src\/config\.ts again/);
    await hook(e.pre('Bash', bash('npm test'), 'b1'));
    await hook(e.post('Bash', bash('npm test'), 'b1'));
    await hook(e.stop(false));
    expect(answers.at(-1)).toBe('');
    expect(answers.filter((a) => a.includes('"deny"'))).toEqual([]);

    const item = app.page.getByTestId('live-session');
    await expect.poll(() => item.count(), { timeout: 20_000 }).toBe(1);
    await item.first().click();
    // Six calls begun and ended, two final-answer checks: every one is a row.
    await expect.poll(() => app.page.getByTestId('timeline-row').count(), { timeout: 20_000 }).toBeGreaterThan(10);
    expect(await app.page.getByTestId('timeline-row').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/FINAL_ANSWER_UNVERIFIED/)]),
    );
    expect(await app.page.getByTestId('active-state').textContent()).toBe('READING');
    const shot = await screenshot(app.page, 'claude-code-live');
    if (process.env['UPDATE_DOC_IMAGES'] === '1')
      copyFileSync(shot, join(root, 'docs', 'images', 'claude-code-live-1280x720.png'));
    expect(app.errors).toEqual([]);
  });
});
