import * as z from 'zod/mini';
import { FSMBlockedError } from '../../safety/FSMBlockedError.js';
import type { SafetySession } from '../../safety/SafetySessionTypes.js';
import { TOOL_KINDS, type ToolKind } from '../../safety/toolKind.js';
import { callKey } from './callKey.js';
import { createLimiter } from './createLimiter.js';
import {
  ErrCodeBatchInProgress,
  ErrCodeInvalidClassification,
  ErrCodeInvalidOptions,
  ErrCodeInvalidToolCall,
  ErrCodeLookBeforeAsking,
  ErrCodeLoopDetected,
  ErrCodeToolAborted,
  ErrCodeToolError,
  ErrCodeToolTimeout,
} from './errorCodes.js';
import { outcomeOfError } from '../outcomeOfError.js';
import { settleToolCall } from './settleToolCall.js';
import { callFacts, callStartOf, digestOf, discoveredBy, unclassifiedWrite } from './callFacts.js';
import { ToolCall } from './ToolCall.js';
import { ToolLoopError, type ToolLoopIssue } from './ToolLoopError.js';
import { ToolLoopOptions, type ClassifiedCall } from './ToolLoopOptions.js';
import type { ToolOutcome, ToolOutcomeError } from './ToolOutcome.js';
import { verificationConstraint } from './verificationConstraint.js';
import { formatIssues, issuesOf, safeParseInput } from '../../core/Issue.js';

/** Whether the model may give its final answer now; if not, the sentence to feed back to it. */
export type FinalAnswerDecision = { allowed: true } | { allowed: false; error: FSMBlockedError; constraint: string };

/** The harness around one session. See {@link createToolLoop}. */
export interface ToolLoop {
  readonly session: SafetySession;
  /** A new user turn: resets the look-before-asking gate and the identical-call counts. */
  startTurn(): void;
  /** Runs the tool calls of one model response; the outcomes come back in the calls' order. */
  runBatch(calls: readonly ToolCall[]): Promise<ToolOutcome[]>;
  /** Asks the session whether a final answer may be given now. */
  finalAnswer(): FinalAnswerDecision;
}

/** A call's result. `unknown`: it timed out or was aborted while running, so its tool may have acted. */
type Settled = { ok: true; value: unknown } | { ok: false; error: ToolOutcomeError; unknown?: boolean };

const Batch = z.array(ToolCall).check(
  z.superRefine((calls, ctx) => {
    const first = new Map<string, number>();
    calls.forEach((call, i) => {
      const earlier = first.get(call.id);
      if (earlier === undefined) first.set(call.id, i);
      else ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `repeats the id of calls[${earlier}]` });
    });
  }),
);

const issuesAt = (root: string, error: z.core.$ZodError): ToolLoopIssue[] =>
  issuesOf(error).map((i) => ({ ...i, path: [root, ...i.path] }));

const summary = (issues: readonly ToolLoopIssue[]) => formatIssues(issues);

/**
 * A tool's error or an abort reason as text. It may be any value at all (a
 * null-prototype object, a Proxy that throws on every trap, an Error whose
 * `message` getter throws): this never throws.
 */
function describeReason(reason: unknown): string {
  if (reason === undefined) return 'aborted';
  try {
    if (reason instanceof Error) {
      const message: unknown = reason.message;
      if (typeof message === 'string') return message;
    }
  } catch {
    // fall through to the plainer descriptions
  }
  try {
    return String(reason);
  } catch {
    return `an unprintable ${typeof reason}`;
  }
}

/** The `code` of a tool's error, if it is a string; never throws. */
function errorCodeOf(error: unknown): string | undefined {
  try {
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** A value as a message shows it; never throws. */
function shown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return describeReason(value);
  }
}

/**
 * Write tools started and not settled, per session, whichever loop started them: including
 * ones whose call timed out or was aborted (their result no longer counts, but they may still
 * act). No loop starts a write on a session while one runs.
 */
const writesRunning = new WeakMap<SafetySession, number>();

