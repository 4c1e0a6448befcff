import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { copyMachines, selectTransition } from './editorHelpers.js';
import { RESULTS, root, serveAppInBrowser, startAgent } from './helpers.js';

/*
 * Issue 18's bar for every mode at the two sizes people use: the whole
 * machine legible in the default view, every control inside its panel, the
 * header and the context panel agreeing with the timeline. Each case writes
 * a screenshot to test-results/screenshots/ (ignored; docs/images/ holds
 * copies of current ones).
 */

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const;
const STATES = ['RESOLVING', 'READING', 'WRITING', 'VERIFYING'];
const SHOTS = join(RESULTS, 'screenshots');
let demo: Promise<number> | undefined;

const app = serveAppInBrowser({
  serve: () => ['--recordings', join(root, 'recordings'), '--machines', copyMachines()],
  open: false,
});

interface Rect {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The diagram's visible area, each state's box and the effective size of its name (font size × zoom). */
async function diagramFacts(page: Page) {
  return page.evaluate((states) => {
    const scroll = document.querySelector('[data-testid="diagram-scroll"]')!.getBoundingClientRect();
    const svg = document.querySelector('svg.diagram') as SVGSVGElement;
    const zoom = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return {
      view: { left: scroll.left, right: scroll.right, top: scroll.top, bottom: scroll.bottom },
      states: states.map((s) => {
        const g = svg.querySelector(`[data-state="${s}"]`)!;
        const box = g.querySelector('rect.state-box')!.getBoundingClientRect();
        const title = g.querySelector('text.state-title')!;
        return {
          state: s,
          box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom },
          fontPx: parseFloat(getComputedStyle(title).fontSize) * zoom,
          renderedPx: title.getBoundingClientRect().height,
        };
      }),
    };
  }, STATES);
}

/** Every button, field and table column whose box sticks out of the panel it is in (left, right, top bar). */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const panels = [...document.querySelectorAll('.topbar, .left, .center, .context-panel')];
    // A panel laid out as its children's boxes (`display: contents`: on a laptop screen the center
    // column's diagram spans the context panel's column too) is the union of their boxes.
    const boxOf = (panel: Element) => {
      if (getComputedStyle(panel).display !== 'contents') return panel.getBoundingClientRect();
      const rects = [...panel.children].map((c) => c.getBoundingClientRect());
      return {
        left: Math.min(...rects.map((r) => r.left)),
        right: Math.max(...rects.map((r) => r.right)),
      };
    };
    for (const panel of panels) {
      const p = boxOf(panel);
      const controls = panel.querySelectorAll(
        'button, select, input:not(.visually-hidden), textarea, .timeline-header > span, .timeline-row > span',
      );
      for (const c of controls) {
        const r = c.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        if (r.left < p.left - 1 || r.right > p.right + 1) {
          out.push(
            `${panel.className} > ${c.tagName.toLowerCase()}.${c.className} "${c.textContent?.trim().slice(0, 30)}"`,
          );
        }
      }
      // Nothing in a panel needs sideways scrolling to be reached.
      if ((panel as HTMLElement).scrollWidth > (panel as HTMLElement).clientWidth + 1) {
        out.push(`${panel.className} scrolls sideways`);
      }
    }
    return out;
  });
}

const inside = (b: Rect, v: Rect) =>
  b.left >= v.left - 1 && b.right <= v.right + 1 && b.top >= v.top - 1 && b.bottom <= v.bottom + 1;

async function expectLegibleAndUnclipped(page: Page, shot: string) {
  await page.locator('svg.diagram [data-state="VERIFYING"]').waitFor();
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${shot}.png`) });
  const facts = await diagramFacts(page);
  for (const s of facts.states) {
    expect(inside(s.box, facts.view), `${shot}: ${s.state} in view`).toBe(true);
    expect(s.fontPx, `${shot}: ${s.state}'s name size`).toBeGreaterThanOrEqual(11);
    expect(s.renderedPx, `${shot}: ${s.state}'s name as drawn`).toBeGreaterThanOrEqual(11);
  }
  expect(await clipped(page), shot).toEqual([]);
}

/** The header's state and the context panel's number agree with the timeline's current row. */
async function expectOneStoryOfTheStep(page: Page, shot: string) {
  const row = page.locator('.timeline-row.current');
  await row.waitFor();
  const after = (await row.locator('.col-after').textContent())!.trim();
  const index = (await row.locator('.col-index').textContent())!.trim();
  expect(await page.getByTestId('active-state').textContent(), `${shot}: header`).toBe(after);
  expect(await page.getByTestId('context-step').textContent(), `${shot}: context panel`).toBe(`#${index}`);
}

