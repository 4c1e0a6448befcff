import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSafetySession, restoreSafetySession, SafetyInputError, type RecordingEntry } from 'assistant-safety';
import { sessionCall } from '../compiled/executors.js';

/*
 * `session.can(call)` answers what `beginToolCall(call)` would, as a dry run: the machine's pure
 * step, with nothing begun, recorded, counted or changed. It is what the adapters ask before they
 * put an approval question to a person.
 */

const clock = () => 1_700_000_000_000;
const next = fc.record({
  id: fc.constantFrom('n1', 'n2'),
  kind: fc.constantFrom('resolve' as const, 'read' as const, 'write' as const, 'user_input' as const),
  tool: fc.constantFrom('find_vm', 'get_vm', 'restart_vm'),
  targets: fc.option(fc.subarray(['vm:1', 'vm:2'], { minLength: 1 }), { nil: undefined }),
});
const json = (e: { toJSON(): unknown } | null) => (e === null ? null : e.toJSON());

describe('a dry run of a call (session.can)', () => {
  it('should answer as beginToolCall would, and change nothing, in any session', () => {
    fc.assert(
      fc.property(
        fc.array(sessionCall, { maxLength: 30 }),
        fc.constantFrom('ignore' as const, 'bind' as const),
        next,
        (calls, targets, call) => {
          const entries: RecordingEntry[] = [];
          const session = createSafetySession({
            now: clock,
            targets,
            onWarning: () => {},
            recorder: { record: (e) => entries.push(e) },
          });
          for (const c of calls) {
            try {
              session.perform(c);
            } catch {
              // a call the session refuses (an id already in flight) changes nothing
            }
          }
          const fresh = call.targets === undefined ? { id: call.id, kind: call.kind, tool: call.tool } : call;
          if (session.inFlightWrite?.id === fresh.id || Object.hasOwn(session.context.calls, fresh.id)) return;
          const before = session.persist();
          const recorded = entries.length;
          const dry = session.can(fresh);
          expect(session.persist()).toEqual(before);
          expect(entries).toHaveLength(recorded);
          const copy = restoreSafetySession(before, { now: clock, onWarning: () => {} });
          expect(json(dry)).toEqual(json(copy.beginToolCall(fresh)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('should allow everything in shadow mode, as beginToolCall does', () => {
    const session = createSafetySession({ now: clock, mode: 'shadow', onWarning: () => {} });
    const write = { id: 'w', kind: 'write', tool: 'restart_vm' } as const;
    expect(createSafetySession({ now: clock, onWarning: () => {} }).can(write)?.reasonCode).toBe('NO_VALIDATED_TARGET');
    expect(session.can(write)).toBeNull();
  });

  it('should check the call as beginToolCall does, naming the method', () => {
    const session = createSafetySession({ now: clock });
    expect(() => session.can({ id: 'x', kind: 'delete' as never, tool: 't' })).toThrow(SafetyInputError);
    expect(() => session.can({ id: 'x', kind: 'delete' as never, tool: 't' })).toThrow(/^can: call\.kind/);
    session.beginToolCall({ id: 'r', kind: 'resolve', tool: 'find_vm' });
    expect(() => session.can({ id: 'r', kind: 'read', tool: 'get_vm' })).toThrow(
      /can: call\.id: call "r" is already in flight/,
    );
  });
});