/**
 * The three-phase tool pipeline around a session. For each model response:
 *
 * 1. In the provider's order, every call is classified and admitted (or
 *    blocked) before any runs, so the second write of a batch is blocked
 *    `WRITE_IN_FLIGHT` while the first is in flight.
 * 2. Admitted calls run in parallel, at most `concurrency` at once; a
 *    `user_input` call runs alone; `mustRunInOrder(calls)` runs the batch
 *    one call at a time.
 * 3. In the provider's order, every admitted call is ended on the session
 *    (so the state never depends on which call finished first), and a
 *    successful read that verified the last write completes the verification.
 *
 * Blocks and failures are outcomes with stable codes (see `errorCodes.ts`),
 * never exceptions; the loop only throws {@link ToolLoopError} for input it
 * cannot use, before applying anything.
 *
 * @throws {ToolLoopError} `INVALID_OPTIONS`, naming the option.
 * @example
 * const session = createSafetySession();
 * const loop = createToolLoop({ session, classify: pulseClassifier, execute: (call, signal) => tools[call.name](call.args, signal) });
 * loop.startTurn();
 * const outcomes = await loop.runBatch([
 *   { id: 'c1', name: 'pulse_query', args: { query: 'web-01' } },
 *   { id: 'c2', name: 'pulse_control', args: { action: 'restart', target: 'web-01' } }, // blocked: no target yet
 * ]);
 * outcomes[1].error?.error; // 'FSM_BLOCKED'
 * const answer = loop.finalAnswer(); // { allowed: true } or { allowed: false, error, constraint }
 */
