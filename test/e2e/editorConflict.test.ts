import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checked, copyMachines, selectTransition } from './editorHelpers.js';
import { screenshot, serveAppInBrowser } from './helpers.js';

let machinesDir: string;
const app = serveAppInBrowser({
  serve: () => {
    machinesDir = copyMachines();
    return ['--machines', machinesDir];
  },
  mode: 'edit',
});

const machineFile = () => join(machinesDir, 'assistant-safety.json');

describe('saving from the editor', () => {
  it('should ask for confirmation to save a machine that breaks an invariant, and refuse the save when the file changed on disk after loading', async () => {
    expect(await checked(app.page)).toMatch(/all invariants hold/);
    // Dropping VERIFYING's guarded final answer block lets an unverified final answer through.
    await selectTransition(app.page, 'VERIFYING', 'VERIFYING.CHECK_FINAL_ANSWER[2]');
    await app.page.locator('[data-action="remove-transition"]').click();
    expect(await checked(app.page)).toMatch(/violated/);
    expect(await app.page.locator('[data-testid="invariant-violation"][data-invariant="I3"]').count()).toBe(1);

    // The edited machine exports as Mermaid and SCXML, as the CLI would write it.
    const [mermaid] = await Promise.all([
      app.page.waitForEvent('download'),
      app.page.locator('[data-action="export-mermaid"]').click(),
    ]);
    const mmd = readFileSync((await mermaid.path())!, 'utf8');
    expect(mmd).toMatch(/^stateDiagram-v2/);
    expect(mmd).toContain('VERIFYING --> VERIFYING: CHECK_FINAL_ANSWER [hasReadAfterWrite]');
    expect(mmd).not.toContain('VERIFYING --> VERIFYING: CHECK_FINAL_ANSWER / block(FINAL_ANSWER_UNVERIFIED)');
    const [scxml] = await Promise.all([
      app.page.waitForEvent('download'),
      app.page.locator('[data-action="export-scxml"]').click(),
    ]);
    expect(readFileSync((await scxml.path())!, 'utf8')).toContain('<scxml');

    await app.page.getByTestId('save-machine').click();
    await app.page.getByTestId('confirm-violations').waitFor();
    expect(await app.page.getByTestId('confirm-save').isDisabled()).toBe(true);
    await app.page.getByTestId('confirm-violations').check();
    expect(await app.page.getByTestId('confirm-save').isEnabled()).toBe(true);

    // Someone else changes the file after the editor loaded it.
    const theirs = readFileSync(machineFile(), 'utf8').replace(
      'No validated target yet',
      'No validated target yet (changed by someone else)',
    );
    writeFileSync(machineFile(), theirs);
    await app.page.getByTestId('confirm-save').click();
    const error = app.page.getByTestId('save-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/Conflict: .*changed on disk since it was loaded.*nothing was saved/);
    expect(readFileSync(machineFile(), 'utf8')).toBe(theirs);
    await screenshot(app.page, 'editor-conflict');

    // Reviewing again shows the conflict before any write.
    await app.page.locator('[data-action="close-save"]').click();
    await app.page.getByTestId('save-machine').click();
    await expect
      .poll(() => app.page.getByTestId('save-error').textContent())
      .toMatch(/changed on disk since the editor loaded it/);
    expect(await app.page.getByTestId('confirm-save').isDisabled()).toBe(true);
    expect(readFileSync(machineFile(), 'utf8')).toBe(theirs);

    // Reloading starts again from the file as it is now.
    await app.page.locator('[data-action="reload"]').click();
    await expect.poll(() => app.page.getByTestId('edit-dirty').textContent()).toContain('no unsaved edits');
    expect(await checked(app.page)).toMatch(/all invariants hold/);
    await app.page.locator('[data-edit-state-pick="RESOLVING"]').click();
    expect(await app.page.locator('textarea[data-field="state-description"]').inputValue()).toContain(
      '(changed by someone else)',
    );
    expect(app.errors).toEqual([]);
  });
});
