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
