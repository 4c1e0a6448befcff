// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvariantReport } from '../../viz/editor/components/InvariantReport.js';
import { TransitionInspector } from '../../viz/editor/components/TransitionInspector.js';
import type { CheckReport } from '../../viz/editor/model/CheckReport.js';
import { RESOLVING_WRITE, shippedDefinition } from './fixtures.js';

afterEach(cleanup);

const select = (field: string) => document.querySelector<HTMLSelectElement>(`select[data-field="${field}"]`)!;

describe('the transition inspector', () => {
  it('should offer the guards of the catalogue with their descriptions and turn each change into an edit', () => {
    const definition = shippedDefinition();
    const onEdit = vi.fn();
    const transition = definition.states.RESOLVING!.on!.BEGIN_CALL![RESOLVING_WRITE.index]!;
    render(
      <TransitionInspector definition={definition} at={RESOLVING_WRITE} transition={transition} onEdit={onEdit} />,
    );
    // Names in the picker (a description inside an option was cut off at the panel's edge), each described in its tooltip.
    const options = [...select('guard').options];
    const guards = options.map((o) => o.textContent);
    expect(guards).toContain('isWrite');
    expect(options.find((o) => o.value === 'isWrite')?.title).toBe('The call is a write (anything that mutates).');
    expect(guards).toHaveLength(Object.keys(definition.guards).length + 1);
    fireEvent.change(select('guard'), { target: { value: 'isDiscovery' } });
    expect(onEdit).toHaveBeenLastCalledWith({ type: 'setTransitionGuard', at: RESOLVING_WRITE, guard: 'isDiscovery' });
    fireEvent.change(select('target'), { target: { value: 'WRITING' } });
    expect(onEdit).toHaveBeenLastCalledWith({ type: 'retargetTransition', at: RESOLVING_WRITE, target: 'WRITING' });
    fireEvent.change(select('reasonCode'), { target: { value: 'WRITE_IN_FLIGHT' } });
    expect(onEdit).toHaveBeenLastCalledWith({
      type: 'setTransitionActions',
      at: RESOLVING_WRITE,
      actions: [{ type: 'block', params: { reasonCode: 'WRITE_IN_FLIGHT' } }, 'trackBlockedRecovery'],
    });
    fireEvent.change(select('add-action'), { target: { value: 'countVerifyBlock' } });
    expect(onEdit.mock.lastCall![0].actions.at(-1)).toBe('countVerifyBlock');
  });
});

describe('the invariant report', () => {
  const report: CheckReport = {
    configurations: 10,
    edges: 20,
    checks: 340,
    ms: 5,
    violations: [
      {
        id: 'I1',
        name: 'No write without a validated target',
        sentence: 'A write attempted in RESOLVING is blocked.',
        message: 'a write attempted in RESOLVING was allowed',
        config: '',
        edges: 2,
        steps: [
          {
            text: 'RESOLVING · begin write → allowed, stays RESOLVING',
            from: 'RESOLVING',
            to: 'RESOLVING',
            decision: 'allowed',
          },
        ],
      },
    ],
  };

  it('should list one entry per violated invariant with its counterexample steps, each playable', () => {
    const onPlay = vi.fn();
    render(
      <InvariantReport
        report={report}
        checking={false}
        error={undefined}
        playing={null}
        onPlay={onPlay}
        onStop={() => {}}
      />,
    );
    expect(screen.getAllByTestId('invariant-violation')).toHaveLength(1);
    expect(screen.getByTestId('check-status').textContent).toContain('1 invariant violated');
    fireEvent.click(screen.getByTestId('counterexample-step'));
    expect(onPlay).toHaveBeenCalledWith('I1', 0);
  });
});
