import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import {
  createMachineOfKind,
  defineMachineKind,
  MachineDefinitionError,
  safeParseMachineDefinition,
  safetyMachineKind,
  safetyMachineDefinition,
} from 'assistant-safety';

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
