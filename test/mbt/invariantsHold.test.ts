import { describe, expect, it } from 'vitest';
import { checkInvariants, exploreMachine, invariants, transitionsOf } from 'assistant-safety/testing';
import {
  SAFETY_EVENT_TYPES,
  safetyMachine,
  TOOL_KINDS,
  safetyMachineDefinition,
  parseMachineDefinition,
} from 'assistant-safety';

const graph = exploreMachine(safetyMachine);

describe('the exhaustive invariant check of the shipped machine', () => {
  it('should hold every invariant on every edge of the reachable graph', () => {
    const result = checkInvariants(graph);
    console.log(
      `exhaustive check: ${result.configurations} configurations, ${result.edges} edges, ${result.invariants} invariants, ${result.checks} checks; explored in ${Math.round(graph.ms)} ms, checked in ${Math.round(result.ms)} ms`,
    );
    expect(result.violations.map((v) => `${v.invariant.id}: ${v.message}`)).toEqual([]);
    expect(result.checks).toBe(result.edges * invariants.length);
  });

  it('should send every event type and every tool kind', () => {
    const types = new Set(graph.edges.map((e) => e.event.type));
    expect([...types].sort()).toEqual([...SAFETY_EVENT_TYPES].sort());
    for (const type of ['CHECK_TOOL', 'BEGIN_CALL', 'TOOL_SUCCEEDED'] as const) {
      const kinds = new Set(
        graph.edges.flatMap((e) => (e.event.type === type && 'kind' in e.event && e.event.kind ? [e.event.kind] : [])),
      );
      expect([...kinds].sort(), type).toEqual([...TOOL_KINDS].sort());
    }
    // Ends of calls begun through the lifecycle API, of every kind, ok and failed, and self-verified writes.
    const ends = new Set(graph.edges.filter((e) => e.move.type === 'end').map((e) => e.label));
    for (const kind of ['resolve', 'read', 'write', 'user input'])
      for (const outcome of ['ok', 'fails']) expect(ends).toContain(`${kind} ${outcome}`);
    expect(ends).toContain('write ok, self-verified');
    expect(ends).toContain('read ok (began before the write)');
  });

  it('should reach every state, including WRITING and VERIFYING with calls that began before the write', () => {
    const keys = [...graph.configurations.keys()];
    for (const state of Object.keys(parseMachineDefinition(safetyMachineDefinition).states))
      expect(keys.some((k) => k.startsWith(`${state} `) || k === state)).toBe(true);
    expect(keys).toContain('VERIFYING wrote calls=read@stale');
    expect(keys).toContain('VERIFYING wrote blocks=1+');
  });

  it('should be complete: every edge of the graph leads to a configuration of the graph', () => {
    for (const edge of graph.edges) expect(graph.configurations.has(edge.to)).toBe(true);
    expect(transitionsOf(parseMachineDefinition(safetyMachineDefinition)).length).toBeGreaterThan(0);
  });
});
