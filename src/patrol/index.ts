/*
 * assistant-safety/patrol: scheduled analysis runs whose findings are
 * reconciled with deterministic signals, as a second statechart
 * (`machines/patrol.json`). Signals and their detectors, matching, findings
 * and their store, when a finding may be investigated, the run machine as a
 * machine kind, its runner, its invariants. Runtime-neutral, like the core.
 */

// signals
export { Signal, SignalThresholds, ToolCallRecord, Severity, SEVERITIES } from './Signal.js';
export type { Detector, DetectorContext } from './Signal.js';
export {
  PatrolThresholds,
  AlertThresholds,
  DEFAULT_SIGNAL_THRESHOLDS,
  DEFAULT_PATROL_THRESHOLDS,
  DEFAULT_ALERT_THRESHOLDS,
  clampThreshold,
  patrolThresholdsFromAlerts,
  signalThresholdsFromPatrol,
} from './patrolThresholds.js';
export type { ThresholdModeOptions } from './patrolThresholds.js';
export { detectSignals, dedupeSignals } from './detectSignals.js';
export {
  pulseDetectors,
  pulseStorageDetector,
  pulseMetricsDetector,
  truncateEvidence,
  EVIDENCE_MAX,
} from './pulseDetectors.js';
export { parseToolOutput, inputField, parseToolTime } from './toolOutput.js';
export {
  GuestIntel,
  TriageFlag,
  reachabilitySignals,
  decisionFloorFlags,
  triageFlagsToSignals,
  DECISION_FLOOR_CATEGORIES,
  DECISION_FLOOR_MAX,
} from './floorSignals.js';
export { unmatchedSignals } from './unmatchedSignals.js';
export type { MatchableFinding } from './unmatchedSignals.js';

// findings
export {
  Finding,
  FindingReport,
  FindingCategory,
  FINDING_CATEGORIES,
  InvestigationStatus,
  InvestigationOutcome,
  INVESTIGATION_STATUSES,
  INVESTIGATION_OUTCOMES,
  DismissReason,
  DISMISS_REASONS,
  LoopState,
  LOOP_STATES,
  LifecycleEvent,
  LifecycleEventType,
  LIFECYCLE_EVENT_TYPES,
  LIFECYCLE_MAX,
  isActiveFinding,
  deriveLoopState,
  isAllowedLoopTransition,
} from './Finding.js';
export { generateFindingId, normalizeFindingKey, FINDING_KEY_ALIASES } from './findingId.js';
export { sha256Hex } from './sha256.js';
export {
  FindingStore,
  SuppressionRule,
  EMPTY_FINDING_STORE,
  reduceFindings,
  semanticSimilarity,
  REMIND_AFTER_MS,
  RESOLVED_RETENTION_MS,
  DISMISSED_RETENTION_MS,
  MERGE_SIMILARITY,
} from './findingStore.js';
export type { FindingAction, FindingStoreResult, SimilarityInput } from './findingStore.js';
export { shouldInvestigate, investigationCooldownMs, MAX_INVESTIGATION_ATTEMPTS } from './shouldInvestigate.js';
export type { InvestigationCandidate } from './shouldInvestigate.js';
export { staleFindingPlan, VERIFIER_KEYS, MAX_VERIFICATIONS_PER_RUN, STALE_REASONS } from './staleFindings.js';
export type { StalePlan } from './staleFindings.js';

// the passes and the record
export {
  PATROL_TOOLS,
  RUNTIME_FINDING_ID,
  triageMaxTurns,
  patrolMaxTurns,
  sweepMaxTurns,
  detectionToolsForResourceTypes,
  mainPassRequest,
  evaluationPassRequest,
  assessmentSweepRequest,
  missingAssessments,
  sweepEvidence,
} from './passes.js';
export type { PassName, PassRequest } from './passes.js';
export {
  PatrolRunRecord,
  RunType,
  RunStatus,
  RunError,
  PatrolPhase,
  PATROL_PHASES,
  RECORD_TOOL_CALLS_MAX,
  RECORD_INPUT_MAX,
  RECORD_OUTPUT_MAX,
  runStatus,
  recordedToolCall,
  PATROL_METRICS,
  patrolMetricPoints,
} from './PatrolRunRecord.js';
export type { PatrolMetricPoint } from './PatrolRunRecord.js';

// the run machine
export {
  patrolMachineKind,
  PatrolContext,
  PatrolEvent,
  PatrolProjection,
  PATROL_EVENT_TYPES,
  initialPatrolContext,
  patrolGuards,
  patrolActions,
  projectPatrolSnapshot,
} from './patrolMachineKind.js';
export type { PatrolSnapshotLike } from './patrolMachineKind.js';
export { createPatrolMachine, parsePatrolMachineDefinition, patrolDefinitionOf } from './createPatrolMachine.js';
export type { PatrolMachine } from './createPatrolMachine.js';
export { patrolMachine, patrolMachineDefinition } from './patrolMachine.js';
export { runPatrol } from './runPatrol.js';
export type {
  RunPatrolOptions,
  PatrolRunResult,
  PatrolInventoryTool,
  PatrolTools,
  PatrolToolResult,
  PatrolPassInput,
  ModelPass,
  ReportAnswer,
  Assessment,
  PatrolStep,
} from './runPatrolTypes.js';

// checking the machine
export {
  explorePatrolMachine,
  shortestPatrolPath,
  patrolStatePaths,
  patrolConfigurationKey,
  PATROL_EXPLORATION_EVENTS,
  patrolExploration,
} from './explorePatrolMachine.js';
export { patrolKindTesting } from './patrolKindTesting.js';
export type { PatrolGraph, PatrolConfiguration, PatrolEdge } from './explorePatrolMachine.js';
export { PATROL_INVARIANTS, checkPatrolInvariants } from './patrolInvariants.js';
export { PATROL_PROTOCOL_INVARIANTS } from './patrolProtocolInvariants.js';
export { replayPatrolSteps } from './replayPatrolSteps.js';
export {
  PatrolRecordingLine,
  RecordedFinding,
  PATROL_RECORDING_VERSION,
  patrolRecordingText,
  parsePatrolRecording,
  isPatrolRecordingText,
} from './PatrolRecording.js';
export type { PatrolRecording, PatrolRecordedStep } from './PatrolRecording.js';
export type { PatrolDivergence } from './replayPatrolSteps.js';
export type { PatrolInvariant, PatrolViolation } from './patrolInvariants.js';
