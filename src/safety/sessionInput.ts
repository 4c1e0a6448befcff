/*
 * How a safety session checks what it is given: every call against the recording format's own schema,
 * errors that name the argument as the method's signature has it, and nothing applied on a bad one.
 */
import { quickCheckCall } from './quickCheckEntry.js';
import { RecordedCall, RecordingEntry } from './RecordingEntry.js';
import { pollutedKey, pollutionMessage, safeParseInput } from '../core/Issue.js';
import type { LoopBlock, TargetSource, ToolCallEnd, ToolCallStart } from './SafetySessionTypes.js';
import type { FSMBlockedError } from './FSMBlockedError.js';
import { BlockReasonCode, type ToolKind } from './toolKind.js';
import { evidenceFor } from './blockReasons.js';

/** Thrown for a call with malformed arguments; nothing was applied. */
export class SafetyInputError extends TypeError {
  readonly code = 'INVALID_INPUT' as const;
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`${path}: ${detail}`);
    this.name = 'SafetyInputError';
  }
}

export const describe = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : v === null ? 'null' : typeof v);

/**
 * Refuses while `Object.prototype` is polluted (see `pollutedKey`): every object would lend the
 * fields its caller left out (`verified`, `stateOnly`, `mode`), so the session decides nothing.
 */
export function refusePolluted(path: string): void {
  const key = pollutedKey();
  if (key !== undefined) throw new SafetyInputError(path, pollutionMessage(key));
}

export function checkObject(path: string, value: unknown): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null)
    throw new SafetyInputError(path, `expected an object, got ${describe(value)}`);
}

const CALL_SCHEMAS = new Map(RecordedCall.def.options.map((o) => [o.def.shape.type.def.values[0] as string, o]));

/**
 * Checks an API call against the recording format's own schema (`RecordedCall`):
 * the allocation-free quick check first, zod for anything it cannot vouch for
 * (zod is the judge and words the error). `names` maps a field to the
 * argument's name in the method's signature, for the error's path.
 */
export function validCall<C extends RecordedCall>(
  method: string,
  call: C,
  names: Record<string, string> = {},
  argument?: string,
): C {
  refusePolluted(`${method}: call`);
  if (quickCheckCall(call)) return call;
  const schema = CALL_SCHEMAS.get((call as { type?: unknown }).type as string);
  if (!schema)
    throw new SafetyInputError(`${method}: call.type`, `expected a session call, got ${describe(call.type)}`);
  const parsed = safeParseInput(schema, call);
  if (parsed.success) return parsed.data as C;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length ? String(issue.path[0]) : '';
  const got = field ? (call as Record<string, unknown>)[field] : call;
  const name = names[field] ?? (argument !== undefined && field ? `${argument}.${field}` : field);
  throw new SafetyInputError(`${method}: ${name}`, `${issue.message}, got ${describe(got)}`);
}

const SESSION_ID = RecordingEntry.shape.session;

export function checkId(id: unknown): asserts id is string {
  const parsed = safeParseInput(SESSION_ID, id);
  if (!parsed.success)
    throw new SafetyInputError('options.id', `${parsed.error.issues[0]!.message}, got ${describe(id)}`);
}

/** `endToolCall`'s argument names where they differ from `result.<field>`, for error paths. */
const RESULT_NAMES = { fields: 'result.discovered' };

const BLOCK_NAMES = { id: 'block.id', kind: 'block.kind', tool: 'block.tool', code: 'block.code' };

/** `beginToolCall`'s argument as the recorded call, checked (fields copied one by one: nothing else rides along). */
export function startCallOf(call: ToolCallStart, method = 'beginToolCall'): RecordedCall {
  checkObject(`${method}: call`, call);
  const { id, kind, tool, targets, stateOnly, trust, creates, created, egress, digest, check, delegates } = call;
  const recorded: RecordedCall = { type: 'beginToolCall', id, kind, tool };
  if (targets !== undefined) recorded.targets = targets;
  if (stateOnly !== undefined) recorded.stateOnly = stateOnly;
  if (trust !== undefined) recorded.trust = trust;
  if (creates !== undefined) recorded.creates = creates;
  if (created !== undefined) recorded.created = created;
  if (egress !== undefined) recorded.egress = egress;
  if (digest !== undefined) recorded.digest = digest;
  if (check !== undefined) recorded.check = check;
  if (delegates !== undefined) recorded.delegates = delegates;
  return validCall(method, recorded, {}, 'call');
}

