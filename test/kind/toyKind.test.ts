import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import {
  createKindSession,
  createMachineOfKind,
  KindSessionError,
  replayKindRecording,
  restoreKindSession,
  type KindRecordingEntry,
  defineMachineKind,
  indexMachine,
  MachineDefinitionError,
  parseMachineDefinition,
  safeParseMachineDefinition,
  safetyMachineKind,
  safetyMachineDefinition,
} from 'assistant-safety';
import {
  checkKindInvariants,
  CoverageTracker,
  exploreKind,
  generateMutants,
  kindPlans,
  runKindPlan,
  runMutants,
  type KindStep,
  type MachineKindTesting,
} from 'assistant-safety/testing';

/** A second, small kind of machine: a door that counts how often it opened and locks with a key. */
const DoorContext = z.object({ opened: z.number(), hasKey: z.boolean() });
type DoorContext = z.infer<typeof DoorContext>;
const DoorEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('OPEN') }),
  z.object({ type: z.literal('CLOSE') }),
  z.object({ type: z.literal('LOCK'), key: z.boolean() }),
]);
type DoorEvent = z.infer<typeof DoorEvent>;

const doorKind = defineMachineKind<DoorContext, DoorEvent, { hasKey?: boolean }>({
  name: 'door',
  context: DoorContext,
  events: DoorEvent,
  guards: { carriesKey: (_c, e) => e.type === 'LOCK' && e.key },
  actions: {
    countOpen: { run: (c) => ({ opened: c.opened + 1 }) },
    add: { params: z.object({ n: z.number() }), run: (c, _e, p: { n: number }) => ({ opened: c.opened + p.n }) },
  },
  initialContext: (input) => ({ opened: 0, hasKey: input?.hasKey ?? false }),
  recorded: (c) => ({ opened: c.opened }),
  snapshot: { version: 1, migrations: {} },
});

const door = {
  id: 'door',
  description: 'A door.',
  initial: 'CLOSED',
  guards: { carriesKey: { description: 'The lock event carries the key.' } },
  actions: { countOpen: { description: 'Count an opening.' }, add: { description: 'Add n openings.' } },
  states: {
    CLOSED: {
      description: 'Closed.',
      on: {
        OPEN: [{ target: 'OPEN', actions: ['countOpen', { type: 'add', params: { n: 10 } }], description: 'Open it.' }],
        LOCK: [{ guard: 'carriesKey', target: 'LOCKED', description: 'Lock it with the key.' }],
      },
    },
    OPEN: { description: 'Open.', on: { CLOSE: [{ target: 'CLOSED', description: 'Close it.' }] } },
    LOCKED: { description: 'Locked.' },
  },
};

describe('a second machine kind, with no change to the loader or the builder', () => {
  it('should read the event types from the schema', () => {
    expect(doorKind.eventTypes).toEqual(['OPEN', 'CLOSE', 'LOCK']);
  });

  it('should load a machine of the kind, and refuse names the kind does not have', () => {
    expect(safeParseMachineDefinition(door, doorKind).success).toBe(true);
    const bad = structuredClone(door) as typeof door & { states: { OPEN: { on: Record<string, unknown> } } };
    bad.states.OPEN.on['BEGIN_CALL'] = [{ guard: 'isWrite', description: 'a safety event and guard' }];
    const result = safeParseMachineDefinition(bad, doorKind);
    expect(result.success).toBe(false);
    const codes = !result.success ? result.error.issues.map((i) => i.code).sort() : [];
    expect(codes).toEqual(['unknown_event', 'unknown_guard']);
    // The safety machine is not a door, and the door is not a safety machine.
    expect(safeParseMachineDefinition(safetyMachineDefinition, doorKind).success).toBe(false);
    expect(safeParseMachineDefinition(door, safetyMachineKind).success).toBe(false);
    expect(() => createMachineOfKind(doorKind, bad)).toThrow(MachineDefinitionError);
  });

  it('should build and run it with the kind’s guards, actions (params included) and initial context', () => {
    const machine = createMachineOfKind(doorKind, door);
    const actor = createActor(machine, { input: { hasKey: true } }).start();
    actor.send({ type: 'LOCK', key: false });
    expect(actor.getSnapshot().value).toBe('CLOSED');
    actor.send({ type: 'OPEN' });
    expect(actor.getSnapshot().context).toEqual({ opened: 11, hasKey: true });
    actor.send({ type: 'CLOSE' });
    actor.send({ type: 'LOCK', key: true });
    expect(actor.getSnapshot().value).toBe('LOCKED');
    expect(doorKind.recorded(actor.getSnapshot().context as DoorContext)).toEqual({ opened: 11 });
  });

  it('should be explored and give paths to every state with XState’s own graph functions', () => {
    const machine = createMachineOfKind(doorKind, door);
    const paths = getShortestPaths(machine, {
      events: [{ type: 'OPEN' }, { type: 'CLOSE' }, { type: 'LOCK', key: true }, { type: 'LOCK', key: false }],
      // The count grows without end: states are told apart by their value alone.
      serializeState: (state) => String(state.value),
    });
    expect(new Set(paths.map((p) => String(p.state.value)))).toEqual(new Set(['CLOSED', 'OPEN', 'LOCKED']));
  });
});

