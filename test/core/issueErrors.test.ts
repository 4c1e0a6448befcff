import { describe, expect, it } from 'vitest';
import {
  createKindSession,
  formatPath,
  IssueError,
  KindSessionError,
  MachineDefinitionError,
  parseMachineDefinition,
  restoreSafetySession,
  safetyMachine,
  safetyMachineKind,
  SnapshotError,
} from 'assistant-safety';
import { refusal } from './refusal.js';

/*
 * A machine, a snapshot and an event of a kind are refused with one error type: `IssueError`, whose
 * `code` names the kind of input and whose `issues` each carry a path (keys and indexes, root first)
 * that the message names in one format.
 */

const refused = (run: () => unknown) => refusal(IssueError, run);

describe('the errors for refused input', () => {
  it('should be one type with a code, issues with array paths, and the paths in the message', () => {
    const cases: [IssueError, abstract new (...args: never[]) => IssueError, string][] = [
      [
        refused(() => parseMachineDefinition({ id: 'm', initial: 'NOWHERE', states: {} })),
        MachineDefinitionError,
        'INVALID_MACHINE',
      ],
      [
        refused(() =>
          restoreSafetySession({
            format: 'assistant-safety/session',
            version: 4,
            id: 's',
            state: 'READING',
            context: {},
            blockStreak: 0,
          }),
        ),
        SnapshotError,
        'INVALID_SNAPSHOT',
      ],
      [
        refused(() => createKindSession(safetyMachineKind, safetyMachine).send({ type: 'BEGIN_CALL' })),
        KindSessionError,
        'INVALID_KIND_INPUT',
      ],
    ];
    for (const [error, type, code] of cases) {
      expect(error).toBeInstanceOf(type);
      expect(error.code).toBe(code);
      expect(error.issues.length).toBeGreaterThan(0);
      for (const issue of error.issues) {
        expect(Array.isArray(issue.path)).toBe(true);
        expect(typeof issue.code).toBe('string');
      }
      const first = error.issues[0]!;
      expect(error.message).toContain(`${formatPath(first.path) || '(root)'}: ${first.message}`);
    }
  });
});
