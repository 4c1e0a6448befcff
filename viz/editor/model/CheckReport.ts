import type { MachineDefinition } from 'assistant-safety';
import type { CheckResult } from 'assistant-safety/testing';
import { configText, describeStep } from 'assistant-safety/testing';
import type { SafetyContext } from 'assistant-safety';
import { transitionTaken } from '../../model/transitionTaken.js';

/*
 * The exhaustive invariant check of an edited machine as plain data (it
 * crosses from the web worker to the page by structured clone): each
 * violated invariant with its shortest counterexample, each step with the
 * state it starts in and ends in and the transition it took, so the diagram
 * can play it.
 */

/** One step of a counterexample. */
export interface CounterexampleStep {
  /** The step as a sentence: `RESOLVING · begin write → allowed, now WRITING`. */
  text: string;
  from: string;
  to: string;
  /** The diagram id of the transition taken (`RESOLVING.BEGIN_CALL[0]`), if one was. */
  transition?: string;
  decision: 'allowed' | 'blocked' | null;
  reasonCode?: string;
}

interface ViolationReport {
  id: string;
  name: string;
  sentence: string;
  /** What went wrong on the last step. */
  message: string;
  /** The session settings the counterexample starts from, in words ('' for the defaults). */
  config: string;
  steps: CounterexampleStep[];
  /** How many edges of the graph break it. */
  edges: number;
}

export interface CheckReport {
  configurations: number;
  edges: number;
  checks: number;
  violations: ViolationReport[];
  ms: number;
}

/**
 * Turns a check result into a report the page can show and play.
 *
 * @example
 * const report = toCheckReport(definition, checkInvariants(exploreMachine(createSafetyMachine(definition))));
 * report.violations[0]?.steps.map((s) => s.text);
 */
export function toCheckReport(definition: MachineDefinition, result: CheckResult, ms = result.ms): CheckReport {
  return {
    configurations: result.configurations,
    edges: result.edges,
    checks: result.checks,
    ms,
    violations: result.violations.map((v) => ({
      id: v.invariant.id,
      name: v.invariant.name,
      sentence: v.invariant.sentence,
      message: v.message,
      config: configText(v.config).trim(),
      edges: v.edges,
      steps: v.path.map((edge) => {
        const from = String(edge.before.value);
        const transition = transitionTaken(definition, from, edge.before.context as SafetyContext, edge.event);
        return {
          text: describeStep(edge),
          from,
          to: String(edge.after.value),
          ...(transition !== undefined && { transition }),
          decision: edge.decision,
          ...(edge.reasonCode !== undefined && { reasonCode: edge.reasonCode }),
        };
      }),
    })),
  };
}
