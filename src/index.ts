/*
 * assistant-safety: the runtime-neutral core. Hand-picked named exports, one
 * concept per module. Nothing here imports a `node:` module or `ws` (a test
 * checks): the same code runs in Node, browsers, workers and edge runtimes.
 * Everything tied to a runtime or an audience lives under a subpath
 * (docs/packages.md lists them).
 */

// kinds, states and codes
export { issuesOf, formatIssues, formatPath, IssueError } from './core/Issue.js';
export type { Issue } from './core/Issue.js';
export { ToolKind, SessionState, BlockReasonCode, TOOL_KINDS, SESSION_STATES } from './safety/toolKind.js';
export { BLOCK_REASONS } from './safety/blockReasons.js';
export type { BlockReason, BlockEvidence } from './safety/blockReasons.js';
export { FSMBlockedError, ErrCodeFSMBlocked, ErrCodeStrictResolution } from './safety/FSMBlockedError.js';
export type { FSMBlockedEnvelope, FSMBlockedInit, RequiredEvidence } from './safety/FSMBlockedError.js';

// the machine
export { safetyMachine, safetyMachineDefinition } from './safety/safetyMachine.js';
export { createSafetyMachine, definitionOf } from './safety/createSafetyMachine.js';
export { createMachineOfKind } from './core/createMachineOfKind.js';
export { defineMachineKind, draftAction } from './core/MachineKind.js';
export type {
  MachineKind,
  AnyMachineKind,
  MachineKindInit,
  KindGuard,
  KindParamGuard,
  KindAction,
} from './core/MachineKind.js';
export { safetyMachineKind } from './safety/safetyMachineKind.js';
export { compileMachine } from './core/compileMachine.js';
export type { CompiledMachine, CompiledTransition, CompiledAction, CompiledStep } from './core/compileMachine.js';
export type { Executor, MachineStep, MachineState, NamedAction } from './core/MachineRunner.js';
export {
  createKindSession,
  restoreKindSession,
  replayKindRecording,
  KindSessionError,
  KindSnapshot,
  KindRecordingEntry,
} from './core/KindSession.js';
export type { KindSession, KindSessionOptions, KindDivergence } from './core/KindSession.js';
export type { SafetyMachine, SafetyMachineInput } from './safety/createSafetyMachine.js';
export {
  MachineDefinition,
  NamedRef,
  MachineDefinitionError,
  parseMachineDefinitionOfKind,
  safeParseMachineDefinitionOfKind,
} from './core/MachineDefinition.js';
export { parseMachineDefinition, safeParseMachineDefinition } from './safety/safetyMachineDefinition.js';
export type {
  MachineIssue,
  MachineDefinitionResult,
  TransitionDefinition,
  StateDefinition,
} from './core/MachineDefinition.js';
export { indexMachine, refName, refParams, transitionId, parseTransitionId, ANY_STATE } from './core/MachineIndex.js';
export type { MachineIndex, IndexedTransition, TransitionAddress } from './core/MachineIndex.js';
export { guardImplementations } from './safety/guards.js';
export type { GuardName } from './safety/guards.js';
export { actionImplementations } from './safety/actions.js';
export type { ActionName } from './safety/actions.js';
export {
  SafetyContext,
  PendingRecovery,
  InFlightCall,
  RECOVERY_TTL_MS,
  MAX_VALIDATED_TARGETS,
  APPROVAL_TTL_MS,
  TargetProvenance,
  EditedFile,
  EXECUTION_PROFILES,
  MAX_EDITED_FILES,
  initialContext,
} from './safety/SafetyContext.js';
export { callDigest, normaliseWords, userWordsFor, MIN_USER_VALUE_LENGTH } from './safety/userWords.js';
export { SafetyEvent, SAFETY_EVENT_TYPES } from './safety/SafetyEvent.js';
export { eventOfCall } from './safety/eventOfCall.js';

