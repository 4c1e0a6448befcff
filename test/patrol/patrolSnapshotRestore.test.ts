import { describe, expect, it } from 'vitest';
import { createKindSession, KindSessionError, restoreKindSession } from 'assistant-safety';
import { explorePatrolMachine, patrolMachine, patrolMachineKind } from 'assistant-safety/patrol';

/*
 * A Patrol session restored from a snapshot starts where the snapshot says. An edited snapshot must
 * not start a run in a configuration no run reaches: one that has dispatched an investigation with
 * no record written (P1), or filed more evaluation reports than there were unmatched signals (P2).
 */

const persisted = () => JSON.parse(JSON.stringify(createKindSession(patrolMachineKind, patrolMachine).persist()));

function refusal(snapshot: unknown): KindSessionError {
  try {
    restoreKindSession(patrolMachineKind, patrolMachine, snapshot);
  } catch (e) {
    return e as KindSessionError;
  }
  throw new Error('the snapshot was restored');
}

describe('restoring a Patrol snapshot', () => {
  it('should restore every configuration a run reaches', () => {
    const graph = explorePatrolMachine(patrolMachine);
    expect(graph.configurations.size).toBeGreaterThan(10);
    for (const c of graph.configurations.values()) {
      const snapshot = { ...persisted(), state: String(c.snapshot.value), context: c.snapshot.context };
      const restored = restoreKindSession(patrolMachineKind, patrolMachine, JSON.stringify(snapshot));
      expect(restored.state).toBe(snapshot.state);
    }
  });

  it('should refuse a dispatched investigation with no record written (P1), naming the field, from text and objects', () => {
    const snapshot = persisted();
    snapshot.context.dispatched = 1;
    for (const input of [snapshot, JSON.stringify(snapshot)]) {
      const e = refusal(input);
      expect(e).toBeInstanceOf(KindSessionError);
      expect(e.message).toMatch(/context\.dispatched: 1 investigations dispatched with no record written \(P1\)/);
      expect(e.issues.map((i) => i.path)).toEqual([['context', 'dispatched']]);
    }
  });

  it('should refuse more evaluation reports than unmatched signals (P2), naming the field', () => {
    const snapshot = persisted();
    snapshot.context.unmatched = 1;
    snapshot.context.evaluationReports = 2;
    const e = refusal(snapshot);
    expect(e.issues.map((i) => i.path)).toEqual([['context', 'evaluationReports']]);
    expect(e.message).toMatch(/2 evaluation reports for 1 unmatched signals \(P2\)/);
  });

  it('should refuse hostile input with its own error, never a raw one', () => {
    const getter = { ...persisted() };
    Object.defineProperty(getter, 'context', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const proxy = new Proxy(persisted(), {
      ownKeys() {
        throw new Error('no keys');
      },
    });
    for (const hostile of [getter, proxy, 'not json {']) {
      const e = refusal(hostile);
      expect(e).toBeInstanceOf(KindSessionError);
      expect(e.message).toMatch(/^invalid snapshot: not JSON/);
    }
  });
});
