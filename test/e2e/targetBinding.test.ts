import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseRecording, type RecordingEntry } from '../../src/index.js';
import { TARGET_BINDING_SCENARIO } from '../../examples/demoPayments.js';
import { root, screenshot, serveAppInBrowser, startAgent } from './helpers.js';

/*
 * Target binding in the browser: the shipped payments recording (and the same scenario streamed live
 * by the demo agent) stepped to the transfer an invoice's memo asked for. The context panel lists
 * every validated target with where it came from, and the IBAN nothing validated.
 */

const RECORDING = 'target-binding.jsonl';
const entries = parseRecording(readFileSync(join(root, 'recordings', RECORDING), 'utf8'));
const INJECTED = 'iban:DE89370400440532013000';
const refused = entries.findIndex((e) => e.decision === 'blocked' && hasTargets(e, [INJECTED]));
const approved = entries.findIndex((e) => e.call.type === 'attest');

function hasTargets(e: RecordingEntry, targets: string[]): boolean {
  return 'targets' in e.call && JSON.stringify(e.call.targets) === JSON.stringify(targets);
}

const app = serveAppInBrowser({ serve: () => ['--recordings', join(root, 'recordings')], mode: 'recordings' });

/** The panel's validated targets, each as `target → source text`. */
async function validatedTargets(page: Page): Promise<Record<string, string>> {
  const items = page.getByTestId('validated-target');
  const out: Record<string, string> = {};
  for (let i = 0; i < (await items.count()); i++) {
    const item = items.nth(i);
    out[(await item.getAttribute('data-target'))!] = (await item.locator('.target-source').textContent())!;
  }
  return out;
}

/** What the panel shows at the refused transfer: the three sources, and no source for the memo's IBAN. */
async function expectPanelAtRefusal(page: Page) {
  expect(await page.getByTestId('active-state').textContent()).toBe('READING');
  expect(await page.getByTestId('blocked-marker').textContent()).toContain('TARGET_NOT_VALIDATED');
  await expect.poll(() => page.getByTestId('validated-target').count(), { timeout: 15_000 }).toBe(3);
  expect(await validatedTargets(page)).toEqual({
    'invoice:INV-2307': 'from result field invoices.id of list_invoices',
    'invoice:INV-2291': 'from result field invoices.id of list_invoices',
    'iban:GB29NWBK60161331926819': `from the user's words: "gb29nwbk60161331926819"`,
  });
  expect(await page.getByTestId('validated-targets').locator('h3').textContent()).toBe('Validated targets (3)');
  expect(await page.getByTestId('unsourced-targets').textContent()).toBe(`No source for: ${INJECTED}`);
}

describe('target binding in the app', () => {
  it('should list the shipped payments recording and show, at the refused transfer, each source and the unsourced IBAN', async () => {
    expect(refused).toBeGreaterThan(0);
    await app.page.locator(`[data-recording="${RECORDING}"]`).click();
    await expect.poll(() => app.page.locator('.position').textContent()).toMatch(new RegExp(`/ ${entries.length}$`));
    await expect.poll(() => app.page.getByTestId('analysis-status').textContent()).toMatch(/no divergence/);
    await app.page.locator(`[data-testid="timeline-row"][data-index="${refused}"]`).click();
    await expectPanelAtRefusal(app.page);
    await screenshot(app.page, 'target-binding-refused');

    // One step on, the next turn's words and no block: the list stays, the unsourced line goes.
    await app.page.getByTestId('step-forward').click();
    expect(await app.page.getByTestId('unsourced-targets').count()).toBe(0);

    // The refund a person approved: its payment is validated by that person.
    await app.page.locator(`[data-testid="timeline-row"][data-index="${approved}"]`).click();
    await expect
      .poll(async () => (await validatedTargets(app.page))['payment:PAY-5531'])
      .toBe('from a person: dana (finance)');
    expect(app.errors).toEqual([]);
  });

  it('should show the same panel on the live session the demo agent streams', async () => {
    const agent = startAgent(app.served.url, ['--delay', '0', '--name', 'demo']);
    expect(await agent.done).toBe(0);
    await app.page.goto(`${app.served.url}&mode=live&session=demo-${TARGET_BINDING_SCENARIO.name}`);
    await expect
      .poll(() => app.page.locator('.position').textContent(), { timeout: 15_000 })
      .toMatch(new RegExp(`/ ${entries.length}$`));
    expect(await app.page.locator('[data-testid="live-session"].selected').textContent()).toContain(
      `demo: ${TARGET_BINDING_SCENARIO.title}`,
    );
    await app.page.locator(`[data-testid="timeline-row"][data-index="${refused}"]`).click();
    await expectPanelAtRefusal(app.page);
    await screenshot(app.page, 'target-binding-live');
    expect(app.errors).toEqual([]);
  });
});
