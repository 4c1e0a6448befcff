import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  createKindSession,
  createMachineOfKind,
  defineMachineKind,
  initialContext,
  KindSessionError,
  parseMachineDefinitionOfKind,
  replayKindRecording,
  SafetyEvent,
  safetyMachine,
  safetyMachineKind,
  type KindRecordingEntry,
  type SafetyContext,
} from 'assistant-safety';
import {
  checkKindInvariants,
  exploreKind,
  generateMutants,
  kindPlans,
  runKindPlan,
  safetyExploration,
  safetyKindTesting,
  tryMutant,
  type KindInvariant,
  type KindStep,
} from 'assistant-safety/testing';
import { buildGraphModel } from '../../viz/model/graphModel.js';

/*
 * docs/adding-a-rule.md, as a test: a new rule is a guard (its implementation and its entry in the
 * JSON), an event (its schema case and the transitions that take it) and an invariant that says
 * what the rule guarantees. Everything below is this file and a copy of the machine JSON: the
 * explorer, the invariant checker, the path generator and runner, the mutants, the session, its
 * recorder and replayer and the app's model take the copied kind as they are.
 *
 * The rule: an agent may ask to hand its task to another agent (`CHECK_HANDOFF`). That is refused
 * while a write runs or is unverified, as a final answer is, and while any call is still running
 * (`hasCallInFlight`: its result would reach an agent that no longer has the task).
 */

// 1. The guard's implementation: a pure function of the context (and the event).
const hasCallInFlight = (context: SafetyContext) => Object.keys(context.calls).length > 0;

// 2. The event's schema case.
const CheckHandoff = z.object({ type: z.literal('CHECK_HANDOFF'), at: z.number() });
type CheckHandoff = z.infer<typeof CheckHandoff>;

// 3. The kind: the safety kind with both added.
const kind = defineMachineKind({
  ...safetyMachineKind,
  events: z.discriminatedUnion('type', [...SafetyEvent.def.options, CheckHandoff]),
  guards: { ...safetyMachineKind.guards, hasCallInFlight },
});

// 4. The JSON: the guard described and used first among a write's transitions; the event handled.
type Json = {
  guards: Record<string, { description: string }>;
  states: Record<string, { on?: Record<string, unknown[]> }>;
};
const json = JSON.parse(readFileSync('machines/assistant-safety.json', 'utf8')) as Json;
json.guards['hasCallInFlight'] = { description: 'A call of any kind is still running.' };
const block = (reasonCode: string) => ({ type: 'block', params: { reasonCode } });
for (const state of ['RESOLVING', 'READING'])
  json.states[state]!.on!['CHECK_HANDOFF'] = [
    { guard: 'hasCallInFlight', actions: [block('POLICY_DENIED')], description: 'No handoff while a call runs.' },
  ];
json.states['WRITING']!.on!['CHECK_HANDOFF'] = [
  { actions: [block('WRITE_IN_FLIGHT')], description: 'No handoff while a write runs.' },
];
json.states['VERIFYING']!.on!['CHECK_HANDOFF'] = [
  { actions: [block('UNVERIFIED_WRITE')], description: 'No handoff before the write is verified.' },
];

// 5. The invariants: what the rules guarantee, over every step the explorer takes.
type AnyStep = KindStep<SafetyContext, { type: string; kind?: string; targets?: string[] }>;
const blocked = ({ before, after }: AnyStep) => after.context.blockCount > before.context.blockCount;
const ruleInvariants: KindInvariant<AnyStep>[] = [
  {
    id: 'R1',
    name: 'no handoff while work is open',
    sentence:
      'A handoff is refused while a call runs or a write is unverified, allowed otherwise, and changes nothing but the block.',
    checkStep: (step) => {
      if (step.event.type !== 'CHECK_HANDOFF') return null;
      const { before, after } = step;
      const open =
        before.value === 'WRITING' || before.value === 'VERIFYING' || Object.keys(before.context.calls).length > 0;
      if (open !== blocked(step)) return `a handoff was ${open ? 'allowed' : 'refused'} in ${String(before.value)}`;
      return after.value === before.value ? null : 'a handoff changed the state';
    },
  },
];

// 6. How the explorer tries it: one more move in every configuration, from a session that binds targets.
const base = safetyExploration({ configs: [{ ...initialContext().config, targets: 'bind' }] });
const targets = ['vm:1', 'vm:2', 'vm:3', 'vm:4'];
const exploration = {
  ...base,
  moves: (snapshot: Parameters<typeof base.moves>[0]) =>
    [...base.moves(snapshot), { label: 'handoff', event: { type: 'CHECK_HANDOFF', at: 0 } }] as ReturnType<
      typeof base.moves
    >,
};
const safety = safetyKindTesting();
const testing = {
  ...safety,
  kind,
  exploration: () => exploration,
  step: (s: KindStep<SafetyContext, SafetyEvent>) => s,
  invariants: [
    ...safety.invariants.map((i) => ({ ...i, checkStep: (s: KindStep) => i.checkStep!(safety.step(s as never)) })),
    ...ruleInvariants,
  ],
};

