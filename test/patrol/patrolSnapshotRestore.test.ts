import { describe, expect, it } from 'vitest';
import { createKindSession, KindSessionError, restoreKindSession } from 'assistant-safety';
import { explorePatrolMachine, patrolMachine, patrolMachineKind } from 'assistant-safety/patrol';

/*
 * A Patrol session restored from a snapshot starts where the snapshot says. An edited snapshot must
 * not start a run in a configuration no run reaches: one that has dispatched an investigation with
 * no record written or may dispatch before one (P1), filed or may file more evaluation reports than
 * there were unmatched signals (P2), a scoped run that reconciled (P3), or a record count other than
 * the run's place says (P4).
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

  it('should refuse a report budget above the unmatched signals (P2): the evaluation pass would file more reports', () => {
    const snapshot = { ...persisted(), state: 'evaluationPass' };
    snapshot.context = { ...snapshot.context, signals: 1, unmatched: 1, reportBudget: 100 };
    const e = refusal(snapshot);
    expect(e.issues.map((i) => i.path)).toEqual([['context', 'reportBudget']]);
    expect(e.message).toMatch(/a report budget of 100 for 1 unmatched signals \(P2\)/);
  });

  it('should refuse a run past its record with no record written (P1, P4): it could dispatch before one', () => {
    for (const state of ['dispatching', 'done']) {
      const e = refusal({ ...persisted(), state });
      expect(e.issues.map((i) => i.path)).toEqual([['context', 'records']]);
      expect(e.message).toMatch(new RegExp(`0 records in state ${state}, after the record: exactly 1 expected`));
    }
  });

  it('should refuse a record or a dispatch counted before the record is written', () => {
    const early = { ...persisted(), state: 'recording' };
    early.context = { ...early.context, records: 1, dispatched: 1 };
    expect(refusal(early).issues.map((i) => i.path)).toEqual([
      ['context', 'dispatched'],
      ['context', 'records'],
    ]);
  });

  it('should refuse a negative count, naming the field: a record count of -1 would reach dispatching with none', () => {
    const snapshot = { ...persisted(), state: 'recording' };
    snapshot.context = { ...snapshot.context, records: -1 };
    const e = refusal(snapshot);
    expect(e.issues.map((i) => i.path)).toEqual([['context', 'records']]);
  });

  it('should refuse a scoped run that reconciled stale findings (P3)', () => {
    const snapshot = { ...persisted(), state: 'recording' };
    snapshot.context = { ...snapshot.context, runType: 'scoped', reconciled: true };
    const e = refusal(snapshot);
    expect(e.issues.map((i) => i.path)).toEqual([['context', 'reconciled']]);
    expect(e.message).toMatch(/scoped run that reconciled stale findings \(P3\)/);
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
