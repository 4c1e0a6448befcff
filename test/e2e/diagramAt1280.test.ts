import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { copyMachines } from './editorHelpers.js';
import { root, screenshot, serveAppInBrowser, startAgent } from './helpers.js';

/*
 * The diagram on a 1280×720 screen, in the default Edit and Live views:
 * laid out for its pane, filling it, nothing clipped, every state name and
 * transition label drawn at 11 px or more. The Patrol run machine (a chain,
 * drawn in snaked rows), in the Edit and Recordings views: the same.
 */

const app = serveAppInBrowser({
  serve: () => ['--recordings', join(root, 'recordings'), '--machines', copyMachines()],
  open: false,
});

interface DiagramMeasure {
  zoom: number;
  /** The drawing's share of its pane: width and height. */
  fill: { width: number; height: number };
  /** Drawn height (font size × zoom) of the smallest state name and transition label. */
  smallest: { stateName: number; transitionLabel: number };
  /** Marks (state boxes, badges, labels, the blocked pill, callouts) that stick out of the visible pane. */
  clipped: string[];
}

async function measure(page: Page): Promise<DiagramMeasure> {
  return page.evaluate(() => {
    const svg = document.querySelector('.diagram-scroll svg') as SVGSVGElement;
    const pane = svg.closest('.diagram-scroll')!.getBoundingClientRect();
    const drawn = svg.getBoundingClientRect();
    const zoom = drawn.width / svg.viewBox.baseVal.width;
    const px = (selector: string) =>
      Math.min(...[...svg.querySelectorAll(selector)].map((t) => parseFloat(getComputedStyle(t).fontSize) * zoom));
    const clipped = [
      ...svg.querySelectorAll(
        '.state-box, .badge, .edge-label-box, [data-testid="blocked-marker"], [data-testid="internal-callout"]',
      ),
    ]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.left < pane.left - 1 || r.right > pane.right + 1 || r.top < pane.top - 1 || r.bottom > pane.bottom + 1;
      })
      .map((el) => `${el.getAttribute('class') ?? el.getAttribute('data-testid')} ${el.textContent?.slice(0, 40)}`);
    return {
      zoom,
      fill: { width: drawn.width / pane.width, height: drawn.height / pane.height },
      smallest: { stateName: px('.state-title'), transitionLabel: px('.edge-label') },
      clipped,
    };
  });
}

/** The drawing fills its pane in the dimension that binds (the one it was fitted to). */
const fills = (m: DiagramMeasure) => Math.max(m.fill.width, m.fill.height);

describe('the diagram at 1280×720', () => {
  it('should fill the Edit view, every name and label at 11 px or more, nothing clipped', async () => {
    await app.page.setViewportSize({ width: 1280, height: 720 });
    await app.page.goto(`${app.served.url}&mode=edit`);
    await app.page.locator('[data-testid="invariant-report"][aria-busy="false"]').waitFor({ timeout: 60_000 });
    await app.page.locator('.diagram-scroll svg [data-state="VERIFYING"]').waitFor();
    const m = await measure(app.page);
    await screenshot(app.page, 'diagram-1280-edit');
    console.log(`Edit view at 1280×720: ${JSON.stringify(m)}`);
    expect(fills(m)).toBeGreaterThanOrEqual(0.6);
    expect(m.smallest.stateName).toBeGreaterThanOrEqual(11);
    expect(m.smallest.transitionLabel).toBeGreaterThanOrEqual(11);
    expect(m.clipped).toEqual([]);
    expect(app.errors).toEqual([]);
  });

  it('should fill the Live view with every state name readable and nothing clipped, a blocked step included', async () => {
    await app.page.setViewportSize({ width: 1280, height: 720 });
    await app.page.goto(`${app.served.url}&mode=live`);
    const agent = startAgent(app.served.url, ['--delay', '0', '--name', 'at 1280']);
    expect(await agent.done).toBe(0);
    // The default view follows the newest session.
    await expect.poll(() => app.page.getByTestId('timeline-row').count()).toBeGreaterThan(1);
    const m = await measure(app.page);
    await screenshot(app.page, 'diagram-1280-live');
    console.log(`Live view at 1280×720: ${JSON.stringify(m)}`);
    expect(fills(m)).toBeGreaterThanOrEqual(0.6);
    expect(m.smallest.stateName).toBeGreaterThanOrEqual(11);
    expect(m.smallest.transitionLabel).toBeGreaterThanOrEqual(11);
    expect(m.clipped).toEqual([]);
    // A session blocked in VERIFYING, the state at the pane's right edge: its pill stays in the pane.
    await app.page.locator('[data-testid="live-session"][data-session="demo-retry-storm"]').click();
    const blocked = app.page.locator('[data-testid="timeline-row"]', { hasText: 'UNVERIFIED_WRITE' }).first();
    await blocked.click();
    await app.page.getByTestId('blocked-marker').waitFor();
    const atBlock = await measure(app.page);
    await screenshot(app.page, 'diagram-1280-live-blocked');
    expect(atBlock.clipped).toEqual([]);
    expect(app.errors).toEqual([]);
  });

  it('should fit the Patrol run machine in its pane in the Edit view and with a recorded run, every name and label at 11 px or more, nothing clipped', async () => {
    await app.page.setViewportSize({ width: 1280, height: 720 });
    await app.page.goto(`${app.served.url}&mode=edit`);
    await app.page.getByRole('button', { name: 'patrol', exact: true }).click();
    await app.page.locator('.diagram-scroll svg [data-state="evaluationPass"]').waitFor();
    await app.page.locator('[data-testid="invariant-report"][aria-busy="false"]').waitFor({ timeout: 60_000 });
    const edit = await measure(app.page);
    await screenshot(app.page, 'diagram-1280-patrol-edit');
    console.log(`Patrol, Edit view at 1280×720: ${JSON.stringify(edit)}`);
    await app.page.goto(`${app.served.url}&mode=recordings&recording=patrol-demo.patrol.jsonl`);
    await expect.poll(() => app.page.getByTestId('analysis-status').textContent()).toContain('no divergence');
    await app.page.locator('.diagram-scroll svg [data-state="evaluationPass"]').waitFor();
    const run = await measure(app.page);
    await screenshot(app.page, 'diagram-1280-patrol-run');
    console.log(`Patrol, Recordings view at 1280×720: ${JSON.stringify(run)}`);
    // Its twelve states in a chain, with a PHASE_FAILED edge from eight of them, are laid out in
    // snaked rows: they fill the pane, as legible as the safety machine, nothing clipped.
    for (const m of [edit, run]) {
      expect(fills(m)).toBeGreaterThanOrEqual(0.6);
      expect(m.smallest.stateName).toBeGreaterThanOrEqual(11);
      expect(m.smallest.transitionLabel).toBeGreaterThanOrEqual(11);
      expect(m.clipped).toEqual([]);
    }
    expect(app.errors).toEqual([]);
  });
});
