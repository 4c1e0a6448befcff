// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRecorder, createSafetySession } from '../../src/index.js';
import { Timeline } from '../../viz/components/Timeline.js';

afterEach(cleanup);

describe('human evidence and shadow runs in the timeline', () => {
  it('should show an attestation apart from machine evidence, naming the person', () => {
    const recorder = createMemoryRecorder();
    const s = createSafetySession({ recorder, now: () => 0 });
    s.attest(s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' })!, { by: 'alice', note: 'vm-101' });
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'get_vm' });
    const entries = recorder.entries;
    render(<Timeline entries={entries} version={0} cursor={0} onSelect={() => {}} divergencesAt={() => []} />);
    const rows = screen.getAllByTestId('timeline-row');
    const human = rows.filter((r) => r.classList.contains('human-evidence'));
    expect(human).toHaveLength(1);
    expect(human[0]!.textContent).toContain('attest target');
    expect(human[0]!.textContent).toContain('by alice: vm-101');
    expect(human[0]!.textContent).toContain('attested');
    expect(rows.at(-1)!.classList.contains('human-evidence')).toBe(false);
  });

  it('should mark a shadow run’s would-be block', () => {
    const recorder = createMemoryRecorder();
    const s = createSafetySession({ recorder, mode: 'shadow', now: () => 0 });
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    render(<Timeline entries={recorder.entries} version={0} cursor={0} onSelect={() => {}} divergencesAt={() => []} />);
    const row = screen.getAllByTestId('timeline-row').at(-1)!;
    expect(row.classList.contains('would-block')).toBe(true);
    expect(row.textContent).toContain('would block: NO_VALIDATED_TARGET');
  });
});