describe.each(SIZES)('every mode at $width×$height', (size) => {
  const tag = `${size.width}x${size.height}`;

  it('should show the whole machine legibly and keep the recordings panels in bounds', async () => {
    await app.page.setViewportSize(size);
    await app.page.goto(`${app.served.url}&mode=recordings`);
    // Nothing open: the header claims no state.
    await app.page.getByTestId('no-active-state').waitFor();
    expect(await app.page.getByTestId('active-state').count()).toBe(0);
    await app.page.locator('[data-recording="retry-storm.jsonl"]').click();
    await expect.poll(() => app.page.getByTestId('timeline-row').count()).toBeGreaterThan(8);
    await app.page.locator('[data-testid="timeline-row"][data-index="7"]').click();
    await expectOneStoryOfTheStep(app.page, `recordings-${tag}`);
    await expectLegibleAndUnclipped(app.page, `recordings-${tag}`);
    // What the compact boxes leave out is one hover away, inside the pane.
    await app.page.locator('svg.diagram [data-state="VERIFYING"]').hover();
    const card = app.page.getByTestId('hover-card');
    await expect.poll(() => card.textContent()).toContain('Stays in this state on:');
    const [cardBox, pane] = await Promise.all([
      card.boundingBox(),
      app.page.locator('.diagram-viewport').boundingBox(),
    ]);
    expect(cardBox!.y).toBeGreaterThanOrEqual(pane!.y);
    expect(cardBox!.y + cardBox!.height).toBeLessThanOrEqual(pane!.y + pane!.height + 1);
    await app.page.mouse.move(0, 0);
    expect(app.errors).toEqual([]);
  });

  it('should show the whole machine legibly and keep the playground controls in bounds', async () => {
    await app.page.setViewportSize(size);
    await app.page.goto(`${app.served.url}&mode=playground`);
    await app.page.locator('[data-pg="begin-resolve"]').click();
    await app.page.locator('[data-pg="end-ok-c1"]').click();
    await app.page.locator('[data-pg="begin-write"]').click();
    await expect.poll(() => app.page.getByTestId('active-state').textContent()).toBe('WRITING');
    // Every tool-call row's third button is whole and inside the panel.
    const success = app.page.locator('[data-pg="success-user_input"]');
    const [button, panel] = await Promise.all([success.boundingBox(), app.page.locator('.left').boundingBox()]);
    expect(button!.x + button!.width).toBeLessThanOrEqual(panel!.x + panel!.width);
    await expectOneStoryOfTheStep(app.page, `playground-${tag}`);
    await expectLegibleAndUnclipped(app.page, `playground-${tag}`);
    expect(app.errors).toEqual([]);
  });

  it('should show the whole machine legibly while following a live session', async () => {
    await app.page.setViewportSize(size);
    await app.page.goto(`${app.served.url}&mode=live`);
    // One demo run per server: a second would stream the same session ids under another agent, which the hub refuses.
    demo ??= startAgent(app.served.url, ['--delay', '0', '--name', 'fits']).done;
    expect(await demo).toBe(0);
    await expect.poll(() => app.page.getByTestId('live-session').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await app.page.getByTestId('live-session').first().click();
    await expect.poll(() => app.page.getByTestId('timeline-row').count()).toBeGreaterThan(1);
    await app.page.keyboard.press('End');
    await expectOneStoryOfTheStep(app.page, `live-${tag}`);
    await expectLegibleAndUnclipped(app.page, `live-${tag}`);
    expect(app.errors).toEqual([]);
  });

  it('should show the whole machine legibly in the editor and put the played step in the header', async () => {
    await app.page.setViewportSize(size);
    await app.page.goto(`${app.served.url}&mode=edit`);
    await app.page.locator('[data-testid="invariant-report"][aria-busy="false"]').waitFor({ timeout: 30_000 });
    await app.page.getByTestId('no-active-state').waitFor();
    await expectLegibleAndUnclipped(app.page, `edit-${tag}`);

    // Break I1 and play its counterexample: the header follows the step played, not a stale state.
    await selectTransition(app.page, 'RESOLVING', 'RESOLVING.BEGIN_CALL[6]');
    await app.page.locator('select[data-field="target"]').selectOption('WRITING');
    const step = app.page.locator('[data-invariant="I1"] [data-testid="counterexample-step"]').last();
    await step.waitFor({ timeout: 30_000 });
    await step.click();
    expect(await app.page.getByTestId('active-state').textContent()).toBe('WRITING');
    await expectLegibleAndUnclipped(app.page, `edit-counterexample-${tag}`);
    await app.page.getByTestId('undo').click();
    expect(app.errors).toEqual([]);
  });
});
