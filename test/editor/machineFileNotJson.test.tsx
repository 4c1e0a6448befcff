// @vitest-environment jsdom
import { cleanup, configure, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MachineEditor } from '../../viz/editor/MachineEditor.js';

// findBy waits for the condition; its bound only catches a hang.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the editor on a machine file that is not JSON', () => {
  it('should say where the file stops being JSON, as the server reports it, not that the answer was unexpected', async () => {
    // What GET /api/machines/broken answers for such a file (test/server/machinesEndpoints.test.ts).
    const answer = {
      name: 'broken',
      text: '{\n  "id": "broken",\n  "initial": "A",,\n}\n',
      json: null,
      error: 'not JSON at line 3, column 19: Expected double-quoted property name',
      version: '0123456789abcdef',
      layout: null,
      layoutVersion: 'absent',
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(answer), { status: 200 })),
    );
    render(<MachineEditor file="broken.json" fromServer={true} />);
    const message = await screen.findByText(/machines\/broken\.json/);
    expect(message.textContent).toContain('not JSON at line 3, column 19');
    expect(message.textContent).not.toContain('unexpected answer');
    // Nothing of an editor session is shown for it: no diagram, no save.
    expect(screen.queryByTestId('save-machine')).toBeNull();
  });
});