const def = parseMachineDefinitionOfKind(json, kind);
const machine = createMachineOfKind(kind, json);
const graph = exploreKind(machine, exploration);

describe('adding a rule: a guard, an event and their invariants, to a copy of the kind', () => {
  it('should refuse the JSON until the kind has the guard and the event', () => {
    expect(() => parseMachineDefinitionOfKind(json, safetyMachineKind)).toThrow(/hasCallInFlight|CHECK_HANDOFF/);
  });

  it('should be explored with both outcomes of the new guard and the new event, and keep every invariant', () => {
    const handoffs = graph.edges.filter((e) => e.label === 'handoff');
    const states = (edges: typeof handoffs) => [...new Set(edges.map((e) => String(e.steps[0]!.before.value)))].sort();
    // Both outcomes of the new guard, in both states that test it.
    expect(states(handoffs.filter((e) => blocked(e.steps[0] as AnyStep)))).toEqual([
      'READING',
      'RESOLVING',
      'VERIFYING',
      'WRITING',
    ]);
    expect(states(handoffs.filter((e) => !blocked(e.steps[0] as AnyStep)))).toEqual(['READING', 'RESOLVING']);
    expect(checkKindInvariants(graph, testing).violations.map((v) => v.message)).toEqual([]);
  });

  it('should give path tests that take the new transitions and pass on fresh actors', () => {
    const plans = kindPlans(graph, kind).filter((p) =>
      p.steps.some((s) => (s.event as { type: string }).type === 'CHECK_HANDOFF'),
    );
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) expect(runKindPlan(machine, plan), plan.name).toEqual({ ok: true });
  });

  it('should have every mutant of the new transitions killed', () => {
    const mutants = generateMutants(def).filter((m) => m.id.includes('CHECK_HANDOFF'));
    expect(mutants.map((m) => m.id)).toContain('drop-guard READING.CHECK_HANDOFF[0] (hasCallInFlight)');
    const survivors = mutants
      .map((m) => tryMutant(m, { testing }))
      .filter((r) => r.status !== 'killed')
      .map((r) => `${r.mutant.id}: ${r.status}`);
    expect(survivors).toEqual([]);
  });

  it('should run in a session, be recorded and replay with no divergence, on both executors', () => {
    for (const executor of ['compiled', 'xstate'] as const) {
      const entries: KindRecordingEntry[] = [];
      const session = createKindSession<SafetyContext, SafetyEvent | CheckHandoff>(
        kind,
        machine,
        { config: { ...initialContext().config, targets: 'bind' } },
        { id: 'handoff', now: () => 1_000, recorder: { record: (e) => entries.push(e) }, executor },
      );
      const call = { id: 'r1', kind: 'read', tool: 'list_vms', targets } as const;
      session.send({ type: 'BEGIN_CALL', ...call, at: 0 } as SafetyEvent);
      session.send({ type: 'TOOL_SUCCEEDED', ...call, at: 1 } as SafetyEvent);
      expect(session.send({ type: 'CHECK_HANDOFF', at: 2 }).actions).toEqual([]);
      const one = { type: 'BEGIN_CALL', id: 'w2', kind: 'write', tool: 'restart_vm', targets: ['vm:1'], at: 4 };
      session.send(one as SafetyEvent);
      expect(session.state).toBe('WRITING');
      expect(session.send({ type: 'CHECK_HANDOFF', at: 5 }).actions.map((a) => a.type)).toEqual(['block']);
      expect(session.context.lastBlock?.reasonCode).toBe('WRITE_IN_FLIGHT');
      const lines = entries.map((e) => JSON.parse(JSON.stringify(e)) as unknown);
      expect(replayKindRecording(kind, machine, lines).divergences).toEqual([]);
    }
  });

  it('should not take the event where the kind lacks its schema case, at compile time and at run time', () => {
    const plain = createKindSession<SafetyContext, SafetyEvent>(safetyMachineKind, safetyMachine);
    // @ts-expect-error the event is not a SafetyEvent: a case missing from the union fails type-checking
    expect(() => plain.send({ type: 'CHECK_HANDOFF', at: 0 })).toThrow(KindSessionError);
  });

  it('should be drawn by the app with the new transitions and the guard', () => {
    const model = buildGraphModel(def);
    const added = [...model.transitions.values()].filter((t) => t.event === 'CHECK_HANDOFF');
    expect(added.map((t) => [t.source, t.event, t.guard ?? null, t.blocks])).toEqual([
      ['RESOLVING', 'CHECK_HANDOFF', 'hasCallInFlight', 'POLICY_DENIED'],
      ['READING', 'CHECK_HANDOFF', 'hasCallInFlight', 'POLICY_DENIED'],
      ['WRITING', 'CHECK_HANDOFF', null, 'WRITE_IN_FLIGHT'],
      ['VERIFYING', 'CHECK_HANDOFF', null, 'UNVERIFIED_WRITE'],
    ]);
  });
});
