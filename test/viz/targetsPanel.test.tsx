// @vitest-environment jsdom
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRecorder, createSafetySession, safetyMachineDefinition } from '../../src/index.js';
import { App } from '../../viz/App.js';

/*
 * A session with target binding, opened in the app: the context panel lists the validated targets
 * with where each came from (the user's words, a result field, a read's call, a person), and a
 * blocked call the targets that had no source. Before, the panel showed neither: docs/targets.md said
 * the app shows provenance, and nothing in the page did.
 */

configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A real bound session: discovery in a result, a read's targets, a block, a person's approval, the user's words. */
function boundRecording(): string {
  const recorder = createMemoryRecorder();
  const s = createSafetySession({ targets: 'bind', recorder });
  s.userMessage('Please restart vm-101.');
  s.beginToolCall({ id: 'r1', kind: 'read', tool: 'list_vms' });
  s.endToolCall({ id: 'r1', ok: true, discovered: [{ target: 'vm:vm-102', field: 'vms.id' }] });
  s.beginToolCall({ id: 'r2', kind: 'read', tool: 'get_vm', targets: ['vm:vm-103'] });
  s.endToolCall({ id: 'r2', ok: true });
  const block = s.beginToolCall({ id: 'w0', kind: 'write', tool: 'restart_vm', targets: ['vm:vm-102', 'vm:vm-999'] });
  s.attest(block!, { by: 'alice' });
  s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm', targets: ['vm:vm-101'] });
  return recorder.entries.map((e) => JSON.stringify(e)).join('\n') + '\n';
}

function server() {
  return vi.fn(async (path: string) => {
    const body =
      path === '/api/machines'
        ? { machines: [{ file: 'assistant-safety.json', json: safetyMachineDefinition }] }
        : path === '/api/recordings'
          ? { recordings: [] }
          : { error: 'no' };
    return new Response(JSON.stringify(body), { status: path.startsWith('/api/') ? 200 : 404 });
  });
}

async function openAt(index: number) {
  const row = await waitFor(() => {
    const found = document.querySelector<HTMLElement>(`[data-testid="timeline-row"][data-index="${index}"]`);
    expect(found).not.toBeNull();
    return found!;
  });
  fireEvent.click(row);
  await waitFor(() => expect(screen.getByTestId('context-step').textContent).toBe(`#${index + 1}`));
}

describe('validated targets in the context panel', () => {
  it('should list each validated target with where it came from, and a blocked call the targets with no source', async () => {
    vi.stubGlobal('fetch', server());
    render(<App fromServer={true} initialMode="recordings" />);
    fireEvent.change(await screen.findByTestId('open-recording'), {
      target: { files: [new File([boundRecording()], 'bound.jsonl')] },
    });
    await screen.findByTestId('recording-status');

    // #7: the write to vm-102 (found) and vm-999 (found nowhere) is blocked.
    await openAt(6);
    const atBlock = await screen.findByTestId('validated-targets');
    const sourceOf = (target: string) =>
      within(atBlock)
        .getAllByTestId('validated-target')
        .find((li) => li.dataset['target'] === target)?.textContent;
    await waitFor(() => expect(sourceOf('vm:vm-102')).toContain('result field vms.id of list_vms'));
    expect(sourceOf('vm:vm-103')).toContain('tool get_vm (named in its call)');
    expect(sourceOf('vm:vm-999')).toBeUndefined();
    const unsourced = screen.getByTestId('unsourced-targets');
    expect(unsourced.textContent).toContain('vm:vm-999');
    expect(unsourced.textContent).not.toContain('vm:vm-102');

    // #9: after alice's approval and the write the user named, every source is shown.
    await openAt(8);
    await waitFor(() => expect(sourceOf('vm:vm-999')).toContain('a person: alice'));
    expect(sourceOf('vm:vm-101')).toContain('the user\'s words: "vm-101"');
    expect(screen.queryByTestId('unsourced-targets')).toBeNull();
  });
});
