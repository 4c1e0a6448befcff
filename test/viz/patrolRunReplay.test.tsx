// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { safetyMachineDefinition } from '../../src/index.js';
import { App } from '../../viz/App.js';

configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const RECORDING = 'patrol-demo.patrol.jsonl';
const text = readFileSync(`recordings/${RECORDING}`, 'utf8');
const patrolJson = () => JSON.parse(readFileSync('machines/patrol.json', 'utf8')) as Record<string, unknown>;

/** A fetch that answers the app's API like the server would: two machines, a session recording and a Patrol run. */
function serverWith(patrol: unknown) {
  return vi.fn(async (path: string) => {
    if (path === `/api/recordings/${RECORDING}`) return new Response(text, { status: 200 });
    const body =
      path === '/api/machines'
        ? {
            machines: [
              { file: 'assistant-safety.json', json: safetyMachineDefinition },
              { file: 'patrol.json', json: patrol },
            ],
          }
        : path === '/api/recordings'
          ? {
              recordings: [
                { name: 'blocked.jsonl', size: 10, modified: 0 },
                { name: RECORDING, size: text.length, modified: 0 },
              ],
            }
          : { error: 'no' };
    return new Response(JSON.stringify(body), { status: path.startsWith('/api/') ? 200 : 404 });
  });
}

describe('a recorded Patrol run in the app', () => {
  it('should replay on the Patrol machine with its passes, signals and findings, and no divergence', async () => {
    vi.stubGlobal('fetch', serverWith(patrolJson()));
    render(<App fromServer={true} initialMode="recordings" />);
    // The safety machine lists the sessions' recordings only.
    await screen.findByRole('button', { name: /blocked\.jsonl/ });
    expect(screen.queryByRole('button', { name: /patrol-demo/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'patrol' }));
    fireEvent.click(await screen.findByRole('button', { name: /patrol-demo\.patrol\.jsonl/ }));
    await waitFor(() => expect(screen.getByTestId('analysis-status').textContent).toContain('no divergence'));
    expect(screen.getAllByTestId('patrol-step')).toHaveLength(18);
    await waitFor(() =>
      expect(document.querySelector('svg.diagram')?.getAttribute('aria-label')).toBe('statechart patrol'),
    );
    const detected = screen.getAllByTestId('patrol-step').find((r) => r.dataset['event'] === 'SIGNALS_DETECTED')!;
    expect(detected.textContent).toContain('4 signal(s), 1 unmatched: smart_failure on /dev/sdb');
    const signals = screen.getByTestId('patrol-signals');
    expect(within(signals).getByText('smart_failure').parentElement!.textContent).toContain(
      'missed by the main pass, caught by the evaluation pass',
    );
    // At the start only the run's first step is shown; at the end, every finding filed, with its pass.
    expect(within(screen.getByTestId('patrol-findings')).queryAllByRole('listitem')).toHaveLength(0);
    fireEvent.click(screen.getAllByTestId('patrol-step').at(-1)!);
    const findings = within(screen.getByTestId('patrol-findings')).getAllByRole('listitem');
    expect(findings).toHaveLength(4);
    expect(findings.at(-1)!.textContent).toMatch(/critical.*SMART health check.*evaluation pass/);
    expect(screen.getByTestId('active-state').textContent).toBe('done');
  });

  it('should count the divergences when the Patrol machine takes the run another way', async () => {
    const edited = patrolJson() as { states: Record<string, { on: Record<string, Array<{ target?: string }>> }> };
    edited.states['checkingAssessments']!.on['ASSESSMENTS_CHECKED']![1]!.target = 'recording';
    vi.stubGlobal('fetch', serverWith(edited));
    render(<App fromServer={true} initialMode="recordings" initialRecording={RECORDING} />);
    await waitFor(() => expect(screen.getByTestId('analysis-status').textContent).toMatch(/\d+ divergence\(s\)/));
    expect(document.querySelectorAll('.patrol-row.diverged').length).toBeGreaterThan(0);
  });
});
