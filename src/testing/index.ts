/*
 * assistant-safety/testing: model-based testing of the safety machine: its
 * invariants, the explored graph, path plans, coverage and mutants.
 */

// model-based testing: invariants, the explored graph, paths, coverage, mutants
export { invariants, invariantById } from './invariants.js';
export type { Invariant } from './invariants.js';
export { decisionOf, stepOf } from './Step.js';
export type { Step, StepDecision, SafetySnapshotLike } from './Step.js';
export {
  exploreMachine,
  serializeConfiguration,
  shortestPathTo,
  stepsOfEdge,
  EXPLORED_CONFIGS,
} from './exploreMachine.js';
export type { MachineGraph, GraphEdge, Configuration, ExploreOptions } from './exploreMachine.js';
export { checkInvariants, formatViolation } from './checkInvariants.js';
export type { CheckResult, Violation } from './checkInvariants.js';
export { CoverageTracker, resolveTransition, transitionsOf } from './coverage.js';
export type { Coverage, CoverageFigure, Resolution, TransitionInfo } from './coverage.js';
export { movesFrom, moveToEvent, moveLabel, applyMove } from './Move.js';
export type { Move, MoveResult } from './Move.js';
export { shortestPlans, simplePlans, generatePlans, planFromLabels } from './paths.js';
export type { PathPlan, PlanStep, StepExpectation, PathStrategy } from './paths.js';
export { runPlan } from './runPlan.js';
export type { PlanResult, ObservedStep } from './runPlan.js';
export { monitorWalk } from './monitorWalk.js';
export type { WalkCommand, WalkResult } from './monitorWalk.js';
export { generateMutants, tryMutant, runMutants } from './mutate.js';
export type { Mutant, MutantResult, MutationReport, MutationOperator } from './mutate.js';
export type { MutantOptions } from './mutate.js';
export { EQUIVALENT_MUTANTS } from './equivalentMutants.js';

// any machine kind: the generic explorer, invariant checker, path generator (mutants above take `testing`)
export { exploreKind, kindPathTo } from './exploreKind.js';
export type {
  KindSnapshot,
  KindStep,
  KindMove,
  KindExploration,
  KindConfiguration,
  KindEdge,
  KindGraph,
  ExploreKindOptions,
} from './exploreKind.js';
export type { MachineKindTesting, AnyMachineKindTesting, KindInvariant } from './MachineKindTesting.js';
export { checkKindInvariants } from './checkKindInvariants.js';
export type { KindCheckResult, KindViolation } from './checkKindInvariants.js';
export { kindPlans, runKindPlan, coveringPaths, edgeCoverageItems } from './kindPaths.js';
export type { KindPathPlan, CoveringPath } from './kindPaths.js';
export { safetyKindTesting, asKindInvariants } from './safetyKindTesting.js';
export { safetyExploration } from './exploreMachine.js';

export { describeStep, configText, outcomeText, pathName } from './describeStep.js';
export { plansToMarkdown, plansToJson, plansToJUnit, expectText } from './formatPlans.js';
export type { PlanFigures } from './formatPlans.js';
export { formatFigure, outcomeId, guardOutcomeIds } from './coverage.js';
