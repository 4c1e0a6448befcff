import { createSafetySession } from '../safety/SafetySession.js';
import type { ExecutionProfile, TargetMode } from '../safety/SafetySessionTypes.js';
import { establishCreatedFile } from '../presets/codingAgent.js';
import { finishToolCall } from '../harness/loop/finishToolCall.js';
import { selfVerifies, type SettledCall } from '../harness/loop/settleToolCall.js';
import type { RecordedBlockCode, SessionRecorder } from '../safety/RecordingEntry.js';
import type { SessionState, ToolKind } from '../safety/toolKind.js';
import type { ClassificationRule } from '../classify/index.js';
import type { AuditTrace } from './AuditTrace.js';
import type { TraceIssue } from './TraceIssue.js';
import type { AuditClassifier } from './createAuditClassifier.js';

/** What the gate decided for one call of a trace. */
export interface CallDecision {
  id: string;
  tool: string;
  kind: ToolKind;
  rule: ClassificationRule;
  blocked: boolean;
  reason?: RecordedBlockCode;
  /** The targets the call names (from the classifier's rules), when it names any. */
  targets?: string[];
  /** The session's state when the call was asked. */
  state: SessionState;
  /** How long the decision took, in milliseconds. */
  ms: number;
}

/** What the gate would have done to one trace. */
export interface TraceAudit {
  id: string;
  calls: CallDecision[];
  /** Results of blocked calls, ignored: a blocked call did not run. */
  resultsIgnored: number;
  /** The final-answer check, when the trace ends on the assistant's text. */
  final?: { blocked: boolean; reason?: RecordedBlockCode; state: SessionState };
  /** The trace's calls whose arguments are not JSON (judged as calls without their arguments), for the report. */
  unreadableArguments?: TraceIssue[];
}

export interface GateTraceOptions {
  classifier: AuditClassifier;
  /** The session's target mode: `'bind'` checks a write's targets (from the classifier). Default `'ignore'`. */
  targets?: TargetMode;
  /** The session's execution profile (`'coding'` for a coding agent's transcript, as its hook). Default the session's. */
  profile?: ExecutionProfile;
  /** Receives the session's recording (its session id is the trace id). */
  recorder?: SessionRecorder;
  /** A clock in milliseconds for decision times. Default `performance.now`. */
  timer?: () => number;
  /**
   * Whether the trace's user and system messages are the user's words (`session.userMessage`), and
   * results are read by the rules' `discovers` fields. Default: true with `targets: 'bind'`.
   */
  provenance?: boolean;
  /**
   * Whether the trace's user and system messages count as the user's words when `provenance` holds.
   * Default true; false for the runs of sub-agents, whose user message a model wrote.
   */
  userWords?: boolean;
}

/**
 * Runs one trace through a fresh session: each tool call begun in its order (a batch's calls one
 * after another, before their results), each result ending its call as the tool loop and the
 * adapters end one (`finishToolCall`: a read that verifies a write completes the verification),
 * the final answer checked.
 * A blocked call is counted and treated as not run: its result is ignored, and the trace goes on
 * as it was recorded (a counterfactual: the agent, told no, might have done otherwise). The
 * session's clock is the trace's time when it has one, else a millisecond a step from 0.
 *
 * @example
 * const audit = gateTrace(
 *   { id: 't1', source: { file: 'x.jsonl', line: 1 }, steps: [{ type: 'call', id: 'c1', tool: 'restart_vm', args: {} }] },
 *   { classifier: createAuditClassifier() },
 * );
 * audit.calls[0]!.reason; // 'NO_VALIDATED_TARGET'
 */
export function gateTrace(trace: AuditTrace, options: GateTraceOptions): TraceAudit {
  const { classifier } = options;
  const timer = options.timer ?? (() => globalThis.performance.now());
  // A time that is not a finite number (a span's unreadable timestamp) is as good as none.
  const timeOf = (at: number | undefined) => (at !== undefined && Number.isFinite(at) ? at : undefined);
  let time = timeOf(trace.steps[0]?.at) ?? 0;
  const session = createSafetySession({
    id: trace.id,
    now: () => time,
    ...(options.targets && { targets: options.targets }),
    ...(options.profile && { profile: options.profile }),
    ...(options.recorder && { recorder: options.recorder }),
    onWarning: () => {},
  });
  if (trace.tools) classifier.declare(trace.tools);
  const calls: CallDecision[] = [];
  const blocked = new Set<string>();
  const provenance = options.provenance ?? options.targets === 'bind';
  // The tool of each call waiting for its result: its rule says which result fields reveal targets.
  const toolOf = new Map<string, string>();
  // Each call waiting for its result as the tool loop settles it: a self-verifying write's result may verify it.
  const callOf = new Map<string, SettledCall>();
  let resultsIgnored = 0;
  let final: TraceAudit['final'];
  for (const step of trace.steps) {
    const at = timeOf(step.at);
    time = at !== undefined ? Math.max(time, at) : time + 1;
    if (step.type === 'call') {
      const { rule, selfVerifying, ...described } = classifier.classify(step.tool, step.args, step.cwd);
      const { kind } = described;
      // A file the call created could not be read first: its target is established, as the hook does.
      establishCreatedFile(session, { tool: step.tool, ...described }, () => step.newFile === true);
      const state = session.state;
      const t0 = timer();
      const block = session.beginToolCall({ id: step.id, tool: step.tool, ...described });
      const ms = timer() - t0;
      // An id is paired with the result that follows it: one reused after its result came is a new call.
      if (block) blocked.add(step.id);
      else blocked.delete(step.id);
      toolOf.set(step.id, step.tool);
      callOf.set(step.id, { id: step.id, kind, args: step.args, ...(selfVerifying && { selfVerifying }) });
      calls.push({
        id: step.id,
        tool: step.tool,
        kind,
        rule,
        blocked: block !== null,
        ...(block && { reason: block.reasonCode }),
        ...(described.targets !== undefined && { targets: described.targets }),
        state,
        ms,
      });
    } else if (step.type === 'result') {
      const tool = toolOf.get(step.id);
      const settled = callOf.get(step.id);
      toolOf.delete(step.id);
      callOf.delete(step.id);
      if (blocked.delete(step.id)) resultsIgnored++;
      else {
        const discovered =
          provenance && step.ok && tool !== undefined && step.value !== undefined
            ? classifier.discover(tool, step.value, step.cwd)
            : [];
        // A self-verifying write whose result carries the evidence verifies itself, as the tool loop settles it.
        const verified = step.ok && settled !== undefined && selfVerifies(settled, step.value);
        finishToolCall(session, {
          id: step.id,
          ok: step.ok,
          ...(verified && { verified }),
          ...(discovered.length > 0 && { discovered }),
        });
      }
    } else if (step.type === 'message') {
      if (provenance && options.userWords !== false) session.userMessage(step.text, { source: step.source });
    } else {
      const state = session.state;
      const block = session.canFinalAnswer();
      final = { blocked: block !== null, ...(block && { reason: block.reasonCode }), state };
    }
  }
  return {
    id: trace.id,
    calls,
    resultsIgnored,
    ...(final && { final }),
    ...(trace.unreadableArguments && { unreadableArguments: trace.unreadableArguments }),
  };
}
