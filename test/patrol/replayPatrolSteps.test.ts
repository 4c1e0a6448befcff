import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createPatrolMachine,
  PATROL_PHASES,
  patrolMachineDefinition,
  replayPatrolSteps,
} from 'assistant-safety/patrol';
import { runPatrolDemo } from '../../examples/patrolDemo.js';

describe('replaying a recorded Patrol run', () => {
  it('should replay the demo run on the shipped machine with no divergence', async () => {
    const { result } = await runPatrolDemo();
    const { final, divergences } = replayPatrolSteps(result.steps);
    expect(divergences).toEqual([]);
    expect(final).toMatchObject({ state: 'done', records: 1, evaluationReports: 1 });
  });

  it('should show where an edited machine takes the run another way', async () => {
    const { result } = await runPatrolDemo();
    const edited = JSON.parse(readFileSync('machines/patrol.json', 'utf8')) as {
      states: Record<string, { on: Record<string, Array<{ target?: string }>> }>;
    };
    edited.states.checkingAssessments!.on.ASSESSMENTS_CHECKED![1]!.target = 'recording';
    const { divergences } = replayPatrolSteps(result.steps, createPatrolMachine(edited));
    expect(divergences[0]).toMatchObject({
      event: 'ASSESSMENTS_CHECKED',
      recorded: { state: 'reconciling' },
      replayed: { state: 'recording' },
    });
  });

  it('should name as phases exactly the working states of the machine', () => {
    const states = Object.keys(patrolMachineDefinition.states).filter((s) => s !== 'idle' && s !== 'done');
    expect([...PATROL_PHASES].sort()).toEqual(states.sort());
  });
});
