/*
 * assistant-safety: the public API. Hand-picked named exports, one concept per
 * module; API.md lists the names outside code relies on.
 */

// kinds, states and codes
export { ToolKind, SessionState, BlockReasonCode, TOOL_KINDS, SESSION_STATES } from './toolKind.js';
export { FSMBlockedError, ErrCodeFSMBlocked, ErrCodeStrictResolution } from './FSMBlockedError.js';
export type { FSMBlockedEnvelope, FSMBlockedInit, RequiredEvidence } from './FSMBlockedError.js';

// the machine
export { safetyMachine, safetyMachineDefinition } from './safetyMachine.js';
export { createSafetyMachine, definitionOf } from './createSafetyMachine.js';
export type { SafetyMachine, SafetyMachineInput } from './createSafetyMachine.js';
export {
  MachineDefinition,
  MachineDefinitionError,
  parseMachineDefinition,
  safeParseMachineDefinition,
} from './MachineDefinition.js';
export type {
  MachineIssue,
  MachineDefinitionResult,
  TransitionDefinition,
  StateDefinition,
} from './MachineDefinition.js';
export { guardImplementations } from './guards.js';
export type { GuardName } from './guards.js';
export { actionImplementations } from './actions.js';
export type { ActionName } from './actions.js';
export { SafetyContext, PendingRecovery, InFlightCall, RECOVERY_TTL_MS, initialContext } from './SafetyContext.js';
export { SafetyEvent, SAFETY_EVENT_TYPES } from './SafetyEvent.js';

// sessions
export { createSafetySession, restoreSafetySession, SafetyInputError } from './SafetySession.js';
export type {
  SafetySession,
  SafetySessionOptions,
  ToolCallStart,
  ToolCallEnd,
  InFlightWrite,
  LoopBlock,
} from './SafetySession.js';
export { PersistedSession, SnapshotError, parsePersistedSession } from './PersistedSession.js';

// classification
export {
  createClassifier,
  classifyToolCall,
  ClassifierRules,
  ClassifierRulesError,
  GENERIC_READ_VERBS,
  GENERIC_WRITE_VERBS,
} from './classifier.js';
export type { ToolClassifier, ToolRule, ArgumentRule } from './classifier.js';
export { pulseClassifier, pulseRules } from './presets/pulse.js';

// recordings
export {
  RecordingEntry,
  RecordedCall,
  ContextSummary,
  Decision,
  LoopBlockCode,
  RecordedBlockCode,
} from './RecordingEntry.js';
export type { SessionRecorder } from './RecordingEntry.js';
export {
  parseRecording,
  parseRecordingLine,
  recordingLines,
  replayRecording,
  replayRecordingStream,
  createRecordingReplayer,
  applyCall,
  createMemoryRecorder,
  RecordingParseError,
} from './recording.js';
export type {
  Divergence,
  ReplayResult,
  ReplayOptions,
  MemoryRecorder,
  ParseRecordingOptions,
  RecordingLine,
  CallOutcome,
  RecordingReplayer,
  RecordingReplayerOptions,
  ReplayStreamOptions,
  ReplayStreamResult,
  RecordingChunk,
} from './recording.js';
export { createFileRecorder } from './fileRecorder.js';
export type { FileRecorder, FileRecorderOptions } from './fileRecorder.js';

// the visualiser: stream a session to `assistant-safety serve`, or run the server in-process
export { createLiveRecorder } from './live/createLiveRecorder.js';
export type { LiveRecorder, LiveRecorderOptions } from './live/createLiveRecorder.js';
export { startServer } from './server/startServer.js';
export type { ServerOptions, RunningServer } from './server/startServer.js';

