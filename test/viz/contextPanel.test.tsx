// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTEXT_FIELD_LABELS, ContextPanel } from '../../viz/components/ContextPanel.js';
import type { RecordingEntry } from '../../src/index.js';
import { blockedRecording, FIRST_BLOCKED, START } from './fixtures.js';

afterEach(cleanup);

const field = (name: string) => document.querySelector(`[data-field="${name}"] dd`)!.textContent;

describe('context panel', () => {
  it('should show the flags, the counter and the last read and write tools with their times', () => {
    const entry = blockedRecording()[FIRST_BLOCKED]!;
    render(<ContextPanel entry={entry} recoveries={[]} recoveryTtlMs={600_000} />);
    expect(field('wroteThisEpisode')).toBe('yes');
    expect(field('readAfterWrite')).toBe('no');
    expect(field('consecutiveVerifyBlocks')).toBe('1');
    expect(field('lastWriteTool')).toBe('restart_vm at 09:30:05.000');
    expect(field('lastReadTool')).toBe('find_vm at 09:30:03.000');
    expect(screen.getByText(/Blocked in VERIFYING/).textContent).toContain('UNVERIFIED_WRITE');
  });

  it("should name each field in plain words, with the field's own name on hover", () => {
    render(<ContextPanel entry={blockedRecording()[FIRST_BLOCKED]!} recoveries={[]} recoveryTtlMs={600_000} />);
    const terms = [...document.querySelectorAll('[data-field] dt')];
    expect(terms.map((t) => t.closest('[data-field]')!.getAttribute('data-field'))).toEqual(
      Object.keys(CONTEXT_FIELD_LABELS),
    );
    for (const t of terms) {
      const name = t.closest('[data-field]')!.getAttribute('data-field')!;
      expect(t.textContent).toBe(CONTEXT_FIELD_LABELS[name as keyof typeof CONTEXT_FIELD_LABELS]);
      expect(t.textContent).not.toMatch(/[a-z][A-Z]/); // no camelCase field name shown as the label
      expect(t.getAttribute('title')).toContain(name);
    }
  });

  it('should show the write in flight', () => {
    const entry = blockedRecording()[3]!; // the write has begun
    render(<ContextPanel entry={entry} recoveries={[]} recoveryTtlMs={600_000} />);
    expect(field('inFlightWrite')).toBe('restart_vm (id c2) since 09:30:04.000');
  });

  it('should list pending recoveries with their remaining time to live', () => {
    const entry: RecordingEntry = {
      ...blockedRecording()[FIRST_BLOCKED]!,
      at: START + 6000 + 65_000,
    };
    const recovery = {
      recoveryId: 'r1',
      errorCode: 'FSM_BLOCKED',
      tool: 'restart_vm',
      createdAt: START + 6000,
      attempts: 2,
    };
    render(
      <ContextPanel
        entry={{ ...entry, context: { ...entry.context, pendingRecoveries: 1 } }}
        recoveries={[recovery]}
        recoveryTtlMs={600_000}
      />,
    );
    const item = screen.getByTestId('pending-recovery');
    expect(item.textContent).toContain('restart_vm');
    expect(item.textContent).toContain('×2');
    expect(within(item).getByText(/expires in 8m 55s/)).toBeTruthy();
  });

  it('should say so when no step is selected', () => {
    render(<ContextPanel entry={undefined} recoveries={undefined} recoveryTtlMs={undefined} />);
    expect(screen.getByText('No step selected.')).toBeTruthy();
  });
});
