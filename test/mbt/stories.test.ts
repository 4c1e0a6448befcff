import { describe, expect, it } from 'vitest';
import { exploreMachine } from 'assistant-safety/testing';
import { safetyMachine } from 'assistant-safety';
import { planFromLabels } from '../../src/testing/paths.js';
import { runPlan } from '../../src/testing/runPlan.js';

/*
 * The stories docs/behaviour.md tells, written as move labels, followed through the
 * graph (so they exist in it) and run against SafetySession like the generated paths.
 */

const graph = exploreMachine(safetyMachine);

const stories: Array<[string, string[], number, string]> = [
  [
    'a read run beside the write does not verify it',
    [
      'onToolSuccess resolve',
      'begin write',
      'begin read',
      'write ok',
      'read ok (began before the write)',
      'final answer',
    ],
    0,
    'VERIFYING, final answer refused (FINAL_ANSWER_UNVERIFIED)',
  ],
  [
    'a read begun after the write verifies it',
    [
      'onToolSuccess resolve',
      'begin write',
      'write ok',
      'begin read',
      'read ok',
      'complete verification',
      'begin write',
    ],
    0,
    'WRITING, write allowed',
  ],
  [
    'repeated attempts do not wear the gate down',
    ['target established', 'onToolSuccess write', 'check write', 'check write', 'check write', 'check write'],
    0,
    'VERIFYING, write refused (UNVERIFIED_WRITE)',
  ],
  [
    'a self-verified write needs no read',
    ['onToolSuccess read', 'begin write', 'write ok, self-verified', 'final answer'],
    0,
    'VERIFYING, final answer allowed',
  ],
  [
    'a failed write that may have partly landed must be verified',
    [
      'onToolSuccess read',
      'begin write',
      'begin read',
      'write fails',
      'read ok (began before the write)',
      'final answer',
    ],
    1,
    'VERIFYING, final answer refused (FINAL_ANSWER_UNVERIFIED) [failed writes need verification]',
  ],
  [
    'with binding, a read of t1 validates t1 only: a write to t1 and t2 is refused',
    ['begin read [t1]', 'read [t1] ok', 'begin write [t1, t2]'],
    2,
    'READING, write refused (TARGET_NOT_VALIDATED) [targets bound]',
  ],
  [
    'with binding, a read of another target leaves the write unverified',
    ['begin read [t1]', 'read [t1] ok', 'begin write [t1]', 'write [t1] ok', 'onToolSuccess read [t2]', 'final answer'],
    2,
    'VERIFYING, final answer refused (FINAL_ANSWER_UNVERIFIED) [targets bound]',
  ],
  [
    'with binding, a read of the written target begun after it verifies it',
    [
      'begin read [t1]',
      'read [t1] ok',
      'begin write [t1]',
      'write [t1] ok',
      'begin read [t1]',
      'read [t1] ok',
      'final answer',
    ],
    2,
    'VERIFYING, final answer allowed [targets bound]',
  ],
  [
    'with binding, a target seen only in an untrusted tool’s output does not validate',
    ['begin read [t2] (untrusted)', 'read [t2] (untrusted) ok', 'target established', 'begin write [t1, t2]'],
    2,
    'READING, write refused (TARGET_NOT_VALIDATED) [targets bound]',
  ],
  [
    'a person attests the verification a block asked for, and the final answer is allowed',
    ['target established', 'onToolSuccess write', 'final answer', 'attest verification', 'final answer'],
    0,
    'READING, final answer allowed',
  ],
  [
    'a state-only write in READING leaves the session READING, not written',
    ['target established', 'begin write (state-only)', 'write (state-only) ok'],
    0,
    'READING',
  ],
  [
    'under the detection profile a state-only write runs before any target is validated',
    ['begin write (state-only)', 'write (state-only) ok'],
    3,
    'RESOLVING [detection profile]',
  ],
  [
    'under the investigation profile a state-only write is refused',
    ['begin read', 'read ok', 'begin write (state-only)'],
    4,
    'READING, write refused (POLICY_DENIED) [investigation profile]',
  ],
  [
    'in shadow mode a write the gate would refuse runs, and must then be verified',
    ['begin write', 'write ok (ran ungated)', 'final answer'],
    5,
    'VERIFYING, final answer allowed (enforcement would refuse it: FINAL_ANSWER_UNVERIFIED) [shadow mode]',
  ],
];

describe('the stories of docs/behaviour.md as paths', () => {
  it.each(stories)('%s', (_title, labels, config, ending) => {
    const plan = planFromLabels(graph, labels, config);
    expect(plan.name.endsWith(`⇒ ${ending}`), plan.name).toBe(true);
    const result = runPlan(plan);
    expect(result.failure).toBeUndefined();
    console.log(plan.name);
  });

  it('should refuse a story with a move the graph does not have, naming it', () => {
    expect(() => planFromLabels(graph, ['begin write', 'write ok'])).toThrow(
      /"write ok" is not a move in RESOLVING recovering \(possible: .*begin resolve/,
    );
  });
});
