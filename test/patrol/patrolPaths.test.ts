import { describe, expect, it } from 'vitest';
import {
  explorePatrolMachine,
  patrolMachine,
  patrolStatePaths,
  shortestPatrolPath,
  type ModelPass,
  type RunPatrolOptions,
} from 'assistant-safety/patrol';
import { createActor } from 'xstate';
import { report } from './fixtures.js';
import { cpuReport, mainPass, poolReport, run, storeWith } from './harness.js';

/*
 * Path tests generated from the graph: every path of states the Patrol
 * machine allows, from the start to the end of a run, must be one the runner
 * takes for some run, and the runner must never take a path the graph does
 * not have. The runs are a grid over what decides the path: run type, the
 * phase that fails (if any), whether a signal is left unmatched, whether a
 * seeded finding is left without a verdict, and whether the sweep gives one.
 */

const graph = explorePatrolMachine(patrolMachine);
const graphPaths = patrolStatePaths(graph).map((p) => p.join(' > '));

const PHASES = ['none', 'gating', 'triage', 'mainPass', 'detecting', 'evaluationPass', 'assessmentSweep'] as const;
const seededFinding = report({
  key: 'disk-high',
  category: 'capacity',
  resourceId: 'pool-z',
  resourceName: 'pool-z',
  title: 'Pool pool-z filling up',
});

function options(o: {
  runType: 'full' | 'scoped';
  fail: (typeof PHASES)[number];
  unmatched: boolean;
  seeded: boolean;
  sweep: boolean;
}) {
  const boom = () => {
    throw new Error(`${o.fail} failed`);
  };
  const main: ModelPass = o.fail === 'mainPass' ? boom : mainPass(o.unmatched ? [cpuReport] : [cpuReport, poolReport]);
  const sweep: ModelPass = async ({ request, tools }) => {
    if (o.fail === 'assessmentSweep') boom();
    if (o.sweep)
      for (const f of request.pending!)
        await tools.assessFinding({ findingId: f.id, verdict: 'uncertain', evidence: '', reason: '' });
  };
  const result: Partial<RunPatrolOptions> & { passes: RunPatrolOptions['passes'] } = {
    runType: o.runType,
    ...(o.runType === 'scoped' && { scope: { resourceIds: ['node1', 'pool-a', 'pool-z'] } }),
    ...(o.seeded && { store: storeWith(seededFinding) }),
    passes: { main, evaluation: o.fail === 'evaluationPass' ? boom : async () => undefined, assessment: sweep },
    ...(o.fail === 'gating' && { gates: () => 'closed' }),
    ...(o.fail === 'triage' && { triage: boom }),
    ...(o.fail === 'detecting' && { detectors: [boom] }),
  };
  return result;
}

describe('path tests generated from the Patrol graph', () => {
  it('should have the runner take exactly the state paths the graph has', async () => {
    const taken = new Map<string, string>();
    for (const runType of ['full', 'scoped'] as const)
      for (const fail of PHASES)
        for (const unmatched of [false, true])
          for (const seeded of [false, true])
            for (const sweep of [false, true]) {
              const o = { runType, fail, unmatched, seeded, sweep };
              const { steps, record } = await run(options(o));
              const path = ['idle', ...steps.map((s) => s.after.state)]
                .filter((s, i, all) => s !== all[i - 1])
                .join(' > ');
              if (!taken.has(path)) taken.set(path, JSON.stringify(o));
              expect(graphPaths, `runner path for ${JSON.stringify(o)}`).toContain(path);
              expect(steps.at(-1)!.after).toMatchObject({ state: 'done', records: 1 });
              if (runType === 'scoped') expect(record.phases).not.toContain('reconciling');
            }
    expect([...taken.keys()].sort()).toEqual(graphPaths);
  });

  it('should replay the shortest path to every end of the graph on a fresh actor, ending with one record', () => {
    const ends = [...graph.configurations.values()].filter((c) => graph.finalStates.includes(c.projection.state));
    expect(ends.length).toBeGreaterThan(5);
    for (const end of ends) {
      const actor = createActor(patrolMachine).start();
      for (const edge of shortestPatrolPath(graph, end.key)) actor.send(edge.event);
      const snapshot = actor.getSnapshot();
      expect(snapshot.value).toBe('done');
      expect(snapshot.context.records).toBe(1);
    }
  });
});
