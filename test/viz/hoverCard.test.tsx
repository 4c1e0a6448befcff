// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMachineDefinition, safetyMachineDefinition } from '../../src/index.js';
import { hoverDetails, hoverTargetOf } from '../../viz/components/HoverCard.js';
import { buildGraphModel } from '../../viz/model/graphModel.js';

afterEach(cleanup);

const model = buildGraphModel(parseMachineDefinition(safetyMachineDefinition));

describe('the details a diagram shows on hover', () => {
  it('should list what a compact state leaves out: its description and the transitions that stay in it', () => {
    const { container } = render(<div>{hoverDetails(model, { kind: 'state', id: 'VERIFYING' })}</div>);
    const text = container.textContent!;
    expect(text).toContain(model.definition.states.VERIFYING!.description);
    expect(text).toContain('Stays in this state on:');
    expect(text).toContain('CHECK_TOOL [isWrite] blocks UNVERIFIED_WRITE');
  });

  it('should say where a transition goes, when (its guard, described) and what it does', () => {
    const { container } = render(<div>{hoverDetails(model, { kind: 'transition', id: 'READING.BEGIN_CALL[3]' })}</div>);
    const text = container.textContent!;
    expect(text).toContain('READING → WRITING');
    expect(text).toContain(`when isWrite: ${model.definition.guards.isWrite!.description}`);
    expect(text).toContain('actions: validateUserNamedTargets, beginCall');
  });

  it('should find the state or transition under the pointer from the element hit', () => {
    document.body.innerHTML =
      '<svg><g data-state="READING"><text id="t">READING</text></g><g data-transition="x"><path id="p"/></g></svg>';
    expect(hoverTargetOf(document.getElementById('t'))).toEqual({ kind: 'state', id: 'READING' });
    expect(hoverTargetOf(document.getElementById('p'))).toEqual({ kind: 'transition', id: 'x' });
    expect(hoverTargetOf(document.body)).toBeUndefined();
  });
});
