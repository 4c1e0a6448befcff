import { describe, expect, it } from 'vitest';
import { checked, copyMachines, selectTransition } from './editorHelpers.js';
import { screenshot, serveAppInBrowser } from './helpers.js';

const app = serveAppInBrowser({ serve: () => ['--machines', copyMachines()] });

describe('editing the Patrol run machine in the browser', () => {
  it('should check the Patrol invariants and name P1 when an edit dispatches before the record', async () => {
    await app.page.getByTestId('edit-mode').click();
    await app.page.getByRole('button', { name: 'patrol', exact: true }).click();
    await app.page.locator('.edit-diagram [data-state="reconciling"]').waitFor();
    expect(await checked(app.page)).toMatch(/all invariants hold/);

    // A reconciled run goes straight to dispatching: investigations start with no record written.
    await selectTransition(app.page, 'reconciling', 'reconciling.RECONCILED[0]');
    // The pickers offer the Patrol kind's events, and the report is headed with the kind's invariants.
    expect(await app.page.locator('select[data-field="event"]').inputValue()).toBe('RECONCILED');
    expect(await app.page.locator('[data-testid="invariant-report"] h3').textContent()).toBe('Patrol invariants');
    await app.page.locator('select[data-field="target"]').selectOption('dispatching');
    expect(await checked(app.page)).toMatch(/invariants? violated/);
    const p1 = app.page.locator('[data-testid="invariant-violation"][data-invariant="P1"]');
    await expect.poll(() => p1.count()).toBe(1);
    expect(await p1.textContent()).toContain('A run never dispatches an investigation before its record is written.');
    // Its shortest counterexample plays on the diagram: the run sent to dispatch with no record.
    const steps = p1.getByTestId('counterexample-step');
    expect(await steps.last().textContent()).toBe('dispatching · DISPATCH → dispatching');
    await steps.nth((await steps.count()) - 2).click();
    expect(await app.page.locator('.edit-diagram [data-state="dispatching"].state-active').count()).toBe(1);
    expect(
      await app.page.locator('.edit-diagram .edge-taken[data-transition="reconciling.RECONCILED[0]"]').count(),
    ).toBe(1);
    // No safety-machine replay of session recordings.
    expect(await app.page.locator('[data-action="replay-recordings"]').count()).toBe(0);
    await screenshot(app.page, 'editor-patrol-broken');

    await app.page.getByTestId('undo').click();
    expect(await checked(app.page)).toMatch(/all invariants hold/);
    expect(app.errors).toEqual([]);
  });
});
