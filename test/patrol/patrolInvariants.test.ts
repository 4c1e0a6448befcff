import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkPatrolInvariants,
  createPatrolMachine,
  explorePatrolMachine,
  PATROL_INVARIANTS,
  patrolMachine,
} from 'assistant-safety/patrol';

const json = () => JSON.parse(readFileSync('machines/patrol.json', 'utf8')) as Definition;

interface Transition {
  target?: string;
  guard?: string;
  actions?: unknown[];
  description: string;
}
interface Definition {
  states: Record<string, { on?: Record<string, Transition[]> }>;
}

/** A copy of the machine JSON with one edit. */
function mutant(edit: (d: Definition) => void): Definition {
  const d = json();
  edit(d);
  return d;
}

const on = (d: Definition, state: string, event: string) => d.states[state]!.on![event]!;

/** The mutants: each one edit of machines/patrol.json that breaks a rule, and the invariant that must catch it. */
const MUTANTS: Array<{ name: string; caughtBy: string; edit: (d: Definition) => void }> = [
  {
    name: 'the evaluation pass accepts every report (budget guard dropped)',
    caughtBy: 'P2',
    edit: (d) => void delete on(d, 'evaluationPass', 'REPORT_REQUESTED')[0]!.guard,
  },
  {
    name: 'the budget opens one report wider than the signals (refusal transition turned into an acceptance)',
    caughtBy: 'P2',
    edit: (d) => void (on(d, 'evaluationPass', 'REPORT_REQUESTED')[1]!.actions = ['countEvaluationReport']),
  },
  {
    name: 'a scoped run reconciles (isFullRun guard dropped after the check)',
    caughtBy: 'P3',
    edit: (d) => void delete on(d, 'checkingAssessments', 'ASSESSMENTS_CHECKED')[1]!.guard,
  },
  {
    name: 'a scoped run reconciles after the sweep',
    caughtBy: 'P3',
    edit: (d) => void delete on(d, 'assessmentSweep', 'ASSESSMENTS_CHECKED')[1]!.guard,
  },
  {
    name: 'investigations are dispatched while recording',
    caughtBy: 'P1',
    edit: (d) =>
      void (d.states.recording!.on!.DISPATCH = [{ actions: ['dispatchInvestigation'], description: 'early' }]),
  },
  {
    name: 'dispatch comes before the record (record and dispatch states swapped)',
    caughtBy: 'P1',
    edit: (d) => {
      on(d, 'reconciling', 'RECONCILED')[0]!.target = 'dispatching';
      on(d, 'dispatching', 'DISPATCH_DONE')[0]!.target = 'recording';
      on(d, 'recording', 'RECORDED')[0]!.target = 'done';
    },
  },
  {
    name: 'a failed main pass ends the run without a record',
    caughtBy: 'P4',
    edit: (d) => void (on(d, 'mainPass', 'PHASE_FAILED')[0]!.target = 'done'),
  },
  {
    name: 'the record is written twice',
    caughtBy: 'P4',
    edit: (d) => void (d.states.dispatching!.on!.RECORDED = [{ actions: ['writeRecord'], description: 'again' }]),
  },
  {
    name: 'dispatching never ends (its way out dropped)',
    caughtBy: 'P4',
    edit: (d) => void delete d.states.dispatching!.on!.DISPATCH_DONE,
  },
];

describe('the Patrol invariants over the explored graph', () => {
  const graph = explorePatrolMachine(patrolMachine);

  it('should hold on the shipped machine', () => {
    expect(checkPatrolInvariants(graph)).toEqual([]);
    expect(graph.configurations.size).toBeGreaterThan(50);
  });

  it('should have a sentence for each of P1 to P4', () => {
    expect(PATROL_INVARIANTS.map((i) => [i.id, i.sentence.length > 20])).toEqual([
      ['P1', true],
      ['P2', true],
      ['P3', true],
      ['P4', true],
    ]);
  });

  it('should reach every state of the machine, the end included', () => {
    const states = new Set([...graph.configurations.values()].map((c) => c.projection.state));
    expect([...states].sort()).toEqual(Object.keys(json().states).sort());
  });
});

describe('mutants of machines/patrol.json', () => {
  it.each(MUTANTS)('should catch: $name ($caughtBy)', ({ edit, caughtBy }) => {
    const machine = createPatrolMachine(mutant(edit));
    const violations = checkPatrolInvariants(explorePatrolMachine(machine));
    expect(violations.map((v) => v.invariant)).toContain(caughtBy);
  });
});