/** `endToolCall`'s argument as the recorded call, checked. */
export function endCallOf(result: ToolCallEnd): RecordedCall {
  checkObject('endToolCall: result', result);
  const { id, ok, verified, unknown, discovered, orphanedBy } = result;
  const call: RecordedCall = { type: 'endToolCall', id, ok };
  if (verified !== undefined) call.verified = verified;
  if (unknown !== undefined) call.unknown = unknown;
  if (orphanedBy !== undefined) call.orphanedBy = orphanedBy;
  if (discovered !== undefined) {
    if (Array.isArray(discovered) && discovered.some((d) => typeof d === 'object' && d !== null)) {
      // `{ target, field }` items: the keys go in `discovered`, the fields beside them for the record.
      call.discovered = discovered.map((d) => (typeof d === 'object' && d !== null ? d.target : d));
      call.fields = discovered.map((d) => (typeof d === 'object' && d !== null ? d.field : ''));
    } else call.discovered = discovered as string[];
  }
  return validCall('endToolCall', call, RESULT_NAMES, 'result');
}

/** A call with the named fields of a method's `options` argument, checked; errors name `options.<field>`. */
function withOptions(call: RecordedCall, options: object | undefined, fields: readonly string[]): RecordedCall {
  if (options !== undefined) {
    checkObject(`${call.type}: options`, options);
    for (const field of fields) {
      const value = (options as Record<string, unknown>)[field];
      if (value !== undefined) (call as Record<string, unknown>)[field] = value;
    }
  }
  return validCall(call.type, call, { text: 'text' }, 'options');
}

/**
 * The other methods' arguments as their recorded calls, checked the same way: what a session runs
 * is always a `RecordedCall`, whichever method it came through, so a recording replays every one.
 */
export const callOf = {
  compatible(type: 'canExecuteTool' | 'onToolSuccess', kind: ToolKind, tool: string, targets?: string[]): RecordedCall {
    const call = { type, kind, tool } as Extract<RecordedCall, { type: 'canExecuteTool' }>;
    if (targets !== undefined) call.targets = targets;
    return validCall(type, call as RecordedCall, { tool: 'toolName' });
  },
  targetEstablished(options?: { targets?: string[]; source?: TargetSource }): RecordedCall {
    return withOptions({ type: 'targetEstablished' }, options, ['targets', 'source']);
  },
  userMessage(text: string, options?: { source?: 'user' | 'system' }): RecordedCall {
    return withOptions({ type: 'userMessage', text }, options, ['source']);
  },
  trackPendingRecovery(errorCode: string, tool: string): RecordedCall {
    return validCall('trackPendingRecovery', { type: 'trackPendingRecovery', errorCode, tool }, { tool: 'toolName' });
  },
  checkRecoverySuccess(tool: string): RecordedCall {
    return validCall('checkRecoverySuccess', { type: 'checkRecoverySuccess', tool }, { tool: 'toolName' });
  },
  recordLoopBlock(block: LoopBlock): RecordedCall {
    checkObject('recordLoopBlock: block', block);
    const { id, kind, tool, code } = block;
    return validCall('recordLoopBlock', { type: 'recordLoopBlock', id, kind, tool, code }, BLOCK_NAMES);
  },
  /** `undefined` for a block no person can lift (a write in flight, a profile's refusal). */
  attest(block: FSMBlockedError, attestation: { by: string; note?: string }): RecordedCall | undefined {
    checkObject('attest: block', block);
    checkObject('attest: attestation', attestation);
    const reasonCode = safeParseInput(BlockReasonCode, block.reasonCode);
    if (!reasonCode.success)
      throw new SafetyInputError(
        'attest: block.reasonCode',
        `expected a block reason code, got ${describe(block.reasonCode)}`,
      );
    const evidence = evidenceFor(reasonCode.data);
    if (evidence === undefined) return undefined;
    const call: RecordedCall = { type: 'attest', reasonCode: reasonCode.data, evidence, by: attestation.by };
    if (evidence === 'target' && block.targets !== undefined && block.targets.length > 0)
      call.targets = [...block.targets];
    if (attestation.note !== undefined) call.note = attestation.note;
    if (typeof block.digest === 'string') call.digest = block.digest;
    return validCall('attest', call, { by: 'attestation.by', note: 'attestation.note' });
  },
};
