/*
 * How a safety session checks what it is given: every call against the recording format's own schema,
 * errors that name the argument as the method's signature has it, and nothing applied on a bad one.
 */
import { quickCheckCall } from './quickCheckEntry.js';
import { RecordedCall, RecordingEntry } from './RecordingEntry.js';
import { formatPath, pollutedKey, pollutionMessage, safeParseInput } from '../core/Issue.js';
import { argumentProblem, COULD_NOT_READ, keysOf } from '../core/knownKeys.js';
import type {
  LoopBlock,
  SafetySession,
  SafetySessionOptions,
  TargetSource,
  ToolCallEnd,
  ToolCallStart,
} from './SafetySessionTypes.js';
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

/** The fields of each method's object argument, and the session's options. */
const START_KEYS = keysOf<ToolCallStart>({
  id: true,
  kind: true,
  tool: true,
  targets: true,
  stateOnly: true,
  trust: true,
  creates: true,
  created: true,
  egress: true,
  digest: true,
  check: true,
  delegates: true,
});
const END_KEYS = keysOf<ToolCallEnd>({
  id: true,
  ok: true,
  verified: true,
  unknown: true,
  discovered: true,
  orphanedBy: true,
});
const BLOCK_KEYS = keysOf<LoopBlock>({ id: true, kind: true, tool: true, code: true });
const ATTESTATION_KEYS = keysOf<Parameters<SafetySession['attest']>[1]>({ by: true, note: true });
export const SESSION_OPTION_KEYS = keysOf<SafetySessionOptions>({
  now: true,
  recoveryTtlMs: true,
  failedWriteRequiresVerification: true,
  recorder: true,
  id: true,
  machine: true,
  onRecorderError: true,
  onListenerError: true,
  onWarning: true,
  targets: true,
  mode: true,
  profile: true,
  executor: true,
});

/**
 * Reads a method's object argument with `read` (which copies the fields it needs), after refusing
 * what cannot be taken at face value: not an object, a polluted prototype, an object whose fields
 * throw when read (a hostile Proxy or getter), or a field its type does not have, named with the
 * field it looks like. A misspelt field is never ignored: a misspelt `targets` would leave a write
 * unbound, a misspelt `trust` would let open-world output validate targets, a misspelt `mode` would
 * give another gate than the one asked for.
 */
function readArgument<T>(
  path: string,
  value: unknown,
  keys: ReadonlySet<string>,
  read: (value: Record<string, unknown>) => T,
): T {
  checkObject(path, value);
  const problem = argumentProblem(path, value, keys);
  if (problem !== undefined) throw new SafetyInputError(problem.path, problem.message);
  try {
    return read(value);
  } catch {
    throw new SafetyInputError(path, COULD_NOT_READ);
  }
}

/** The options a session calls back: each must be a function, or the first call fails far from its cause. */
const CALLBACK_OPTIONS = ['onRecorderError', 'onListenerError', 'onWarning'] as const;

/**
 * Refuses session options that cannot be read, that name an option the session does not have, or
 * whose value the session would only find wrong on its first call (a recorder without `record`, a
 * callback that is no function, a machine that is none), so the error names the option at once.
 */
export function checkOptions(options: unknown): void {
  const o = readArgument('options', options, SESSION_OPTION_KEYS, (v) => ({
    recorder: v['recorder'],
    machine: v['machine'],
    callbacks: [v[CALLBACK_OPTIONS[0]], v[CALLBACK_OPTIONS[1]], v[CALLBACK_OPTIONS[2]]],
  }));
  const recorder = o.recorder as { record?: unknown } | null | undefined;
  if (
    recorder !== undefined &&
    (typeof recorder !== 'object' || recorder === null || typeof recorder.record !== 'function')
  )
    throw new SafetyInputError(
      'options.recorder',
      `expected a recorder, an object with a record(entry) function (createMemoryRecorder, createFileRecorder), got ${describe(recorder)}`,
    );
  for (let i = 0; i < CALLBACK_OPTIONS.length; i++) {
    const value = o.callbacks[i];
    if (value !== undefined && typeof value !== 'function')
      throw new SafetyInputError(`options.${CALLBACK_OPTIONS[i]}`, `expected a function, got ${describe(value)}`);
  }
  const machine = o.machine as { getInitialSnapshot?: unknown; transition?: unknown } | null | undefined;
  if (
    machine !== undefined &&
    (typeof machine !== 'object' ||
      machine === null ||
      typeof machine.getInitialSnapshot !== 'function' ||
      typeof machine.transition !== 'function')
  )
    throw new SafetyInputError(
      'options.machine',
      `expected a machine (safetyMachine, or createSafetyMachine(definition)), got ${describe(machine)}`,
    );
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
  if (quickCheckCall(call)) return call;
  const schema = CALL_SCHEMAS.get((call as { type?: unknown }).type as string);
  if (!schema)
    throw new SafetyInputError(`${method}: call.type`, `expected a session call, got ${describe(call.type)}`);
  const parsed = safeParseInput(schema, call);
  if (parsed.success) return parsed.data as C;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length ? String(issue.path[0]) : '';
  // The value the issue is about: a field, or an element inside one (`call.targets[0]`).
  let got: unknown = call;
  for (const key of issue.path) {
    const desc = typeof got === 'object' && got !== null ? Object.getOwnPropertyDescriptor(got, key) : undefined;
    got = desc && 'value' in desc ? desc.value : undefined;
  }
  const name =
    (names[field] ?? (argument !== undefined && field ? `${argument}.${field}` : field)) +
    formatPath(['_', ...issue.path.slice(1)]).slice(1);
  // A wrong type's message says what it received already; a missing field is said to be missing.
  const message =
    issue.code !== 'invalid_type'
      ? `${issue.message}, got ${sizeOf(got)}`
      : got === undefined && field
        ? `missing: expected ${String(issue.expected)}`
        : issue.message;
  throw new SafetyInputError(`${method}: ${name}`, message);
}