/** The door's testing data: its event classes and its rules, as data for the generic walkers. */
type DoorStep = KindStep<DoorContext, DoorEvent>;
const doorEvents: DoorEvent[] = [
  { type: 'OPEN' },
  { type: 'CLOSE' },
  { type: 'LOCK', key: true },
  { type: 'LOCK', key: false },
];
const doorTesting: MachineKindTesting<DoorContext, DoorEvent, DoorEvent, { hasKey: boolean }, DoorStep> = {
  kind: doorKind,
  machineIds: ['door'],
  exploration: () => ({
    inputs: [{ hasKey: false }, { hasKey: true }],
    moves: () =>
      doorEvents.map((event) => ({ label: event.type === 'LOCK' ? `LOCK key=${event.key}` : event.type, event })),
    // The count grows without end: what tells configurations apart is whether the door ever opened.
    key: (s) => `${String(s.value)} ${s.context.opened > 0 ? 'opened' : 'new'} ${s.context.hasKey ? 'key' : ''}`,
  }),
  step: (s) => s,
  invariants: [
    {
      id: 'D1',
      name: 'locked with the key only',
      sentence: 'The door locks only on a LOCK event that carries the key, and only from CLOSED.',
      checkStep: ({ before, event, after }) =>
        after.value === 'LOCKED' &&
        before.value !== 'LOCKED' &&
        !(before.value === 'CLOSED' && event.type === 'LOCK' && event.key)
          ? `${event.type} in ${String(before.value)} locked the door`
          : null,
    },
    {
      id: 'D2',
      name: 'open and close',
      sentence: 'OPEN opens a closed door; CLOSE closes an open one; nothing else moves it.',
      checkStep: ({ before, event, after }) => {
        const expected =
          before.value === 'CLOSED' && event.type === 'OPEN'
            ? 'OPEN'
            : before.value === 'OPEN' && event.type === 'CLOSE'
              ? 'CLOSED'
              : after.value === 'LOCKED'
                ? 'LOCKED'
                : before.value;
        return after.value === expected
          ? null
          : `${event.type} in ${String(before.value)} went to ${String(after.value)}`;
      },
    },
    {
      id: 'D3',
      name: 'openings counted',
      sentence: 'Every opening adds 11 to the count (one, and ten more); nothing else changes it.',
      checkStep: ({ before, event, after }) => {
        const opens = before.value === 'CLOSED' && event.type === 'OPEN';
        const expected = before.context.opened + (opens ? 11 : 0);
        return after.context.opened === expected
          ? null
          : `${event.type} left the count at ${after.context.opened}, not ${expected}`;
      },
    },
    {
      id: 'D4',
      name: 'can lock',
      sentence: 'The door can be locked.',
      checkGraph: (graph) =>
        [...graph.configurations.values()].some((c) => c.state === 'LOCKED') ? [] : ['no configuration is LOCKED'],
    },
  ],
};

