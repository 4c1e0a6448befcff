import { describe, expect, it } from 'vitest';
import { getNextSnapshot } from 'xstate';
import {
  checkInvariants,
  exploreMachine,
  invariants,
  moveLabel,
  movesFrom,
  moveToEvent,
  serializeConfiguration,
  stepsOfEdge,
  transitionsOf,
  type SafetySnapshotLike,
} from 'assistant-safety/testing';
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
  });

  it('should put every edge of the graph to every invariant, and report an edge that breaks one', () => {
    // Each invariant, wrapped: which edges (by their event object, one per edge) it was actually asked about.
    const asked = new Map<string, Set<unknown>>();
    const watched = invariants.map((inv) => ({
      ...inv,
      check: (step: Parameters<typeof inv.check>[0]) => {
        let seen = asked.get(inv.id);
        if (!seen) asked.set(inv.id, (seen = new Set()));
        seen.add(step.event);
        return inv.check(step);
      },
    }));
    expect(checkInvariants(graph, watched).violations).toEqual([]);
    // A call run ungated in shadow mode is two machine steps (the block, then RUN_UNGATED), each asked about.
    const steps = graph.edges.length + graph.edges.filter((e) => e.ungated).length;
    for (const inv of invariants) expect(asked.get(inv.id)?.size, inv.id).toBe(steps);
    // A rule broken on exactly the last edges of the graph (the furthest from the start) is reported, with a
    // shortest path that ends on one of them, and the count of edges that break it.
    const lastFrom = graph.edges.at(-1)!.from;
    const broken = graph.edges.filter((e) => e.from === lastFrom);
    const sentinel = {
      id: 'SENTINEL',
      name: 'sentinel',
      sentence: 'Never leave the last configuration explored.',
      check: (step: Parameters<(typeof invariants)[number]['check']>[0]) =>
        broken.some((e) => e.event === step.event) ? 'left the last configuration' : null,
    };
    const result = checkInvariants(graph, [...invariants, sentinel]);
    expect(result.violations.map((v) => v.invariant.id)).toEqual(['SENTINEL']);
    const [violation] = result.violations;
    expect(violation!.edges).toBe(broken.length);
    expect(broken).toContain(violation!.path.at(-1));
    expect(violation!.path[0]!.from).toSatisfy((k: string) => graph.initial.includes(k));
    for (let i = 1; i < violation!.path.length; i++) expect(violation!.path[i]!.from).toBe(violation!.path[i - 1]!.to);
  });

  it('should send every event type and every tool kind', () => {
    const types = new Set(graph.edges.flatMap((e) => stepsOfEdge(e).map((s) => s.event.type)));
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
    // Targets, state-only writes, untrusted tools, revealed targets, calls run ungated.
    for (const label of [
      'write [t1, t2] ok',
      'read [t1] ok (began before the write)',
      'read [t2] (untrusted) ok',
      'resolve ok, reveals t2',
      'write (state-only) ok',
      'write ok (ran ungated)',
    ])
      expect(ends).toContain(label);
    const labels = new Set(graph.edges.map((e) => e.label));
    for (const label of ['attest target', 'attest target [t2]', 'attest verification', 'target established [t2]'])
      expect(labels).toContain(label);
  });

  it('should reach every state, including WRITING and VERIFYING with calls that began before the write', () => {
    const keys = [...graph.configurations.keys()];
    for (const state of Object.keys(parseMachineDefinition(safetyMachineDefinition).states))
      expect(keys.some((k) => k.startsWith(`${state} `) || k === state)).toBe(true);
    expect(keys).toContain('VERIFYING wrote calls=read@stale');
    expect(keys).toContain('VERIFYING wrote blocks=1+');
    // The abstract domain of targets: two targets and none; a write to both partly covered.
    expect(keys).toContain('VERIFYING wrote validated=t1,t2 uncovered=t2 [targets bound]');
    expect(keys).toContain('READING calls=write(state-only)@now');
    expect(keys.some((k) => k.includes('ungated=write@now') && k.endsWith('[shadow]'))).toBe(true);
  });

  it('should be complete: from every configuration, every move is an edge, and each edge is what the machine does', () => {
    expect(transitionsOf(parseMachineDefinition(safetyMachineDefinition)).length).toBeGreaterThan(0);
    const wrong: string[] = [];
    for (const [key, configuration] of graph.configurations) {
      // Recomputed here, not read from the exploration: the moves worth trying from this snapshot.
      const context = configuration.snapshot.context;
      const expected = movesFrom(context)
        .filter((m) => moveToEvent(m, context, 0) !== undefined)
        .map(moveLabel)
        .sort()
        .join(' | ');
      const edges = (graph.outgoing.get(key) ?? []).map((i) => graph.edges[i]!);
      const labels = edges
        .map((e) => e.label)
        .sort()
        .join(' | ');
      if (labels !== expected) wrong.push(`${key}: edges ${labels}, moves ${expected}`);
      for (const edge of edges) {
        // The machine itself, stepped from the edge's snapshot, lands in the edge's configuration
        // (a call run ungated in shadow mode: the block, then RUN_UNGATED).
        let next = getNextSnapshot(safetyMachine, edge.before as never, edge.event) as unknown as SafetySnapshotLike;
        if (edge.ungated) {
          expect(next.context).toEqual(edge.ungated.mid.context);
          next = getNextSnapshot(safetyMachine, next as never, edge.ungated.event) as unknown as SafetySnapshotLike;
        }
        const to = serializeConfiguration(next);
        if (to !== edge.to || !graph.configurations.has(to))
          wrong.push(`${key} --${edge.label}--> ${to}, not ${edge.to}`);
      }
    }
    expect(wrong.length, wrong.slice(0, 3).join('\n')).toBe(0);
  });
});
