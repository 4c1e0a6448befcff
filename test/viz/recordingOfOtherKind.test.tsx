// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { safetyMachineDefinition } from '../../src/index.js';
import { App } from '../../viz/App.js';

/*
 * A recording picked (or dropped) while the other kind of machine is selected: a Patrol run's file
 * with the safety machine, a session's file with the Patrol machine. Before, the page listed every
 * field of the entry schema the Patrol header lacks (`v: Invalid input: expected 1; session: …`), or
 * said `kind: Invalid discriminator value` of a session's first line, as if the file were broken.
 */

configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const patrolText = readFileSync('recordings/patrol-demo.patrol.jsonl', 'utf8');
const sessionText = readFileSync('recordings/write-before-discovery.jsonl', 'utf8');

function server() {
  return vi.fn(async (path: string) => {
    const body =
      path === '/api/machines'
        ? {
            machines: [
              { file: 'assistant-safety.json', json: safetyMachineDefinition },
              { file: 'patrol.json', json: JSON.parse(readFileSync('machines/patrol.json', 'utf8')) },
            ],
          }
        : path === '/api/recordings'
          ? { recordings: [] }
          : { error: 'no' };
    return new Response(JSON.stringify(body), { status: path.startsWith('/api/') ? 200 : 404 });
  });
}

const pick = (name: string, text: string) =>
  fireEvent.change(screen.getByTestId('open-recording'), { target: { files: [new File([text], name)] } });

describe('a recording of the other kind of machine', () => {
  it('should say a Patrol run recording opens on the Patrol machine, opened with the safety machine', async () => {
    vi.stubGlobal('fetch', server());
    render(<App fromServer={true} initialMode="recordings" />);
    await screen.findByRole('button', { name: 'patrol' });
    pick('run.jsonl', patrolText);
    const error = await screen.findByTestId('recording-error');
    expect(error.textContent).toContain('run.jsonl with a safety machine: it is a Patrol run recording');
    expect(error.textContent).toContain('pick the patrol machine');
    expect(error.textContent).not.toContain('Invalid input');
    expect(screen.queryAllByTestId('timeline-row')).toHaveLength(0);
  });

  it('should say a session recording opens on a safety machine, opened with the Patrol machine', async () => {
    vi.stubGlobal('fetch', server());
    render(<App fromServer={true} initialMode="recordings" />);
    fireEvent.click(await screen.findByRole('button', { name: 'patrol' }));
    await waitFor(() =>
      expect(document.querySelector('svg.diagram')?.getAttribute('aria-label')).toBe('statechart patrol'),
    );
    pick('session.jsonl', sessionText);
    const error = await screen.findByTestId('recording-error');
    expect(error.textContent).toContain("session.jsonl with the Patrol machine: it is a safety session's recording");
    expect(error.textContent).toContain('pick a safety machine');
    expect(error.textContent).not.toContain('discriminator');
    expect(screen.queryAllByTestId('patrol-step')).toHaveLength(0);
  });
});