describe('the toy kind through the explorer, the invariant checker, the path generator and the mutants', () => {
  const def = parseMachineDefinition(door, doorKind);
  const machine = createMachineOfKind(doorKind, door);
  const graph = exploreKind(machine, doorTesting.exploration());

  it('should explore every configuration from every input, with the kind’s event classes', () => {
    expect([...graph.configurations.keys()].sort()).toEqual(
      [
        'CLOSED new ',
        'CLOSED new key',
        'CLOSED opened ',
        'CLOSED opened key',
        'LOCKED new ',
        'LOCKED new key',
        'LOCKED opened ',
        'LOCKED opened key',
        'OPEN opened ',
        'OPEN opened key',
      ].sort(),
    );
    expect(graph.initial).toEqual(['CLOSED new ', 'CLOSED new key']);
    expect(graph.finalStates).toEqual(['LOCKED']);
    expect(graph.edges.length).toBe(graph.configurations.size * doorEvents.length);
  });

  it('should hold the kind’s invariants, and report one a broken door breaks with a shortest path', () => {
    expect(checkKindInvariants(graph, doorTesting).violations).toEqual([]);
    const broken = structuredClone(door);
    delete (broken.states.CLOSED.on.LOCK[0] as { guard?: string }).guard;
    const violations = checkKindInvariants(
      exploreKind(createMachineOfKind(doorKind, broken), doorTesting.exploration()),
      doorTesting,
    ).violations;
    expect(violations.map((v) => v.invariant.id)).toEqual(['D1']);
    expect(violations[0]!.path.map((e) => e.label)).toEqual(['LOCK key=false']);
  });

  it('should generate path plans that run on fresh actors and cover every transition and guard outcome', () => {
    const plans = kindPlans(graph, doorKind);
    expect(plans.filter((p) => p.strategy === 'shortest')).toHaveLength(
      graph.configurations.size - graph.initial.length,
    );
    for (const plan of plans) expect(runKindPlan(machine, plan), plan.name).toEqual({ ok: true });
    const tracker = new CoverageTracker(def, doorKind);
    for (const plan of plans) {
      const actor = createActor(machine, { input: plan.input }).start();
      for (const step of plan.steps) {
        const before = actor.getSnapshot();
        actor.send(step.event);
        tracker.step(String(before.value), before.context, step.event, String(actor.getSnapshot().value));
      }
    }
    const coverage = tracker.report();
    expect([coverage.states.missing, coverage.transitions.missing, coverage.guardOutcomes.missing]).toEqual([
      [],
      [],
      [],
    ]);
    expect(coverage.transitions.total).toBe(indexMachine(def).transitions.length);
  });

  it('should kill every single-point mutant of the door with the kind’s invariants', () => {
    const mutants = generateMutants(def);
    expect(mutants.map((m) => m.id)).toContain('drop-guard CLOSED.LOCK[0] (carriesKey)');
    const report = runMutants(def, { testing: doorTesting });
    expect(report.results.filter((r) => r.status === 'survived').map((r) => r.mutant.id)).toEqual([]);
    expect(report.score).toBe(100);
    expect(report.results.find((r) => r.mutant.id === 'drop-guard CLOSED.LOCK[0] (carriesKey)')?.invariant).toBe('D1');
  });
});

