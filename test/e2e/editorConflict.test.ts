import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checked, copyMachines, selectTransition } from './editorHelpers.js';
import { ensureAppBuilt, launchChromium, newPage, screenshot, startServe, stopAll, type Served } from './helpers.js';

let browser: Browser;
let served: Served;
let page: Page;
let machinesDir: string;
const errors: string[] = [];

beforeAll(async () => {
  ensureAppBuilt();
  machinesDir = copyMachines();
  [browser, served] = await Promise.all([launchChromium(), startServe(['--machines', machinesDir])]);
  page = await newPage(browser, errors);
  await page.goto(`${served.url}&mode=edit`);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stopAll();
});

const machineFile = () => join(machinesDir, 'assistant-safety.json');

describe('saving from the editor', () => {
  it('should ask for confirmation to save a machine that breaks an invariant, and refuse the save when the file changed on disk after loading', async () => {
    expect(await checked(page)).toMatch(/all invariants hold/);
    // Dropping VERIFYING's guarded final answer block lets an unverified final answer through.
    await selectTransition(page, 'VERIFYING', 'VERIFYING.CHECK_FINAL_ANSWER[1]');
    await page.locator('[data-action="remove-transition"]').click();
    expect(await checked(page)).toMatch(/violated/);
    expect(await page.locator('[data-testid="invariant-violation"][data-invariant="I3"]').count()).toBe(1);

    // The edited machine exports as Mermaid and SCXML, as the CLI would write it.
    const [mermaid] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-action="export-mermaid"]').click(),
    ]);
    const mmd = readFileSync((await mermaid.path())!, 'utf8');
    expect(mmd).toMatch(/^stateDiagram-v2/);
    expect(mmd).toContain('VERIFYING --> VERIFYING: CHECK_FINAL_ANSWER [hasReadAfterWrite]');
    expect(mmd).not.toContain('VERIFYING --> VERIFYING: CHECK_FINAL_ANSWER / block(FINAL_ANSWER_UNVERIFIED)');
    const [scxml] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-action="export-scxml"]').click(),
    ]);
    expect(readFileSync((await scxml.path())!, 'utf8')).toContain('<scxml');

    await page.getByTestId('save-machine').click();
    await page.getByTestId('confirm-violations').waitFor();
    expect(await page.getByTestId('confirm-save').isDisabled()).toBe(true);
    await page.getByTestId('confirm-violations').check();
    expect(await page.getByTestId('confirm-save').isEnabled()).toBe(true);

    // Someone else changes the file after the editor loaded it.
    const theirs = readFileSync(machineFile(), 'utf8').replace(
      'No validated target yet',
      'No validated target yet (changed by someone else)',
    );
    writeFileSync(machineFile(), theirs);
    await page.getByTestId('confirm-save').click();
    const error = page.getByTestId('save-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/Conflict: .*changed on disk since it was loaded.*nothing was saved/);
    expect(readFileSync(machineFile(), 'utf8')).toBe(theirs);
    await screenshot(page, 'editor-conflict');

    // Reviewing again shows the conflict before any write.
    await page.locator('[data-action="close-save"]').click();
    await page.getByTestId('save-machine').click();
    await expect
      .poll(() => page.getByTestId('save-error').textContent())
      .toMatch(/changed on disk since the editor loaded it/);
    expect(await page.getByTestId('confirm-save').isDisabled()).toBe(true);
    expect(readFileSync(machineFile(), 'utf8')).toBe(theirs);

    // Reloading starts again from the file as it is now.
    await page.locator('[data-action="reload"]').click();
    await expect.poll(() => page.getByTestId('edit-dirty').textContent()).toContain('no unsaved edits');
    expect(await checked(page)).toMatch(/all invariants hold/);
    await page.locator('[data-edit-state-pick="RESOLVING"]').click();
    expect(await page.locator('textarea[data-field="state-description"]').inputValue()).toContain(
      '(changed by someone else)',
    );
    expect(errors).toEqual([]);
  });
});
