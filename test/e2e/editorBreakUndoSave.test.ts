import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../src/editor/lineDiff.js';
import { checked, cli, copyMachines, selectTransition } from './editorHelpers.js';
import { root, screenshot, serveAppInBrowser } from './helpers.js';

let machinesDir: string;
const app = serveAppInBrowser({
  serve: () => {
    machinesDir = copyMachines();
    return ['--machines', machinesDir];
  },
});

const machineFile = () => join(machinesDir, 'assistant-safety.json');

describe('editing the machine in the browser', () => {
  it('should flag a write allowed without a target with a counterexample, undo it, and save a harmless edit that still passes check', async () => {
    const original = readFileSync(machineFile(), 'utf8');
    await app.page.getByTestId('edit-mode').click();
    expect(await checked(app.page)).toMatch(/all invariants hold/);

    // RESOLVING's BEGIN_CALL [isWrite] blocks writes: send it to WRITING and drop its block.
    await selectTransition(app.page, 'RESOLVING', 'RESOLVING.BEGIN_CALL[6]');
    await app.page.locator('select[data-field="target"]').selectOption('WRITING');
    await app.page.locator('[data-action="remove-action-block"]').click();
    expect(await checked(app.page)).toMatch(/invariants? violated/);
    const i1 = app.page.locator('[data-testid="invariant-violation"][data-invariant="I1"]');
    await expect.poll(() => i1.count()).toBe(1);
    expect(await i1.textContent()).toContain('No write without a validated target');
    const steps = i1.getByTestId('counterexample-step');
    expect(await steps.count()).toBeGreaterThan(0);
    expect(await steps.last().textContent()).toMatch(/RESOLVING · begin write → allowed, now WRITING/);
    await steps.last().click();
    // Played on the diagram: the state the step ends in is outlined, the transition it took is marked.
    expect(await app.page.locator('.edit-diagram [data-state="WRITING"].state-active').count()).toBe(1);
    expect(await app.page.locator('.edit-diagram .edge-taken[data-transition="RESOLVING.BEGIN_CALL[6]"]').count()).toBe(
      1,
    );
    expect(await app.page.getByTestId('playing-step').textContent()).toMatch(/^I1 step/);
    await screenshot(app.page, 'editor-broken');

    // The recorded sessions replayed against the broken machine: writes they saw blocked would now go through.
    await app.page.locator('[data-action="replay-recordings"]').click();
    await expect
      .poll(() => app.page.getByTestId('replay-summary').textContent(), { timeout: 30_000 })
      .toMatch(/recorded decisions? would change/);
    expect(await app.page.getByTestId('decision-change').allTextContents()).toContainEqual(
      expect.stringMatching(/beginToolCall write .*was blocked \(NO_VALIDATED_TARGET\), now allowed/),
    );

    // Leaving the edit mode and coming back keeps the edits and their history.
    await app.page.locator('[data-mode="recordings"]').click();
    await app.page.getByTestId('edit-mode').click();
    expect(await checked(app.page)).toMatch(/invariants? violated/);
    expect(await app.page.getByTestId('edit-dirty').textContent()).toContain('unsaved edits');

    // Undo both edits: the machine is the shipped one again.
    await app.page.getByTestId('undo').click();
    await app.page.getByTestId('undo').click();
    expect(await checked(app.page)).toMatch(/all invariants hold/);
    expect(await app.page.getByTestId('invariant-violation').count()).toBe(0);
    expect(await app.page.getByTestId('undo').isDisabled()).toBe(true);
    expect(await app.page.getByTestId('redo').isEnabled()).toBe(true);

    // A harmless edit: READING's description; and READING dragged somewhere else.
    await app.page.locator('[data-action="deselect"]').click();
    await app.page.locator('[data-edit-state-pick="READING"]').click();
    await app.page
      .locator('textarea[data-field="state-description"]')
      .fill('A target is established: reads are free, one write may start.');
    await app.page.locator('[data-action="apply-state-description"]').click();
    const box = (await app.page.locator('.edit-diagram [data-edit-state="READING"]').boundingBox())!;
    await app.page.mouse.move(box.x + box.width / 2, box.y + 10);
    await app.page.mouse.down();
    await app.page.mouse.move(box.x + box.width / 2 + 60, box.y + 40, { steps: 6 });
    await app.page.mouse.up();
    expect(await checked(app.page)).toMatch(/all invariants hold/);

    await app.page.getByTestId('save-machine').click();
    const diff = app.page.getByTestId('save-diff').first();
    await expect.poll(() => diff.textContent()).toContain('+ ');
    expect(await diff.textContent()).toContain('A target is established: reads are free, one write may start.');
    await screenshot(app.page, 'editor-save-diff');
    await app.page.getByTestId('confirm-save').click();
    await app.page.getByTestId('save-done').waitFor();

    const saved = readFileSync(machineFile(), 'utf8');
    expect(saved).not.toBe(original);
    const changed = lineDiff(original, saved).filter((l) => l.op !== ' ');
    expect(changed.map((l) => l.op)).toEqual(['-', '+']);
    expect(JSON.parse(saved).states.READING.description).toBe(
      'A target is established: reads are free, one write may start.',
    );
    const layout = JSON.parse(readFileSync(join(machinesDir, 'assistant-safety.layout.json'), 'utf8'));
    expect(Object.keys(layout.nodes)).toEqual(['READING']);
    const result = cli(['check', '--machine', machineFile()]);
    expect(result.out).toContain('every invariant holds on every edge');
    expect(result.status).toBe(0);

    // The editor is now based on the saved file: a second save goes through without a conflict.
    await app.page.locator('[data-action="close-save"]').click();
    expect(await app.page.getByTestId('edit-dirty').textContent()).toContain('no unsaved edits');
    await app.page.locator('textarea[data-field="state-description"]').fill('A target is established.');
    await app.page.locator('[data-action="apply-state-description"]').click();
    await app.page.getByTestId('save-machine').click();
    await app.page.getByTestId('confirm-save').click();
    await app.page.getByTestId('save-done').waitFor();
    expect(JSON.parse(readFileSync(machineFile(), 'utf8')).states.READING.description).toBe('A target is established.');
    expect(readFileSync(join(root, 'machines', 'assistant-safety.json'), 'utf8')).toBe(original);
    expect(app.errors).toEqual([]);
    // The whole story (two invariant checks, a replay of every recording, a save) on a shared CI box.
  }, 180_000);
});
