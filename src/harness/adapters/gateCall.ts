/*
 * The adapters' shared kit: how the AI SDK and Agents SDK adapters describe, probe, begin and
 * settle a gated call, with the tool loop's settle rule. Not part of the root entry: only
 * the adapter subpaths load it (it uses the full zod their option schemas use).
 */
import { z } from 'zod';
import type { FSMBlockedEnvelope, FSMBlockedError } from '../../safety/FSMBlockedError.js';
import type { SafetySession, ToolCallStart } from '../../safety/SafetySessionTypes.js';
import { BlockReasonCode, TOOL_KINDS, type ToolKind } from '../../safety/toolKind.js';
// The one settle rule, shared with the tool loop (not part of the root entry's API).
import { settleToolCall, type SettledCall } from '../loop/settleToolCall.js';
import { callFacts, digestOf, discoveredBy, unclassifiedWrite } from '../loop/callFacts.js';

/** `(toolName, input) => ToolKind`, or a describing classifier (`createClassifier(rules)`, whose `describe` is used). */
export type AdapterClassify = (toolName: string, input: unknown) => unknown;

/** The `classify` option of both adapters. */
export const ClassifyOption = z.custom<AdapterClassify>((v) => typeof v === 'function', {
  message: 'expected a function (toolName, input) => ToolKind or a classifier from createClassifier',
});

/** The `escalate` option of both adapters: the block reasons a person may be asked about. */
export const EscalateOption = z.array(BlockReasonCode).readonly().default([]);

/** A call as the adapters gate it: what `beginToolCall` takes, and what settling it needs. */
export interface GatedCall {
  start: ToolCallStart;
  selfVerifying: boolean;
  args: unknown;
  /** The targets the call's result reveals by its rule's `discovers` (a rules classifier's `discover`). */
  discover?: (value: unknown) => { target: string; field: string }[];
}

/**
 * Describes one call for the gate: a describing classifier's `describe` (targets, state-only, trust,
 * self-verifying), else `classify`, which may return a kind or a `CallDescriptor`. A classifier that
 * throws or returns no tool kind makes the call a write with nothing else but a target nothing
 * validates (`unclassifiedWrite`: fail closed, binding included).
 */
export function describeCall(classify: AdapterClassify, id: string, tool: string, args: unknown): GatedCall {
  let given: unknown;
  try {
    const describe = (classify as { describe?: unknown }).describe;
    given = typeof describe === 'function' ? describe.call(classify, tool, args) : classify(tool, args);
  } catch {
    given = undefined;
  }
  const descriptor: Record<string, unknown> =
    typeof given === 'object' && given !== null ? (given as Record<string, unknown>) : { kind: given };
  const valid = (TOOL_KINDS as readonly unknown[]).includes(descriptor.kind);
  const start: ToolCallStart = { id, kind: valid ? (descriptor.kind as ToolKind) : 'write', tool };
  if (!valid) return { start: { ...start, ...unclassifiedWrite(tool) }, selfVerifying: false, args };
  const { selfVerifying, ...facts } = callFacts(descriptor);
  Object.assign(start, facts);
  // A person's answer binds to this very call: its tool, canonical arguments and targets.
  const digest = digestOf(tool, args, start.targets);
  if (digest !== undefined) start.digest = digest;
  const call: GatedCall = { start, selfVerifying: selfVerifying === true, args };
  if (typeof (classify as { discover?: unknown }).discover === 'function')
    call.discover = (value) => discoveredBy(classify, tool, value, args);
  return call;
}

/**
 * What the session would answer to `beginToolCall(start)` now, as a dry run (`session.can`):
 * nothing is recorded or changed (an approval question must not count as a block or begin a call).
 */
export function probeCall(session: SafetySession, start: ToolCallStart): FSMBlockedError | null {
  try {
    return session.can(start);
  } catch {
    return null; // the tool's own execute still asks the real session
  }
}

/**
 * Begins a call on the session; when the block is one of `escalate` and `approved()` says a person
 * approved this very call, their approval is attested (`by`) and the machine decides the call again.
 */
export function beginGated(
  session: SafetySession,
  call: GatedCall,
  escalate: readonly string[],
  approved: () => { by: string; note?: string } | null,
): FSMBlockedError | null {
  let blocked = session.beginToolCall(call.start);
  if (blocked && escalate.includes(blocked.reasonCode)) {
    const approval = approved();
    if (approval && session.attest(blocked, approval)) blocked = session.beginToolCall(call.start);
  }
  return blocked;
}

/**
 * Ends a begun call by the one settle rule (`settleToolCall`): a value is a success (self-verifying
 * only for a tool declared so), a thrown value is a failure or an unknown outcome by what it is,
 * and any throw after the harness's abort signal fired is an unknown outcome.
 */
export function settleGated(
  session: SafetySession,
  call: GatedCall,
  outcome: { ok: true; value: unknown } | { ok: false; error: unknown } | { ok: false; unknown: true },
  signal?: AbortSignal,
): void {
  const settled: SettledCall = {
    id: call.start.id,
    kind: call.start.kind,
    args: call.args,
    ...(call.selfVerifying && { selfVerifying: true }),
  };
  if (outcome.ok && call.discover) {
    const discovered = call.discover(outcome.value);
    if (discovered.length > 0) settled.discovered = discovered;
  }
  let aborted = false;
  try {
    aborted = signal?.aborted === true;
  } catch {
    aborted = true;
  }
  settleToolCall(session, settled, !outcome.ok && aborted ? { ok: false, unknown: true } : outcome);
}

/** Blocks a person was asked about, per session, by call id: a denial then shows the model the block. */
const asked = new WeakMap<SafetySession, Map<string, FSMBlockedEnvelope>>();
const MAX_ASKED = 256;

/** Remembers that the person was asked about call `id` because of `block`. */
export function rememberEscalation(session: SafetySession, id: string, block: FSMBlockedError): void {
  let calls = asked.get(session);
  if (!calls) asked.set(session, (calls = new Map()));
  calls.delete(id);
  calls.set(id, block.toJSON());
  if (calls.size > MAX_ASKED) calls.delete(calls.keys().next().value!);
}

/** The block a person was asked about for call `id`, if any. */
export function escalationOf(session: SafetySession, id: string): FSMBlockedEnvelope | undefined {
  return asked.get(session)?.get(id);
}

/** The text a model reads for a call a person denied: their reason, then the block that asked. */
export function deniedText(envelope: FSMBlockedEnvelope, reason: unknown): string {
  const why = typeof reason === 'string' && reason.trim() !== '' ? `: ${reason.trim().replace(/\.$/, '')}` : '';
  return `Not approved by a person${why}. ${JSON.stringify(envelope)}`;
}

/** Forgets the question about call `id`: it ran, so nobody denied it. */
export function forgetEscalation(session: SafetySession, id: string): void {
  asked.get(session)?.delete(id);
}

/**
 * What to rethrow to the SDK for a tool's thrown value: the value itself when it can be read,
 * else a plain `Error` saying so (an SDK that reads a hostile value, a Proxy throwing on every
 * trap, would fail the whole run). The call has been settled before, as an unknown outcome.
 */
export function rethrowable(error: unknown, tool: string): unknown {
  try {
    if (error instanceof Error) {
      void String(error.message);
      void String(error.name);
    } else if (typeof error === 'object' && error !== null) {
      void String(error);
      void JSON.stringify(error);
    }
    return error;
  } catch {
    return new Error(`tool '${tool}' threw a value that cannot be read`);
  }
}