/** A value as an error names it: a string or a list by its length when it is long, else {@link describe}. */
function sizeOf(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} items`;
  if (typeof value === 'string' && value.length > 64) return `a string of ${value.length} characters`;
  return describe(value);
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
  const recorded = readArgument(`${method}: call`, call, START_KEYS, (c) => {
    const { id, kind, tool, targets, stateOnly, trust, creates, created, egress, digest, check, delegates } =
      c as unknown as ToolCallStart;
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
    return recorded;
  });
  return validCall(method, recorded, {}, 'call');
}

/** `endToolCall`'s argument as the recorded call, checked. */
export function endCallOf(result: ToolCallEnd): RecordedCall {
  const call = readArgument('endToolCall: result', result, END_KEYS, (r) => {
    const { id, ok, verified, unknown, discovered, orphanedBy } = r as unknown as ToolCallEnd;
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
    return call;
  });
  return validCall('endToolCall', call, RESULT_NAMES, 'result');
}

/** A call with the named fields of a method's `options` argument, checked; errors name `options.<field>`. */
function withOptions(call: RecordedCall, options: object | undefined, fields: ReadonlySet<string>): RecordedCall {
  if (options !== undefined)
    readArgument(`${call.type}: options`, options, fields, (o) => {
      for (const field of fields) if (o[field] !== undefined) (call as Record<string, unknown>)[field] = o[field];
    });
  return validCall(call.type, call, { text: 'text' }, 'options');
}

const ESTABLISH_KEYS = keysOf<NonNullable<Parameters<SafetySession['targetEstablished']>[0]>>({
  targets: true,
  source: true,
});
const MESSAGE_KEYS = keysOf<NonNullable<Parameters<SafetySession['userMessage']>[1]>>({ source: true });

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
    return withOptions({ type: 'targetEstablished' }, options, ESTABLISH_KEYS);
  },
  userMessage(text: string, options?: { source?: 'user' | 'system' }): RecordedCall {
    return withOptions({ type: 'userMessage', text }, options, MESSAGE_KEYS);
  },
  trackPendingRecovery(errorCode: string, tool: string): RecordedCall {
    return validCall('trackPendingRecovery', { type: 'trackPendingRecovery', errorCode, tool }, { tool: 'toolName' });
  },
  checkRecoverySuccess(tool: string): RecordedCall {
    return validCall('checkRecoverySuccess', { type: 'checkRecoverySuccess', tool }, { tool: 'toolName' });
  },
  recordLoopBlock(block: LoopBlock): RecordedCall {
    const call = readArgument('recordLoopBlock: block', block, BLOCK_KEYS, (b): RecordedCall => {
      const { id, kind, tool, code } = b as unknown as LoopBlock;
      return { type: 'recordLoopBlock', id, kind, tool, code };
    });
    return validCall('recordLoopBlock', call, BLOCK_NAMES);
  },
  /** `undefined` for a block no person can lift (a write in flight, a profile's refusal). */
  attest(block: FSMBlockedError, attestation: { by: string; note?: string }): RecordedCall | undefined {
    checkObject('attest: block', block);
    const { by, note } = readArgument('attest: attestation', attestation, ATTESTATION_KEYS, (a) => ({
      by: a.by as string,
      note: a.note as string | undefined,
    }));
    const reasonCode = safeParseInput(BlockReasonCode, block.reasonCode);
    if (!reasonCode.success)
      throw new SafetyInputError(
        'attest: block.reasonCode',
        `expected a block reason code, got ${describe(block.reasonCode)}`,
      );
    const evidence = evidenceFor(reasonCode.data);
    if (evidence === undefined) return undefined;
    const call: RecordedCall = { type: 'attest', reasonCode: reasonCode.data, evidence, by };
    if (evidence === 'target' && block.targets !== undefined && block.targets.length > 0)
      call.targets = [...block.targets];
    if (note !== undefined) call.note = note;
    if (typeof block.digest === 'string') call.digest = block.digest;
    return validCall('attest', call, { by: 'attestation.by', note: 'attestation.note' });
  },
};
