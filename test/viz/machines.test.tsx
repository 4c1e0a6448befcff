// @vitest-environment jsdom
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { safetyMachineDefinition } from '../../src/index.js';
import { App } from '../../viz/App.js';

// findBy/waitFor wait for the condition; their bound (testing-library's 1 s by default) only catches a hang.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A fetch that answers the app's API like the server would. */
function serverWith(machines: { file: string; json: unknown }[]) {
  return vi.fn(async (path: string) => {
    const body =
      path === '/api/machines' ? { machines } : path === '/api/recordings' ? { recordings: [] } : { error: 'no' };
    return new Response(JSON.stringify(body), { status: path.startsWith('/api/') ? 200 : 404 });
  });
}

describe('machines', () => {
  it('should draw every machine the server offers, the safety machine first, and switch between them', async () => {
    const strict = structuredClone(safetyMachineDefinition) as Record<string, unknown>;
    strict['id'] = 'strict-safety';
    (strict['states'] as Record<string, { description: string }>)['READING']!.description = 'Reading, strictly.';
    vi.stubGlobal(
      'fetch',
      serverWith([
        { file: 'assistant-safety.json', json: safetyMachineDefinition },
        { file: 'strict-safety.json', json: strict },
      ]),
    );
    render(<App fromServer={true} initialMode="recordings" />);
    // The machines built into the app are shown until the server's list arrives.
    await waitFor(() =>
      expect(screen.getAllByRole('button', { name: /safety$/ }).map((t) => t.textContent)).toEqual([
        'assistant-safety',
        'strict-safety',
      ]),
    );
    const tabs = screen.getAllByRole('button', { name: /safety$/ });
    await waitFor(() =>
      expect(document.querySelector('svg.diagram')?.getAttribute('aria-label')).toBe('statechart assistant-safety'),
    );
    fireEvent.click(tabs[1]!);
    await waitFor(() =>
      expect(document.querySelector('svg.diagram')?.getAttribute('aria-label')).toBe('statechart strict-safety'),
    );
    // A state's description is in its accessible name (and its hover card), not printed in the compact box.
    expect(document.querySelector('svg.diagram [data-state="READING"]')!.getAttribute('aria-label')).toContain(
      'Reading, strictly.',
    );
  });

  it('should say what is wrong with a machine that does not validate instead of drawing nothing', async () => {
    const broken = structuredClone(safetyMachineDefinition) as Record<string, unknown>;
    broken['initial'] = 'NOWHERE';
    vi.stubGlobal(
      'fetch',
      serverWith([
        { file: 'assistant-safety.json', json: safetyMachineDefinition },
        { file: 'broken.json', json: broken },
      ]),
    );
    render(<App fromServer={true} initialMode="recordings" />);
    fireEvent.click(await screen.findByRole('button', { name: 'broken' }));
    expect((await screen.findByText(/Machine broken.json is invalid/)).textContent).toContain(
      'unknown state "NOWHERE"',
    );
    expect(screen.getByTestId('step-forward')).toBeTruthy();
  });
});
