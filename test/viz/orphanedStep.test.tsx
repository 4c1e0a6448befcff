// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRecorder, createSafetySession, type RecordingEntry } from '../../src/index.js';
import { ContextPanel } from '../../viz/components/ContextPanel.js';
import { Timeline } from '../../viz/components/Timeline.js';
import { START } from './fixtures.js';

/*
 * A step that ends a call another gateway left orphaned (its lease ran out while its holder was
 * stopped) says so, naming the holder: in the timeline and in the step's context panel.
 */

afterEach(cleanup);

/** A write begun by one gateway, ended as orphaned by the next; then a write that times out. */
function orphanedRecording(): RecordingEntry[] {
  let t = START;
  const recorder = createMemoryRecorder();
  const s = createSafetySession({ id: 'orphaned', now: () => (t += 1000), recorder });
  s.beginToolCall({ id: 'gw-a:1', kind: 'write', tool: 'restart_vm' });
  s.endToolCall({ id: 'gw-a:1', ok: false, unknown: true, orphanedBy: 'host-a:4242:1f2e3d' });
  s.beginToolCall({ id: 'c2', kind: 'read', tool: 'vm_status' });
  s.endToolCall({ id: 'c2', ok: false, unknown: true });
  return recorder.entries;
}

describe('a step that ends an orphaned call', () => {
  it('should say in the timeline that the call was orphaned and whose lease ran out', () => {
    const entries = orphanedRecording();
    render(<Timeline entries={entries} version={0} cursor={0} onSelect={() => {}} divergencesAt={() => []} />);
    const rows = screen.getAllByTestId('timeline-row');
    const tool = (i: number) => rows[i]!.querySelector('.col-tool')!;
    expect(tool(2).textContent).toBe("#gw-a:1 orphaned: host-a:4242:1f2e3d's lease ran out");
    expect(tool(2).getAttribute('title')).toBe("#gw-a:1 orphaned: host-a:4242:1f2e3d's lease ran out");
    // An unknown outcome with no holder (a timeout) is told apart from an orphaned call.
    expect(tool(4).textContent).toBe('#c2 outcome unknown');
  });

  it("should name the holder whose lease ran out in the step's context", () => {
    const entry = orphanedRecording()[2]!;
    render(<ContextPanel entry={entry} recoveries={[]} recoveryTtlMs={600_000} />);
    expect(screen.getByTestId('context-unknown-outcome').textContent).toBe(
      "Call gw-a:1 ended, orphaned: host-a:4242:1f2e3d's lease ran out: it may have acted.",
    );
  });

  it('should say nothing of an unknown outcome on any other step', () => {
    const entry = orphanedRecording()[1]!; // the write's begin
    render(<ContextPanel entry={entry} recoveries={[]} recoveryTtlMs={600_000} />);
    expect(screen.queryByTestId('context-unknown-outcome')).toBeNull();
  });
});
