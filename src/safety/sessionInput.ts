/*
 * How a safety session checks what it is given: every call against the recording format's own schema,
 * errors that name the argument as the method's signature has it, and nothing applied on a bad one.
 */
import { quickCheckCall } from './quickCheckEntry.js';
import { RecordedCall, RecordingEntry } from './RecordingEntry.js';
import { safeParseInput } from '../core/Issue.js';
import type { ToolCallEnd, ToolCallStart } from './SafetySessionTypes.js';

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
export function validCall<C extends RecordedCall>(method: string, call: C, names: Record<string, string> = {}): C {
  if (quickCheckCall(call)) return call;
  const schema = CALL_SCHEMAS.get((call as { type?: unknown }).type as string);
  if (!schema)
    throw new SafetyInputError(`${method}: call.type`, `expected a session call, got ${describe(call.type)}`);
  const parsed = safeParseInput(schema, call);
  if (parsed.success) return parsed.data as C;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length ? String(issue.path[0]) : '';
  const got = field ? (call as Record<string, unknown>)[field] : call;
  throw new SafetyInputError(`${method}: ${names[field] ?? field}`, `${issue.message}, got ${describe(got)}`);
}

const SESSION_ID = RecordingEntry.shape.session;

export function checkId(id: unknown): asserts id is string {
  const parsed = safeParseInput(SESSION_ID, id);
  if (!parsed.success)
    throw new SafetyInputError('options.id', `${parsed.error.issues[0]!.message}, got ${describe(id)}`);
}

/** Argument names of the lifecycle methods, for error paths. */
const CALL_NAMES = {
  id: 'call.id',
  kind: 'call.kind',
  tool: 'call.tool',
  targets: 'call.targets',
  stateOnly: 'call.stateOnly',
  trust: 'call.trust',
  creates: 'call.creates',
  created: 'call.created',
  egress: 'call.egress',
  digest: 'call.digest',
  check: 'call.check',
  delegates: 'call.delegates',
};
const RESULT_NAMES = {
  id: 'result.id',
  ok: 'result.ok',
  verified: 'result.verified',
  unknown: 'result.unknown',
  discovered: 'result.discovered',
  fields: 'result.discovered',
  orphanedBy: 'result.orphanedBy',
};

export const BLOCK_NAMES = { id: 'block.id', kind: 'block.kind', tool: 'block.tool', code: 'block.code' };
export const PERFORM_NAMES = Object.fromEntries(
  [
    'type',
    'id',
    'kind',
    'tool',
    'ok',
    'verified',
    'unknown',
    'code',
    'errorCode',
    'targets',
    'stateOnly',
    'trust',
    'discovered',
    'fields',
    'orphanedBy',
    'creates',
    'created',
    'egress',
    'digest',
    'check',
    'delegates',
    'text',
    'source',
    'evidence',
    'reasonCode',
    'by',
    'note',
  ].map((k) => [k, `call.${k}`]),
);

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
  return validCall(method, recorded, CALL_NAMES);
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
  return validCall('endToolCall', call, RESULT_NAMES);
}
