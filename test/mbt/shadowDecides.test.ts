import { describe, expect, it } from 'vitest';
import { exploreMachine } from 'assistant-safety/testing';
import { createSafetySession, restoreSafetySession, safetyMachine } from 'assistant-safety';
import { applyMove } from '../../src/testing/Move.js';
import { shortestPlans, simplePlans } from '../../src/testing/paths.js';
import { sessionOptionsOf } from '../../src/testing/runPlan.js';

/*
 * Shadow mode decides as enforce mode: at every decision of every generated
 * shadow-mode path, an enforcing session restored from the shadow session's
 * snapshot refuses exactly what the shadow session reports as a would-be block
 * (and allows what it allows). The shadow session then lets the call run; the
 * next decision is compared from where that left it.
 */

const graph = exploreMachine(safetyMachine);
const plans = [...shortestPlans(graph), ...simplePlans(graph, 3)].filter((p) => p.config.mode === 'shadow');

describe('shadow mode decides as enforce mode', () => {
  it('should report, at every decision of every shadow path, the block an enforcing session makes from there', () => {
    let decisions = 0;
    let wouldBlock = 0;
    for (const plan of plans) {
      const shadow = createSafetySession({ id: 'shadow', now: () => 1_000, ...sessionOptionsOf(plan.config) });
      for (const { move, label } of plan.steps) {
        const enforce = restoreSafetySession(shadow.persist(), { mode: 'enforce', now: () => 1_000 });
        const enforced = applyMove(enforce, move);
        const shadowed = applyMove(shadow, move);
        if (enforced.blocked === undefined) continue;
        decisions++;
        expect(shadowed.blocked, `${plan.name}: ${label}`).toBeNull();
        expect(shadowed.wouldBlock, `${plan.name}: ${label}`).toBe(enforced.blocked?.reasonCode);
        if (shadowed.wouldBlock) wouldBlock++;
      }
    }
    console.log(`shadow mode: ${plans.length} paths, ${decisions} decisions, ${wouldBlock} would-be blocks`);
    expect(plans.length).toBeGreaterThan(0);
    expect(wouldBlock).toBeGreaterThan(0);
  });
});
