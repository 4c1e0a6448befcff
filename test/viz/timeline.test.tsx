// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Divergence } from '../../src/index.js';
import { ROW_HEIGHT, Timeline } from '../../viz/components/Timeline.js';
import { bigRecording, blockedRecording, FIRST_BLOCKED } from './fixtures.js';

afterEach(cleanup);
const none = () => [];

describe('timeline', () => {
  it('should list the events in order with time, kind, tool, decision and state after', () => {
    const entries = blockedRecording();
    render(<Timeline entries={entries} version={0} cursor={0} onSelect={() => {}} divergencesAt={none} />);
    const rows = screen.getAllByTestId('timeline-row');
    expect(rows).toHaveLength(entries.length);
    expect(rows.map((r) => Number(r.dataset['index']))).toEqual(entries.map((_, i) => i));
    const blocked = rows[FIRST_BLOCKED]!;
    expect(blocked.textContent).toContain('09:30:06.000');
    expect(blocked.textContent).toContain('beginToolCall write');
    expect(blocked.textContent).toContain('restart_vm');
    expect(blocked.textContent).toContain('UNVERIFIED_WRITE');
    expect(blocked.textContent).toContain('VERIFYING');
  });

  it('should render only the rows in view of a 100,000-event recording', () => {
    const entries = bigRecording(100_000);
    const { container } = render(
      <Timeline entries={entries} version={0} cursor={0} onSelect={() => {}} divergencesAt={none} />,
    );
    const rows = screen.getAllByTestId('timeline-row');
    expect(rows.length).toBeLessThan(60);
    expect(container.querySelectorAll('*').length).toBeLessThan(1000);
    // The scroll area is as tall as all the rows would be.
    expect((container.querySelector('.timeline-spacer') as HTMLElement).style.height).toBe(`${100_000 * ROW_HEIGHT}px`);
  });

  it('should bring the cursor row into view when the cursor jumps to the end', () => {
    const entries = bigRecording(100_000);
    const { rerender } = render(
      <Timeline entries={entries} version={0} cursor={0} onSelect={() => {}} divergencesAt={none} />,
    );
    rerender(<Timeline entries={entries} version={0} cursor={99_999} onSelect={() => {}} divergencesAt={none} />);
    const current = document.querySelector('.timeline-row.current') as HTMLElement;
    expect(current.dataset['index']).toBe('99999');
    expect(screen.getAllByTestId('timeline-row').length).toBeLessThan(60);
  });

  it('should select the step a row stands for when clicked', () => {
    const onSelect = vi.fn();
    render(<Timeline entries={blockedRecording()} version={0} cursor={0} onSelect={onSelect} divergencesAt={none} />);
    fireEvent.click(screen.getAllByTestId('timeline-row')[3]!);
    expect(onSelect).toHaveBeenCalledWith(3);
  });

  it('should flag every diverging row and only those', () => {
    const entries = blockedRecording();
    const d: Divergence = { index: 2, session: 's', seq: 2, field: 'after', recorded: 'READING', actual: 'RESOLVING' };
    render(
      <Timeline
        entries={entries}
        version={0}
        cursor={0}
        onSelect={() => {}}
        divergencesAt={(i) => (i === 2 ? [d] : [])}
      />,
    );
    const flags = screen.getAllByTestId('divergence');
    expect(flags).toHaveLength(1);
    expect(flags[0]!.closest('[data-testid="timeline-row"]')!.getAttribute('data-index')).toBe('2');
    expect(flags[0]!.getAttribute('title')).toContain('after: recorded "READING", now "RESOLVING"');
  });
});
