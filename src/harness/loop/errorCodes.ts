import { ErrCodeFSMBlocked } from '../../safety/FSMBlockedError.js';

/*
 * The tool loop's stable error codes: the one place they are declared.
 *
 * Outcome codes reach the model, as the `error` field of a call's outcome.
 * Loop error codes reach the engineer embedding the loop, as the `code` of a
 * thrown ToolLoopError; nothing was applied when one is thrown.
 *
 * A test drives the loop into every code declared here and fails if the loop
 * emits one that is not; another checks that docs/tool-loop.md documents each.
 */

// ---- outcome codes (status 'blocked') ----

/** The session's safety machine refused the call; the outcome is the FSMBlockedError envelope. */
export const ErrCodeBlocked = ErrCodeFSMBlocked;
/** A question to the user came before any other tool was tried in the turn. */
export const ErrCodeLookBeforeAsking = 'LOOK_BEFORE_ASKING';
/** The same call (tool and arguments) was attempted more than `maxIdenticalCalls` times in the turn. */
export const ErrCodeLoopDetected = 'LOOP_DETECTED';

// ---- outcome codes (status 'error') ----

/** The tool threw or its promise rejected. */
export const ErrCodeToolError = 'TOOL_ERROR';
/** The tool did not finish within `toolTimeoutMs`; its signal was aborted and its result is ignored. */
export const ErrCodeToolTimeout = 'TOOL_TIMEOUT';
/** The loop's `signal` was aborted before the tool finished (or before it started). */
export const ErrCodeToolAborted = 'TOOL_ABORTED';

// ---- loop error codes (thrown) ----

/** `createToolLoop` was given options it cannot use. */
export const ErrCodeInvalidOptions = 'INVALID_OPTIONS';
/** `runBatch` was given a malformed batch (not an array, a call without an id or name, a repeated id). */
export const ErrCodeInvalidToolCall = 'INVALID_TOOL_CALL';
/** The classifier threw or returned something that is not a tool kind. */
export const ErrCodeInvalidClassification = 'INVALID_CLASSIFICATION';
/** `runBatch` was called while another batch of the same loop was still running. */
export const ErrCodeBatchInProgress = 'BATCH_IN_PROGRESS';

/** Codes a call's outcome can carry, in the order docs/tool-loop.md lists them. */
export const TOOL_OUTCOME_CODES = [
  ErrCodeBlocked,
  ErrCodeLookBeforeAsking,
  ErrCodeLoopDetected,
  ErrCodeToolError,
  ErrCodeToolTimeout,
  ErrCodeToolAborted,
] as const;
export type ToolOutcomeCode = (typeof TOOL_OUTCOME_CODES)[number];

/** Codes a thrown {@link ToolLoopError} can carry. */
export const TOOL_LOOP_ERROR_CODES = [
  ErrCodeInvalidOptions,
  ErrCodeInvalidToolCall,
  ErrCodeInvalidClassification,
  ErrCodeBatchInProgress,
] as const;
export type ToolLoopErrorCode = (typeof TOOL_LOOP_ERROR_CODES)[number];

/** One line per code: what it means. The table in docs/tool-loop.md says the same. */
export const ERROR_CODE_MEANINGS: Readonly<Record<ToolOutcomeCode | ToolLoopErrorCode, string>> = {
  FSM_BLOCKED: "the session's safety machine refused the call; it did not run (details.reasonCode says why)",
  LOOK_BEFORE_ASKING: 'a question to the user came before any other tool was tried in this turn; it did not run',
  LOOP_DETECTED: 'the same tool with the same arguments was attempted too often in this turn; it did not run',
  TOOL_ERROR: 'the tool ran and threw (details.cause, and details.toolErrorCode when the error had a code)',
  TOOL_TIMEOUT: 'the tool did not finish within toolTimeoutMs; its signal was aborted and any late result is ignored',
  TOOL_ABORTED: "the loop's signal was aborted before the tool finished or started",
  INVALID_OPTIONS: 'thrown by createToolLoop: an option is missing or malformed (the message names it)',
  INVALID_TOOL_CALL: 'thrown by runBatch: the batch is malformed (the message names the call and field); nothing ran',
  INVALID_CLASSIFICATION:
    'thrown by runBatch: the classifier returned no tool kind; nothing ran (one that throws is judged a write, with a target nothing validates, and `onWarning` is told)',
  BATCH_IN_PROGRESS: 'thrown by runBatch: another batch of this loop is still running; nothing ran',
};
