import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryRecorder, createSafetySession, parseRecording, type RecordingEntry } from 'assistant-safety';
import { createLiveRecorder } from 'assistant-safety/node';
import type { InsightsSummary } from 'assistant-safety/insights';
import { main } from '../../src/cli/main.js';
import { root, screenshot, serveAppInBrowser } from './helpers.js';

/*
 * The Insights mode in Chromium over the shipped recordings: the numbers are
 * the ones `assistant-safety stats --format json` prints for the same folder,
 * and a click on a chart's bar, then on a step it lists, opens that
 * recording at that step.
 */

const RECORDINGS = join(root, 'recordings');
const app = serveAppInBrowser({ serve: () => ['--recordings', RECORDINGS], mode: 'insights' });

async function stats(): Promise<InsightsSummary> {
  const out: string[] = [];
  const code = await main(['stats', RECORDINGS, '--format', 'json'], { out: (t) => out.push(t), err: () => {} });
  expect(code).toBe(0);
  return JSON.parse(out.join('\n')) as InsightsSummary;
}

const entriesOf = (name: string) => parseRecording(readFileSync(join(RECORDINGS, name), 'utf8'));

describe('the Insights mode', () => {
  it('should show the numbers stats prints for the same recordings', async () => {
    const json = await stats();
    const page = app.page;
    await expect
      .poll(() => page.getByTestId('insights-sessions').textContent(), { timeout: 20_000 })
      .toBe(String(json.sessions));
    expect(await page.getByTestId('insights-entries').textContent()).toBe(String(json.entries));
    const blocked = Object.values(json.blocked).reduce((a, b) => a + b, 0);
    expect(await page.getByTestId('insights-blocked').textContent()).toBe(String(blocked));
    expect(await page.getByTestId('insights-self-correction').textContent()).toBe(
      `${(json.selfCorrection.rate! * 100).toFixed(1)} %`,
    );
    expect(await page.getByTestId('insights-writes').textContent()).toBe(String(json.writes.landed));
    for (const [reason, n] of Object.entries(json.blocked)) {
      const bar = page.locator(`[data-testid="chart-reasons"] [data-reason="${reason}"]`);
      expect(await bar.getAttribute('data-value')).toBe(String(n));
    }
    for (const [tool, n] of Object.entries(json.blockedByTool)) {
      const bar = page.locator(`[data-testid="chart-tools"] [data-tool="${tool}"]`);
      expect(await bar.getAttribute('data-value')).toBe(String(n));
    }
    const overTime = await page
      .locator('[data-testid="chart-over-time"] [data-testid="chart-bar"]')
      .evaluateAll((bars) => bars.reduce((sum, b) => sum + Number(b.getAttribute('data-value')), 0));
    expect(overTime).toBe(blocked);
    const corrected = page.locator('[data-testid="chart-self-correction"] [data-outcome="corrected"]');
    expect(await corrected.getAttribute('data-value')).toBe(String(json.selfCorrection.corrected));
    const verified = await page
      .locator('[data-testid="chart-ttv"] [data-testid="chart-bar"]:not([data-bin="never"])')
      .evaluateAll((bars) => bars.reduce((sum, b) => sum + Number(b.getAttribute('data-value')), 0));
    expect(verified).toBe(json.writes.verified);
    await screenshot(page, 'insights');
    expect(app.errors).toEqual([]);
  });

  it('should open the recording at the step behind a clicked bar', async () => {
    const json = await stats();
    const page = app.page;
    await page.locator('[data-testid="chart-reasons"] [data-reason="UNVERIFIED_WRITE"]').click();
    const refs = page.getByTestId('insights-ref');
    expect(await refs.count()).toBe(json.blocked.UNVERIFIED_WRITE);
    const ref = refs.last();
    const source = (await ref.getAttribute('data-source'))!;
    const session = (await ref.getAttribute('data-session'))!;
    const seq = Number(await ref.getAttribute('data-seq'));
    const entries = entriesOf(source);
    const index = entries.findIndex((e) => e.session === session && e.seq === seq);
    expect(entries[index]?.reasonCode).toBe('UNVERIFIED_WRITE');
    await ref.click();
    await expect.poll(() => page.getByTestId('timeline-row').count()).toBe(entries.length);
    await expect
      .poll(() => page.locator('[data-testid="timeline-row"][aria-selected="true"]').getAttribute('data-index'))
      .toBe(String(index));
    expect(await page.getByTestId('blocked-marker').textContent()).toContain('UNVERIFIED_WRITE');
    expect(await page.getByTestId('active-state').textContent()).toBe(entries[index]!.after);
    await screenshot(page, 'insights-opened-step');
    expect(app.errors).toEqual([]);
  });

  it('should open a write at the step it landed from the time-to-verification chart', async () => {
    const page = app.page;
    await page.locator('[data-mode="insights"]').click();
    const bar = page.locator('[data-testid="chart-ttv"] [data-testid="chart-bar"]').first();
    await bar.click();
    const ref = page.getByTestId('insights-ref').first();
    const source = (await ref.getAttribute('data-source'))!;
    const session = (await ref.getAttribute('data-session'))!;
    const seq = Number(await ref.getAttribute('data-seq'));
    const entries = entriesOf(source);
    const index = entries.findIndex((e) => e.session === session && e.seq === seq);
    // The step where the write landed: the write epoch moved there.
    expect(entries[index]!.context.writeEpoch).toBe(entries[index - 1]!.context.writeEpoch + 1);
    await ref.click();
    await expect
      .poll(() => page.locator('[data-testid="timeline-row"][aria-selected="true"]').getAttribute('data-index'))
      .toBe(String(index));
    expect(await page.getByTestId('active-state').textContent()).toBe(entries[index]!.after);
    expect(app.errors).toEqual([]);
  });

  it('should show the live sessions and open one at the step behind a bar', async () => {
    const local = createMemoryRecorder();
    const live = createLiveRecorder({ url: app.served.url, name: 'insights agent', fallback: local });
    for (const id of ['live-a', 'live-b']) {
      let t = 1_700_000_000_000;
      const s = createSafetySession({ id, now: () => (t += 1000), recorder: live });
      s.beginToolCall({ id: 'w0', kind: 'write', tool: 'restart_vm' });
      s.beginToolCall({ id: 'r1', kind: 'resolve', tool: 'find_vm' });
      s.endToolCall({ id: 'r1', ok: true });
      s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
      s.endToolCall({ id: 'w1', ok: true });
      s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' });
    }
    for (let i = 0; i < 500 && !(live.connected && live.pending === 0); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(live.pending).toBe(0);
    const blocked: Record<string, number> = {};
    for (const e of local.entries)
      if (e.decision === 'blocked') blocked[e.reasonCode!] = (blocked[e.reasonCode!] ?? 0) + 1;

    const page = app.page;
    await page.locator('[data-mode="insights"]').click();
    await page.getByTestId('insights-source-live').click();
    await expect.poll(() => page.getByTestId('insights-sessions').textContent()).toBe('2');
    expect(await page.getByTestId('insights-entries').textContent()).toBe(String(local.entries.length));
    for (const [reason, n] of Object.entries(blocked)) {
      const bar = page.locator(`[data-testid="chart-reasons"] [data-reason="${reason}"]`);
      expect(await bar.getAttribute('data-value')).toBe(String(n));
    }
    await page.locator('[data-testid="chart-reasons"] [data-reason="UNVERIFIED_WRITE"]').click();
    const ref = page.locator('[data-testid="insights-ref"][data-session="live-b"]');
    const seq = Number(await ref.getAttribute('data-seq'));
    const own: RecordingEntry[] = local.entries.filter((e) => e.session === 'live-b');
    const index = own.findIndex((e) => e.seq === seq);
    expect(own[index]?.reasonCode).toBe('UNVERIFIED_WRITE');
    await ref.click();
    await expect
      .poll(() => page.locator('[data-testid="timeline-row"][aria-selected="true"]').getAttribute('data-index'))
      .toBe(String(index));
    expect(await page.locator('[data-mode="live"]').getAttribute('class')).toBe('selected');
    expect(await page.getByTestId('blocked-marker').textContent()).toContain('UNVERIFIED_WRITE');
    await live.close();
    expect(app.errors).toEqual([]);
  });
});