export function createToolLoop(options: ToolLoopOptions): ToolLoop {
  const parsed = safeParseInput(ToolLoopOptions, options);
  if (!parsed.success) {
    const issues = issuesAt('options', parsed.error);
    throw new ToolLoopError(ErrCodeInvalidOptions, `createToolLoop: ${summary(issues)}`, issues);
  }
  const {
    session,
    execute,
    classify,
    concurrency,
    mustRunInOrder = () => false,
    maxLookBeforeAskBlocks,
    maxIdenticalCalls,
    toolTimeoutMs,
    signal,
    escalate = [],
    onEscalate,
    onWarning = (message: string) => console.warn(`assistant-safety: ${message}`),
  } = parsed.data;
  if (escalate.length > 0 && !onEscalate) {
    const issues = [
      {
        code: 'custom',
        path: ['options', 'onEscalate'],
        message: 'escalate names block reasons, so onEscalate is required',
      },
    ];
    throw new ToolLoopError(ErrCodeInvalidOptions, `createToolLoop: ${summary(issues)}`, issues);
  }

  // Per user turn.
  let looked = false;
  let lookBlocks = 0;
  let attempts = new Map<string, number>();
  let running = false;

  /**
   * Checks the whole batch before anything begins: its shape, the ids, each call's
   * arguments (readable, so the repeat count can key them) and kind. Throws
   * {@link ToolLoopError}; after it returns, nothing in phase 1 throws.
   */
  function validate(input: readonly ToolCall[]): { calls: ClassifiedCall[]; keys: string[] } {
    let batch: ReturnType<typeof Batch.safeParse>;
    try {
      batch = safeParseInput(Batch, input);
    } catch (e) {
      const issues = [{ code: 'custom', path: ['calls'], message: `cannot be read: ${describeReason(e)}` }];
      throw new ToolLoopError(ErrCodeInvalidToolCall, `runBatch: ${summary(issues)}`, issues);
    }
    if (!batch.success) {
      const issues = issuesAt('calls', batch.error);
      throw new ToolLoopError(ErrCodeInvalidToolCall, `runBatch: ${summary(issues)}`, issues);
    }
    // A call in another SDK's shape (`arguments`, `input`) would run with no arguments at all.
    for (const [i, call] of batch.data.entries()) {
      if (call.args !== undefined) continue;
      const raw = input[i] as Record<string, unknown>;
      const other = ['arguments', 'input', 'parameters'].find((k) => Object.hasOwn(raw, k));
      if (other === undefined) continue;
      const message = `has ${other} but no args: the loop reads args, the arguments as parsed JSON (JSON.parse a provider's text first)`;
      const issues = [{ code: 'custom', path: ['calls', i], message }];
      throw new ToolLoopError(ErrCodeInvalidToolCall, `runBatch: ${summary(issues)}`, issues);
    }
    const inFlight = batch.data.findIndex((c) => Object.hasOwn(session.context?.calls ?? {}, c.id));
    if (inFlight !== -1) {
      const issues = [
        { code: 'custom', path: ['calls', inFlight, 'id'], message: 'is already in flight on the session' },
      ];
      throw new ToolLoopError(ErrCodeInvalidToolCall, `runBatch: ${summary(issues)}`, issues);
    }
    const keys = batch.data.map((call, i) => {
      try {
        return callKey(call.name, call.args);
      } catch (e) {
        const issues = [
          { code: 'custom', path: ['calls', i, 'args'], message: `cannot be read: ${describeReason(e)}` },
        ];
        throw new ToolLoopError(ErrCodeInvalidToolCall, `runBatch: ${summary(issues)}`, issues);
      }
    });
    const calls = batch.data.map((call, i): ClassifiedCall => {
      let given: unknown;
      try {
        // A rules classifier can describe the call (targets, trust, ...); any other returns a kind or a descriptor.
        const describe = (classify as { describe?: unknown }).describe;
        given = typeof describe === 'function' ? describe(call.name, call.args) : classify(call.name, call.args);
      } catch (e) {
        given = unclassifiedWrite(call.name); // a classifier that cannot tell fails closed, binding included
        try {
          onWarning(
            `runBatch: calls[${i}] (${call.name}): the classifier threw (${describeReason(e)}); the call is judged a write`,
          );
        } catch {
          // a warning that fails must not stop the batch: the call is already judged
        }
      }
      const descriptor =
        typeof given === 'object' && given !== null ? (given as Record<string, unknown>) : { kind: given };
      const kind = descriptor.kind;
      if (!(TOOL_KINDS as readonly unknown[]).includes(kind)) {
        const message = `the classifier returned ${shown(given)}, expected one of ${TOOL_KINDS.join(', ')} or { kind, targets? }`;
        throw new ToolLoopError(ErrCodeInvalidClassification, `runBatch: calls[${i}] (${call.name}): ${message}`, [
          { code: 'custom', path: ['calls', i], message },
        ]);
      }
      const out: ClassifiedCall = { ...call, kind: kind as ToolKind, ...callFacts(descriptor) };
      // A person's approval binds to this very call (its tool, canonical arguments and targets).
      const digest = digestOf(call.name, call.args, out.targets);
      if (digest !== undefined) out.digest = digest;
      return out;
    });
    return { calls, keys };
  }

  /** Phase 1 for one call: the loop's own gates, then the session's, and a person for an escalated block. */
  async function admit(call: ClassifiedCall, key: string): Promise<ToolOutcomeError | null> {
    const count = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, count);
    const isQuestion = call.kind === 'user_input';
    if (!isQuestion) looked = true; // any real attempt satisfies the gate, blocked or not
    // Shadow mode blocks nothing, the loop's own gates included: each records its would-be block
    // (the session says `wouldBlock`) and the call goes on to the machine, which lets it run too.
    const shadow = session.context.config.mode === 'shadow';

    if (count > maxIdenticalCalls) {
      session.recordLoopBlock({ id: call.id, kind: call.kind, tool: call.name, code: ErrCodeLoopDetected });
      if (!shadow)
        return {
          error: ErrCodeLoopDetected,
          message: `${ErrCodeLoopDetected}: '${call.name}' was attempted with these exact arguments ${count} times in this turn (limit ${maxIdenticalCalls}). The call did not run.`,
          details: { tool: call.name, attempts: String(count), limit: String(maxIdenticalCalls) },
        };
    }
    if (isQuestion && !looked && lookBlocks < maxLookBeforeAskBlocks) {
      lookBlocks += 1;
      session.recordLoopBlock({ id: call.id, kind: call.kind, tool: call.name, code: ErrCodeLookBeforeAsking });
      if (!shadow)
        return {
          error: ErrCodeLookBeforeAsking,
          message: `${ErrCodeLookBeforeAsking}: no tool has been tried in this turn yet. What the available tools can find out is required before asking the user.`,
          details: { tool: call.name, blocksThisTurn: String(lookBlocks), maxBlocks: String(maxLookBeforeAskBlocks) },
        };
    }
    if (call.kind === 'write' && (writesRunning.get(session) ?? 0) > 0) {
      // An earlier write timed out or was aborted and its tool still runs: it may still act.
      session.recordLoopBlock({ id: call.id, kind: call.kind, tool: call.name, code: 'WRITE_IN_FLIGHT' });
      if (!shadow) {
        const blocked = new FSMBlockedError({
          state: session.state,
          reasonCode: 'WRITE_IN_FLIGHT',
          toolName: call.name,
          toolKind: call.kind,
        });
        return blocked.toJSON();
      }
    }
    const start = callStartOf(call.id, call.kind, call.name, call);
    let blocked = session.beginToolCall(start);
    if (blocked && onEscalate && escalate.includes(blocked.reasonCode)) {
      // A person may supply the missing evidence; the machine then decides the call again.
      const answer = await ask(blocked, call);
      if (answer && session.attest(blocked, answer)) blocked = session.beginToolCall(start);
    }
    return blocked ? blocked.toJSON() : null;
  }

  /** Asks `onEscalate`; an approval as the attestation to record, anything else (a throw included) a denial. */
  async function ask(block: FSMBlockedError, call: ClassifiedCall): Promise<{ by: string; note?: string } | null> {
    try {
      const answer: unknown = await onEscalate!(block, call);
      if (answer === 'approve') return { by: 'onEscalate' };
      if (typeof answer === 'object' && answer !== null && (answer as { decision?: unknown }).decision === 'approve') {
        const { by, note } = answer as { by?: unknown; note?: unknown };
        return {
          by: typeof by === 'string' && by !== '' ? by : 'onEscalate',
          ...(typeof note === 'string' && { note }),
        };
      }
    } catch {
      // a failed question is a denial
    }
    return null;
  }

  /** Phase 2 for one admitted call. Never rejects: a failure is a settled value with a code. */
  function invoke(call: ClassifiedCall): Promise<Settled> {
    if (signal?.aborted) return Promise.resolve({ ok: false, error: aborted(call, false, signal.reason) });
    const controller = new AbortController();
    return new Promise<Settled>((resolve) => {
      let done = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (settled: Settled, abortReason?: unknown) => {
        if (done) return; // a late result after a timeout or abort is ignored
        done = true;
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(settled);
        if (abortReason !== undefined) controller.abort(abortReason);
      };
      const onAbort = () =>
        finish({ ok: false, error: aborted(call, true, signal!.reason), unknown: true }, signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (toolTimeoutMs !== undefined) {
        timer = setTimeout(
          () =>
            finish(
              {
                ok: false,
                unknown: true,
                error: {
                  error: ErrCodeToolTimeout,
                  message: `Tool '${call.name}' did not finish within ${toolTimeoutMs} ms.`,
                  details: { tool: call.name, timeoutMs: String(toolTimeoutMs) },
                },
              },
              new DOMException(`tool '${call.name}' timed out after ${toolTimeoutMs} ms`, 'TimeoutError'),
            ),
          toolTimeoutMs,
        );
      }
      let result: Promise<unknown>;
      try {
        result = Promise.resolve(execute({ id: call.id, name: call.name, args: call.args }, controller.signal));
      } catch (e) {
        result = Promise.reject(e);
      }
      if (call.kind === 'write') {
        writesRunning.set(session, (writesRunning.get(session) ?? 0) + 1);
        const settle = () => {
          writesRunning.set(session, writesRunning.get(session)! - 1);
        };
        result.then(settle, settle);
      }
      result.then(
        (value) => finish({ ok: true, value }),
        (e: unknown) =>
          finish({ ok: false, error: failed(call, e), ...(outcomeOfError(e) === 'unknown' && { unknown: true }) }),
      );
    });
  }

  async function runBatch(input: readonly ToolCall[]): Promise<ToolOutcome[]> {
    if (running) {
      throw new ToolLoopError(
        ErrCodeBatchInProgress,
        'runBatch: another batch of this loop is still running; await it before running the next',
      );
    }
    const { calls, keys } = validate(input);
    let inOrder = true; // a mustRunInOrder that throws runs the batch the careful way
    try {
      inOrder = Boolean(mustRunInOrder(calls));
    } catch {
      // keep in order
    }
    running = true;
    const begun = new Set<string>();
    try {
      // Phase 1: admit in the provider's order (one at a time: an escalation waits for its answer).
      const blocks: ({ status: 'error' | 'blocked'; error: ToolOutcomeError } | null)[] = [];
      for (const [i, call] of calls.entries()) {
        if (signal?.aborted) {
          blocks.push({ status: 'error', error: aborted(call, false, signal.reason) });
          continue;
        }
        const block = await admit(call, keys[i]!);
        if (block) blocks.push({ status: 'blocked', error: block });
        else {
          begun.add(call.id);
          blocks.push(null);
        }
      }

      // Phase 2: run the admitted calls.
      const limiter = createLimiter(inOrder ? 1 : concurrency);
      const settled = await Promise.all(
        calls.map((call, i) =>
          blocks[i] ? null : limiter.run(() => invoke(call), { exclusive: call.kind === 'user_input' }),
        ),
      );

      // Phase 3: end in the provider's order.
      return calls.map((call, i): ToolOutcome => {
        const base = { id: call.id, name: call.name, kind: call.kind };
        const block = blocks[i];
        if (block) return { ...base, ...block } as ToolOutcome;
        const result = settled[i]!;
        // Ends the call and, once the evidence is in, completes the verification (one rule with the SDK adapters).
        const discovered = result.ok ? discoveredBy(classify, call.name, result.value, call.args) : [];
        settleToolCall(
          session,
          {
            id: call.id,
            kind: call.kind,
            args: call.args,
            ...(call.selfVerifying && { selfVerifying: true }),
            ...(discovered.length > 0 && { discovered }),
          },
          result.ok ? { ok: true, value: result.value } : { ok: false, ...(result.unknown && { unknown: true }) },
        );
        begun.delete(call.id);
        return result.ok
          ? { ...base, status: 'ok', result: result.value }
          : { ...base, status: 'error', error: result.error };
      });
    } finally {
      // Only reached with calls left begun if something threw (a bug in the session given):
      // end them with an unknown outcome, so no call stays in flight and a write that may
      // have run still needs verification.
      for (const id of begun) {
        try {
          session.endToolCall({ id, ok: false, unknown: true });
        } catch {
          // already failing; the original error is the one to report
        }
      }
      running = false;
    }
  }

  return {
    session,
    startTurn() {
      looked = false;
      lookBlocks = 0;
      attempts = new Map();
    },
    runBatch,
    finalAnswer() {
      const error = session.canFinalAnswer();
      return error ? { allowed: false, error, constraint: verificationConstraint(session, error) } : { allowed: true };
    },
  };
}

function aborted(call: ClassifiedCall, started: boolean, reason: unknown): ToolOutcomeError {
  return {
    error: ErrCodeToolAborted,
    message: started
      ? `Tool '${call.name}' was aborted: ${describeReason(reason)}`
      : `Tool '${call.name}' was not run: the loop was aborted (${describeReason(reason)}).`,
    details: { tool: call.name, started, reason: describeReason(reason) },
  };
}

function failed(call: ClassifiedCall, error: unknown): ToolOutcomeError {
  const cause = describeReason(error);
  const code = errorCodeOf(error);
  return {
    error: ErrCodeToolError,
    message: `Tool '${call.name}' failed: ${cause}`,
    details: { tool: call.name, cause, ...(typeof code === 'string' && { toolErrorCode: code }) },
  };
}