describe('the toy kind through the session, the recorder and the replayer', () => {
  const machine = createMachineOfKind(doorKind, door);

  it('should run a session of the kind on both executors, record it, and replay it with no divergence', () => {
    for (const executor of ['compiled', 'xstate'] as const) {
      const entries: KindRecordingEntry[] = [];
      let t = 1000;
      const session = createKindSession<DoorContext, DoorEvent>(
        doorKind,
        machine,
        { hasKey: true },
        {
          id: 'front-door',
          now: () => t++,
          recorder: { record: (e) => entries.push(e) },
          executor,
        },
      );
      expect(session.send({ type: 'OPEN' }).actions.map((a) => a.type)).toEqual(['countOpen', 'add']);
      session.send({ type: 'CLOSE' });
      session.send({ type: 'LOCK', key: true });
      expect(session.state).toBe('LOCKED');
      expect(session.context).toEqual({ opened: 11, hasKey: true });
      expect(entries.map((e) => e.after)).toEqual(['CLOSED', 'OPEN', 'CLOSED', 'LOCKED']);
      expect(entries[1]!.context).toEqual({ opened: 11 }); // the kind's recorded projection
      const lines = entries.map((e) => JSON.parse(JSON.stringify(e)) as unknown);
      expect(replayKindRecording(doorKind, machine, lines).divergences).toEqual([]);
    }
  });

  it('should report where a changed machine decides differently, and name a bad entry', () => {
    const entries: KindRecordingEntry[] = [];
    const session = createKindSession<DoorContext, DoorEvent>(
      doorKind,
      machine,
      {},
      { id: 'd', recorder: { record: (e) => entries.push(e) } },
    );
    session.send({ type: 'LOCK', key: false }); // refused: no key
    const unguarded = structuredClone(door);
    delete (unguarded.states.CLOSED.on.LOCK[0] as { guard?: string }).guard;
    const broken = createMachineOfKind(doorKind, unguarded);
    const replay = replayKindRecording(doorKind, broken, [...entries, { v: 1, session: 'd', seq: 2 }]);
    expect(replay.divergences.map((d) => d.field)).toEqual(['after', 'error']);
    expect(String(replay.divergences[1]!.actual)).toMatch(/at|after/);
  });

  it('should persist and restore through the kind’s snapshot, and refuse a bad event or snapshot with the field named', () => {
    const session = createKindSession<DoorContext, DoorEvent>(doorKind, machine, { hasKey: true });
    session.send({ type: 'OPEN' });
    const again = restoreKindSession<DoorContext, DoorEvent>(
      doorKind,
      machine,
      JSON.parse(JSON.stringify(session.persist())),
    );
    expect(again.state).toBe('OPEN');
    expect(again.context).toEqual({ opened: 11, hasKey: true });
    expect(() => again.send({ type: 'LOCK' } as DoorEvent)).toThrow(KindSessionError);
    expect(() => again.send({ type: 'LOCK' } as DoorEvent)).toThrow(/key/);
    const bad = { ...session.persist(), context: { opened: 'eleven', hasKey: true } };
    expect(() => restoreKindSession(doorKind, machine, bad)).toThrow(/context\.opened/);
    expect(() => restoreKindSession(safetyMachineKind, machine, session.persist())).toThrow(/kind: expected "safety"/);
  });

  it('should refuse the compiled table by name for a machine changed with .provide(), and run it on XState', () => {
    const provided = machine.provide({});
    expect(() => createKindSession(doorKind, provided, {}, { executor: 'compiled' })).toThrow(
      /^options\.executor: "compiled" cannot run this machine: the machine was changed with \.provide\(\)/,
    );
    const session = createKindSession<DoorContext, DoorEvent>(doorKind, provided, {}, { executor: 'xstate' });
    expect(session.send({ type: 'OPEN' }).state.value).toBe('OPEN');
  });

  it('should run a machine changed with .provide() on XState by default and say why, once per machine', () => {
    const provided = machine.provide({});
    const warnings: string[] = [];
    const sessions = [0, 1].map(() =>
      createKindSession<DoorContext, DoorEvent>(doorKind, provided, {}, { onWarning: (m) => warnings.push(m) }),
    );
    // The suite also runs with XState as every session's default executor: nothing to say then.
    expect(warnings).toHaveLength(process.env['ASSISTANT_SAFETY_EXECUTOR'] === 'xstate' ? 0 : 1);
    if (warnings.length) expect(warnings[0]).toMatch(/changed with \.provide\(\).*runs on XState instead/);
    for (const session of sessions) expect(session.send({ type: 'OPEN' }).state.value).toBe('OPEN');
    expect(() => createKindSession(doorKind, provided, {}, { executor: 'fast' as never })).toThrow(
      /^options\.executor: expected "compiled" or "xstate", got "fast"/,
    );
  });
});
