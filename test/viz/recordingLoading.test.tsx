// @vitest-environment jsdom
import { act, cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../viz/App.js';
import { blockedRecording, FIRST_BLOCKED, tamperedRecording, toJSONL } from './fixtures.js';

// findBy/waitFor wait for the condition; their bound (testing-library's 1 s by default) only catches a hang.
configure({ asyncUtilTimeout: 15_000 });

afterEach(cleanup);

function open(name: string, text: string) {
  const input = screen.getByTestId('open-recording') as HTMLInputElement;
  const file = new File([text], name, { type: 'application/x-ndjson' });
  fireEvent.change(input, { target: { files: [file] } });
}

describe('recording loading', () => {
  it('should open a recording from the file picker and show its events and last state', async () => {
    render(<App fromServer={false} />);
    const entries = blockedRecording();
    open('good.jsonl', toJSONL(entries));
    await waitFor(() => expect(screen.getAllByTestId('timeline-row')).toHaveLength(entries.length));
    expect(screen.getByTestId('active-state').textContent).toBe('RESOLVING');
    fireEvent.click(screen.getByText('▶|'));
    expect(screen.getByTestId('active-state').textContent).toBe('READING');
    expect(screen.getByTestId('recording-status').textContent).toContain('good.jsonl: 11 events');
  });

  it('should open a recording dropped on the page', async () => {
    render(<App fromServer={false} />);
    const file = new File([toJSONL(blockedRecording())], 'dropped.jsonl');
    fireEvent.drop(document.querySelector('.dropzone')!, { dataTransfer: { files: [file] } });
    await waitFor(() => expect(screen.getAllByTestId('timeline-row')).toHaveLength(11));
    expect(screen.getByTestId('recording-status').textContent).toContain('dropped.jsonl');
  });

  it('should say which line is bad, and keep the page working, for a file that is not a recording', async () => {
    render(<App fromServer={false} />);
    const lines = toJSONL(blockedRecording()).split('\n');
    lines[2] = '{"v":1,"session":"x"';
    open('broken.jsonl', lines.join('\n'));
    const error = await screen.findByTestId('recording-error');
    expect(error.textContent).toContain('broken.jsonl, line 3');
    expect(error.textContent).toContain('not JSON');
    // Nothing is open, so the header claims no state.
    expect(screen.getByTestId('no-active-state')).toBeTruthy();
    expect(screen.getByTestId('step-forward')).toBeTruthy();
  });

  it('should name the line and the field of an entry that breaks the schema', async () => {
    render(<App fromServer={false} />);
    const entries = blockedRecording().map((e, i) => (i === 4 ? { ...e, decision: 'maybe' } : e));
    open('schema.jsonl', toJSONL(entries as never));
    const error = await screen.findByTestId('recording-error');
    expect(error.textContent).toMatch(/schema\.jsonl, line 5: decision/);
  });

  it('should refuse an empty file with a message', async () => {
    render(<App fromServer={false} />);
    open('empty.jsonl', '\n\n');
    expect((await screen.findByTestId('recording-error')).textContent).toContain('empty.jsonl: the recording is empty');
  });

  it('should open a recording whose last line was torn by a crash, with a warning', async () => {
    render(<App fromServer={false} />);
    const text = toJSONL(blockedRecording());
    open('torn.jsonl', text + text.split('\n')[1]!.slice(0, 40));
    await waitFor(() => expect(screen.getAllByTestId('timeline-row')).toHaveLength(11));
    expect(screen.getByText(/line 12 is torn/)).toBeTruthy();
  });

  it('should show the blocked marker at a blocked step and flag diverging rows', async () => {
    render(<App fromServer={false} />);
    open('tampered.jsonl', toJSONL(tamperedRecording()));
    await waitFor(() => expect(screen.getAllByTestId('timeline-row')).toHaveLength(11));
    await waitFor(() => expect(screen.getAllByTestId('divergence')).toHaveLength(1));
    expect(screen.getAllByTestId('divergence')[0]!.closest('[data-index]')!.getAttribute('data-index')).toBe(
      String(FIRST_BLOCKED),
    );
    // Step to the first really blocked step (the tampered one says allowed).
    await waitFor(() => expect(document.querySelector('svg.diagram')).toBeTruthy());
    act(() => {
      for (let i = 0; i < FIRST_BLOCKED + 1; i++) fireEvent.keyDown(window, { key: 'ArrowRight' });
    });
    expect(screen.getByTestId('blocked-marker').textContent).toContain('FINAL_ANSWER_UNVERIFIED');
    fireEvent.click(screen.getByTestId('step-forward'));
    expect(screen.queryByTestId('blocked-marker')).toBeNull();
  });
});