// the tool loop harness: three-phase pipeline, stable error codes
export { createToolLoop } from './loop/createToolLoop.js';
export type { ToolLoop, FinalAnswerDecision } from './loop/createToolLoop.js';
export { ToolLoopOptions } from './loop/ToolLoopOptions.js';
export type { ClassifiedCall } from './loop/ToolLoopOptions.js';
export { ToolCall } from './loop/ToolCall.js';
export type { ToolOutcome, ToolOutcomeError } from './loop/ToolOutcome.js';
export { ToolLoopError } from './loop/ToolLoopError.js';
export type { ToolLoopIssue } from './loop/ToolLoopError.js';
export {
  ErrCodeBlocked,
  ErrCodeLookBeforeAsking,
  ErrCodeLoopDetected,
  ErrCodeToolError,
  ErrCodeToolTimeout,
  ErrCodeToolAborted,
  ErrCodeInvalidOptions,
  ErrCodeInvalidToolCall,
  ErrCodeInvalidClassification,
  ErrCodeBatchInProgress,
  TOOL_OUTCOME_CODES,
  TOOL_LOOP_ERROR_CODES,
  ERROR_CODE_MEANINGS,
} from './loop/errorCodes.js';
export type { ToolOutcomeCode, ToolLoopErrorCode } from './loop/errorCodes.js';
export { createLimiter } from './loop/createLimiter.js';
export type { Limiter } from './loop/createLimiter.js';
export { hasVerificationEvidence } from './loop/hasVerificationEvidence.js';

// model-based testing: invariants, the explored graph, paths, coverage, mutants
export { invariants, invariantById } from './mbt/invariants.js';
export type { Invariant } from './mbt/invariants.js';
export { decisionOf, stepOf } from './mbt/Step.js';
export type { Step, StepDecision, SafetySnapshotLike } from './mbt/Step.js';
export { exploreMachine, serializeConfiguration, shortestPathTo, EXPLORED_CONFIGS } from './mbt/exploreMachine.js';
export type { MachineGraph, GraphEdge, Configuration, ExploreOptions } from './mbt/exploreMachine.js';
export { checkInvariants, formatViolation } from './mbt/checkInvariants.js';
export type { CheckResult, Violation } from './mbt/checkInvariants.js';
export { CoverageTracker, resolveTransition, transitionsOf } from './mbt/coverage.js';
export type { Coverage, CoverageFigure, Resolution, TransitionInfo } from './mbt/coverage.js';
export { movesFrom, moveToEvent, moveLabel, applyMove } from './mbt/Move.js';
export type { Move, MoveResult } from './mbt/Move.js';
export { shortestPlans, simplePlans, generatePlans, planFromLabels } from './mbt/paths.js';
export type { PathPlan, PlanStep, StepExpectation, PathStrategy } from './mbt/paths.js';
export { runPlan } from './mbt/runPlan.js';
export type { PlanResult, ObservedStep } from './mbt/runPlan.js';
export { monitorWalk } from './mbt/monitorWalk.js';
export type { WalkCommand, WalkResult } from './mbt/monitorWalk.js';
export { generateMutants, tryMutant, runMutants } from './mbt/mutate.js';
export type { Mutant, MutantResult, MutationReport, MutationOperator } from './mbt/mutate.js';
export { EQUIVALENT_MUTANTS } from './mbt/equivalentMutants.js';

// exports and editing: the machine as Mermaid and SCXML; edits as data; safe, versioned saves
export { toMermaid } from './export/toMermaid.js';
export { toScxml, SCXML_ACTION_NAMESPACE } from './export/toScxml.js';
export { applyMachineEdit, MachineEdit, MachineEditError, TransitionRef } from './editor/MachineEdit.js';
export type { EditorDocument } from './editor/MachineEdit.js';
export {
  createEditHistory,
  commitEdit,
  undoEdit,
  redoEdit,
  canUndo,
  canRedo,
  HISTORY_LIMIT,
} from './editor/EditHistory.js';
export type { EditHistory } from './editor/EditHistory.js';
export { MachineLayout, NodePosition, emptyLayout } from './editor/MachineLayout.js';
export { lineDiff, diffChanges } from './editor/lineDiff.js';
export type { DiffLine } from './editor/lineDiff.js';
export {
  listMachineFiles,
  readMachineFile,
  saveMachineFile,
  contentVersion,
  writeFileAtomic,
  MachineFileError,
  MACHINE_NAME,
} from './editor/machineFiles.js';
export type { MachineFile, SaveMachineRequest, SaveMachineResult, SaveErrorCode } from './editor/machineFiles.js';
export { previewMachineSave } from './editor/previewMachineSave.js';
export {
  SaveMachineBody,
  MachineFileResponse,
  SavePreviewResponse,
  SaveMachineResponse,
  MachineApiError,
} from './editor/MachineFileApi.js';