// sessions
export { createSafetySession, restoreSafetySession, SafetyInputError } from './safety/SafetySession.js';
export type {
  SafetySession,
  SafetySessionOptions,
  TargetMode,
  GateMode,
  ExecutionProfile,
  TargetSource,
  ToolCallStart,
  ToolCallEnd,
  InFlightWrite,
  LoopBlock,
} from './safety/SafetySessionTypes.js';
export { PersistedSession, SnapshotError, parsePersistedSession } from './safety/PersistedSession.js';

// classification
export {
  createClassifier,
  classifyToolCall,
  ClassifierRules,
  ClassifierRulesError,
  GENERIC_READ_VERBS,
  GENERIC_WRITE_VERBS,
} from './harness/classifier.js';
export { FixedRule } from './harness/classifier.js';
export type {
  ToolClassifier,
  ToolRule,
  ArgumentRule,
  CallDescriptor,
  RulesClassifier,
  RuleClassification,
} from './harness/classifier.js';
export { pulseClassifier, pulseRules } from './presets/pulse.js';

// recordings
export {
  RecordingEntry,
  RecordedCall,
  ContextSummary,
  Decision,
  LoopBlockCode,
  RecordedBlockCode,
  summariseContext,
} from './safety/RecordingEntry.js';
export type { SessionRecorder } from './safety/RecordingEntry.js';
export { parseRecording, recordingLines } from './recording/parseRecording.js';
export type { RecordingLine } from './recording/parseRecording.js';
export { parseRecordingLine } from './recording/parseRecordingLine.js';
export type { ParseRecordingOptions } from './recording/parseRecordingLine.js';
export { RecordingParseError } from './recording/RecordingParseError.js';
export { createLineSplitter, forEachChunkLine, MAX_LINE_LENGTH } from './recording/createLineSplitter.js';
export type { RecordingChunk, LineSplitter, LineSplitterOptions, OnLine } from './recording/createLineSplitter.js';
export { replayRecording } from './recording/replayRecording.js';
export { replayRecordingStream } from './recording/replayRecordingStream.js';
export type { ReplayStreamOptions, ReplayStreamResult } from './recording/replayRecordingStream.js';
export { createRecordingReplayer } from './recording/createRecordingReplayer.js';
export type {
  Divergence,
  ReplayResult,
  ReplayOptions,
  RecordingReplayer,
  RecordingReplayerOptions,
} from './recording/createRecordingReplayer.js';
export { applyCall } from './recording/applyCall.js';
export type { CallOutcome } from './recording/applyCall.js';
export { createMemoryRecorder } from './recording/createMemoryRecorder.js';
export type { MemoryRecorder } from './recording/createMemoryRecorder.js';

// the tool loop harness: three-phase pipeline, stable error codes
export { createToolLoop } from './harness/loop/createToolLoop.js';
export type { ToolLoop, FinalAnswerDecision } from './harness/loop/createToolLoop.js';
export { ToolLoopOptions } from './harness/loop/ToolLoopOptions.js';
export type { ClassifiedCall, EscalationAnswer } from './harness/loop/ToolLoopOptions.js';
export { ToolCall } from './harness/loop/ToolCall.js';
export type { ToolOutcome, ToolOutcomeError } from './harness/loop/ToolOutcome.js';
export { ToolLoopError } from './harness/loop/ToolLoopError.js';
export type { ToolLoopIssue } from './harness/loop/ToolLoopError.js';
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
} from './harness/loop/errorCodes.js';
export type { ToolOutcomeCode, ToolLoopErrorCode } from './harness/loop/errorCodes.js';
export { createLimiter } from './harness/loop/createLimiter.js';
export type { Limiter } from './harness/loop/createLimiter.js';
export { hasVerificationEvidence } from './harness/loop/hasVerificationEvidence.js';
export { finishToolCall } from './harness/loop/finishToolCall.js';
export { settleToolCall } from './harness/loop/settleToolCall.js';
export type { SettledCall, ToolCallSettlement } from './harness/loop/settleToolCall.js';
export { outcomeOfError } from './harness/outcomeOfError.js';

// observing sessions
export { combineRecorders } from './safety/combineRecorders.js';
