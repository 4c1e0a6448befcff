import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecording } from '../../src/index.js';
import { root, screenshot, serveAppInBrowser } from './helpers.js';

const RECORDING = 'write-before-discovery.jsonl';
const entries = parseRecording(readFileSync(join(root, 'recordings', RECORDING), 'utf8'));

const app = serveAppInBrowser({ serve: () => ['--recordings', join(root, 'recordings')], mode: 'recordings' });

describe('a shipped recording in the browser', () => {
  it('should open from the server list and reach the recorded last state by stepping to the end', async () => {
    await app.page.locator(`[data-recording="${RECORDING}"]`).click();
    await expect.poll(() => app.page.getByTestId('timeline-row').count()).toBe(entries.length);
    expect(await app.page.getByTestId('active-state').textContent()).toBe(entries[0]!.after);
    const forward = app.page.getByTestId('step-forward');
    for (let i = 1; i < entries.length; i++) await forward.click();
    expect(await forward.isDisabled()).toBe(true);
    expect(await app.page.getByTestId('active-state').textContent()).toBe(entries.at(-1)!.after);
    await app.page.getByTestId('step-back').click();
    expect(await app.page.getByTestId('active-state').textContent()).toBe(entries.at(-2)!.after);
    expect(await app.page.locator('svg.diagram [data-state]').count()).toBeGreaterThanOrEqual(5);
    expect(await app.page.getByTestId('divergence').count()).toBe(0);
    await screenshot(app.page, 'recording-end');
  });

  it('should show a blocked marker with its reason code at a blocked step, and only there', async () => {
    const blocked = entries.findIndex((e) => e.decision === 'blocked');
    expect(blocked).toBeGreaterThan(0);
    await app.page.locator(`[data-testid="timeline-row"][data-index="${blocked}"]`).click();
    const marker = app.page.getByTestId('blocked-marker');
    await expect.poll(() => marker.count()).toBe(1);
    expect(await marker.textContent()).toContain(entries[blocked]!.reasonCode!);
    await app.page.keyboard.press('ArrowLeft');
    const before = entries[blocked - 1]!;
    expect(await marker.count()).toBe(before.decision === 'blocked' ? 1 : 0);
    await app.page.keyboard.press('ArrowRight');
    expect(await marker.count()).toBe(1);
    await screenshot(app.page, 'recording-blocked');
    expect(app.errors).toEqual([]);
  });

  it("should mark a call the tool loop refused with the loop's code", async () => {
    const name = 'question-before-looking.jsonl';
    const asked = parseRecording(readFileSync(join(root, 'recordings', name), 'utf8'));
    const refused = asked.findIndex((e) => e.call.type === 'recordLoopBlock');
    expect(asked[refused]?.reasonCode).toBe('LOOK_BEFORE_ASKING');
    await app.page.locator(`[data-recording="${name}"]`).click();
    await expect.poll(() => app.page.getByTestId('timeline-row').count()).toBe(asked.length);
    await app.page.locator(`[data-testid="timeline-row"][data-index="${refused}"]`).click();
    const marker = app.page.getByTestId('blocked-marker');
    await expect.poll(() => marker.count()).toBe(1);
    expect(await marker.textContent()).toContain('LOOK_BEFORE_ASKING');
    expect(await app.page.getByTestId('active-state').textContent()).toBe(asked[refused]!.before);
    // Back to the recording the other cases use.
    await app.page.locator(`[data-recording="${RECORDING}"]`).click();
    await expect.poll(() => app.page.getByTestId('timeline-row').count()).toBe(entries.length);
    expect(app.errors).toEqual([]);
  });

  it('should play to the end at the chosen speed', async () => {
    await app.page.locator('[data-recording="' + RECORDING + '"]').click();
    await app.page.getByTestId('step-back').waitFor();
    await app.page.keyboard.press('Home');
    await app.page.locator('.playback select').selectOption('64');
    await app.page.getByRole('button', { name: /play/ }).click();
    await expect.poll(() => app.page.locator('.position').textContent()).toBe(`${entries.length} / ${entries.length}`);
    expect(await app.page.getByTestId('active-state').textContent()).toBe(entries.at(-1)!.after);
    expect(await app.page.getByRole('button', { name: /play/ }).isDisabled()).toBe(true);
  });

  it('should flag the rows where a recording diverges from the current machine', async () => {
    const tampered = entries.map((e, i) =>
      e.decision === 'blocked' && i === entries.findIndex((x) => x.decision === 'blocked')
        ? { ...e, decision: 'allowed', reasonCode: undefined }
        : e,
    );
    await app.page.getByTestId('open-recording').setInputFiles({
      name: 'tampered.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(tampered.map((e) => JSON.stringify(e)).join('\n') + '\n'),
    });
    await expect.poll(() => app.page.getByTestId('divergence').count()).toBe(1);
    expect(await app.page.getByTestId('divergence').getAttribute('title')).toContain(
      'decision: recorded "allowed", now "blocked"',
    );
    await screenshot(app.page, 'recording-divergence');
  });

  it('should draw the whole machine readably at full size', async () => {
    const big = await app.browser.newPage({ viewport: { width: 1600, height: 2200 } });
    big.on('pageerror', (e) => app.errors.push(e.message));
    await big.goto(`${app.served.url}&mode=recordings&recording=${RECORDING}`);
    await big.getByRole('button', { name: 'fit all' }).click();
    const svg = big.locator('svg.diagram');
    await svg.waitFor();
    mkdirSync(join(root, 'test-results'), { recursive: true });
    await svg.screenshot({ path: join(root, 'test-results', 'diagram-full.png') });
    // Every state box is drawn, and no two overlap on screen.
    const boxes = await big
      .locator('svg.diagram [data-state] > rect.state-box')
      .evaluateAll((rects) =>
        rects.map((r) => r.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number }),
      );
    expect(boxes).toHaveLength(5);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart).toBe(true);
      }
    }
    await big.close();
  });

  it('should show a clear message for a bad file given to the file input, and keep working', async () => {
    await app.page.getByTestId('open-recording').setInputFiles({
      name: 'bad.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(`${JSON.stringify(entries[0])}\n{oops\n`),
    });
    const error = app.page.getByTestId('recording-error');
    await expect.poll(() => error.count()).toBe(1);
    expect(await error.textContent()).toContain('bad.jsonl, line 2');
    expect(await app.page.getByTestId('timeline-row').count()).toBe(entries.length);
    await screenshot(app.page, 'recording-bad-file');
    expect(app.errors).toEqual([]);
  });
});
