import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockedRecording, toJSONL } from '../viz/fixtures.js';
import { screenshot, serveAppInBrowser, startAgent } from './helpers.js';

const app = serveAppInBrowser({ open: false }); // the first test opens it

describe('a live session from a real agent process', () => {
  it('should appear in the list and be followed event by event as the agent works', async () => {
    await app.page.goto(app.served.url); // served with a hub, the page opens on the live sessions
    const dir = mkdtempSync(join(tmpdir(), 'viz-e2e-'));
    const file = join(dir, 'agent.jsonl');
    const entries = blockedRecording('e2e-agent');
    writeFileSync(file, toJSONL(entries));
    const agent = startAgent(app.served.url, ['--recording', file, '--delay', '150', '--name', 'e2e agent']);

    const item = app.page.getByTestId('live-session');
    await expect.poll(() => item.count(), { timeout: 20_000 }).toBe(1);
    expect(await item.textContent()).toContain('e2e agent');
    // The page follows the session: rows arrive while the agent is still running.
    await expect.poll(() => app.page.getByTestId('timeline-row').count(), { timeout: 10_000 }).toBeGreaterThan(2);
    const seenWhileRunning = await app.page.getByTestId('timeline-row').count();
    expect(seenWhileRunning).toBeLessThan(entries.length);
    await screenshot(app.page, 'live-following');

    expect(await agent.done).toBe(0);
    await expect.poll(() => app.page.getByTestId('timeline-row').count()).toBe(entries.length);
    expect(await app.page.getByTestId('active-state').textContent()).toBe(entries.at(-1)!.after);
    expect(await app.page.getByTestId('divergence').count()).toBe(0);
    await expect.poll(() => item.locator('.dot-off').count()).toBe(1); // the agent is gone
    await screenshot(app.page, 'live-done');
    expect(app.errors).toEqual([]);
  });

  it('should list the sessions of the demo agent process', async () => {
    const agent = startAgent(app.served.url, ['--delay', '0', '--name', 'demo']);
    expect(await agent.done).toBe(0);
    await expect.poll(() => app.page.getByTestId('live-session').count(), { timeout: 10_000 }).toBeGreaterThan(2);
    expect(await app.page.getByTestId('live-session').allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^demo: A write before any discovery.*demo-write-before-discovery/),
      ]),
    );
    await app.page.getByTestId('live-session').last().click();
    await expect.poll(() => app.page.getByTestId('timeline-row').count()).toBeGreaterThan(3);
    expect(app.errors).toEqual([]);
  });
});
