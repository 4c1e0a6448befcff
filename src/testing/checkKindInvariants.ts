import { kindPathTo, type KindEdge, type KindGraph } from './exploreKind.js';
import type { AnyMachineKindTesting, KindInvariant } from './MachineKindTesting.js';

/** A broken invariant of a kind, with a shortest path to an edge that breaks it (empty for a graph-wide rule). */
export interface KindViolation {
  invariant: KindInvariant<unknown, unknown>;
  message: string;
  path: KindEdge<unknown, { type: string }, unknown>[];
  /** How many edges (or, for a graph-wide rule, how many findings) break it. */
  count: number;
}

/** What {@link checkKindInvariants} found. */
export interface KindCheckResult {
  configurations: number;
  edges: number;
  invariants: number;
  /** Edge × step-invariant checks made, plus one a graph-wide rule. */
  checks: number;
  violations: KindViolation[];
  ms: number;
}

/**
 * Checks a kind's invariants over an explored graph: each step rule on every edge (keeping for
 * each broken rule a shortest counterexample: edges are in breadth-first order), then each
 * graph-wide rule once.
 *
 * @example
 * const result = checkKindInvariants(exploreKind(machine, testing.exploration()), testing);
 * result.violations.map((v) => v.invariant.id); // []
 */
export function checkKindInvariants(
  graph: KindGraph<unknown, { type: string }, unknown, unknown>,
  testing: Pick<AnyMachineKindTesting, 'step' | 'invariants'>,
  invariants: readonly KindInvariant<unknown, unknown>[] = testing.invariants,
): KindCheckResult {
  const started = performance.now();
  const found = new Map<string, KindViolation>();
  let checks = 0;
  const stepRules = invariants.filter((i) => i.checkStep);
  for (const edge of graph.edges) {
    const steps = edge.steps.map((s) => testing.step(s));
    for (const invariant of stepRules) {
      checks++;
      let message: string | null = null;
      for (const step of steps) if (message === null) message = invariant.checkStep!(step);
      if (message === null) continue;
      const known = found.get(invariant.id);
      if (known) known.count++;
      else found.set(invariant.id, { invariant, message, path: [...kindPathTo(graph, edge.from), edge], count: 1 });
    }
  }
  for (const invariant of invariants) {
    if (!invariant.checkGraph) continue;
    checks++;
    const messages = invariant.checkGraph(graph);
    if (messages.length === 0 || found.has(invariant.id)) continue;
    found.set(invariant.id, { invariant, message: messages.join('; '), path: [], count: messages.length });
  }
  return {
    configurations: graph.configurations.size,
    edges: graph.edges.length,
    invariants: invariants.length,
    checks,
    violations: invariants.flatMap((i) => found.get(i.id) ?? []),
    ms: performance.now() - started,
  };
}
