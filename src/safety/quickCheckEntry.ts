import { Decision, LoopBlockCode } from './RecordingEntry.js';
import { MAX_CALL_TARGETS, MAX_TARGET_LENGTH } from './SafetyContext.js';
import { BlockReasonCode, SessionState, ToolKind } from './toolKind.js';

/*
 * A fast, allocation-free pre-check of a JSON value against `RecordingEntry`,
 * for the replay hot path. It is one-sided: `true` means zod's
 * `RecordingEntry.safeParse` accepts the value and returns an equal one (every
 * field checked the same way: exact keys, types, enums, safe non-negative
 * integers, finite numbers, non-empty strings); `false` means "not sure", and
 * the caller runs zod, which stays the judge of what a valid entry is and
 * writes the error message. `create` and `restore` entries (one per session)
 * always go to zod. test/core/recordingQuickCheck.test.ts checks both
 * directions over mutated entries.
 */

// The enums' values come from the zod schemas, so a new value needs no edit here.
const TOOL_KINDS: ReadonlySet<unknown> = new Set(ToolKind.options);
const STATES: ReadonlySet<unknown> = new Set(SessionState.options);
const REASONS: ReadonlySet<unknown> = new Set([...BlockReasonCode.options, ...LoopBlockCode.options]);
const DECISIONS: ReadonlySet<unknown> = new Set(Decision.options);

type Obj = Record<string, unknown>;

const isObject = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

function keyCount(o: Obj): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

/** `z.int().check(z.nonnegative())`: a safe integer ≥ 0. */
const isCount = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
/** `z.number()`: finite (zod rejects NaN and ±Infinity; JSON.parse makes Infinity of `1e400`). */
const isNumber = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
const isName = (x: unknown) => typeof x === 'string' && x.length > 0;

/** `CallTargets`: an array of at most {@link MAX_CALL_TARGETS} non-empty strings of at most {@link MAX_TARGET_LENGTH}. */
function isTargets(x: unknown): boolean {
  if (!Array.isArray(x) || x.length > MAX_CALL_TARGETS) return false;
  for (const t of x) if (typeof t !== 'string' || t.length === 0 || t.length > MAX_TARGET_LENGTH) return false;
  return true;
}

/**
 * The call of an entry (`RecordedCall`), by the same one-sided rule: true only
 * if zod's `RecordedCall.safeParse` accepts it unchanged. The session checks
 * API input with it before asking zod to word an error.
 */
// Each check counts the object's keys and verifies exactly that many known ones: no unknown key gets through.
export function quickCheckCall(c: unknown): boolean {
  if (!isObject(c)) return false;
  const n = keyCount(c);
  switch (c.type) {
    case 'canExecuteTool':
    case 'onToolSuccess':
      return n === 3 && TOOL_KINDS.has(c.kind) && isName(c.tool);
    case 'canFinalAnswer':
    case 'completeVerification':
    case 'targetEstablished':
    case 'reset':
    case 'resetKeepProgress':
      return n === 1;
    case 'trackPendingRecovery':
      return n === 3 && typeof c.errorCode === 'string' && isName(c.tool);
    case 'checkRecoverySuccess':
      return n === 2 && isName(c.tool);
    case 'beginToolCall': {
      let keys = 4;
      if (c.targets !== undefined) {
        if (!isTargets(c.targets)) return false;
        keys++;
      }
      if (c.stateOnly !== undefined) {
        if (typeof c.stateOnly !== 'boolean') return false;
        keys++;
      }
      if (c.trust !== undefined) {
        if (c.trust !== 'untrusted') return false;
        keys++;
      }
      return n === keys && isName(c.id) && TOOL_KINDS.has(c.kind) && isName(c.tool);
    }
    case 'recordLoopBlock':
      return n === 5 && isName(c.id) && TOOL_KINDS.has(c.kind) && isName(c.tool) && REASONS.has(c.code);
    case 'endToolCall': {
      let keys = 3;
      if (c.verified !== undefined) {
        if (typeof c.verified !== 'boolean') return false;
        keys++;
      }
      if (c.unknown !== undefined) {
        if (typeof c.unknown !== 'boolean') return false;
        keys++;
      }
      if (c.discovered !== undefined) {
        if (!isTargets(c.discovered)) return false;
        keys++;
      }
      return n === keys && isName(c.id) && typeof c.ok === 'boolean';
    }
    default:
      return false; // create, restore (their config and snapshot are zod's) and anything unknown
  }
}

function checkInFlightWrite(w: unknown): boolean {
  return (
    w === null ||
    (isObject(w) &&
      keyCount(w) === 3 &&
      typeof w.id === 'string' &&
      typeof w.tool === 'string' &&
      isNumber(w.startedAt))
  );
}

function checkContext(c: unknown): boolean {
  return (
    isObject(c) &&
    keyCount(c) === 11 &&
    typeof c.wroteThisEpisode === 'boolean' &&
    typeof c.readAfterWrite === 'boolean' &&
    isCount(c.consecutiveVerifyBlocks) &&
    isCount(c.writeEpoch) &&
    isCount(c.inFlight) &&
    checkInFlightWrite(c.inFlightWrite) &&
    (c.lastWriteTool === null || typeof c.lastWriteTool === 'string') &&
    (c.lastWriteAt === null || isNumber(c.lastWriteAt)) &&
    (c.lastReadTool === null || typeof c.lastReadTool === 'string') &&
    (c.lastReadAt === null || isNumber(c.lastReadAt)) &&
    isCount(c.pendingRecoveries)
  );
}

/**
 * True only if `RecordingEntry.safeParse(value)` succeeds with data equal to
 * `value`; false when the value is invalid or the check cannot tell (ask zod).
 */
export function quickCheckEntry(value: unknown): boolean {
  if (!isObject(value)) return false;
  let keys = 9; // v, session, seq, at, call, decision, before, after, context
  if (value.reasonCode !== undefined) {
    if (!REASONS.has(value.reasonCode)) return false;
    keys++;
  }
  if (value.result !== undefined) {
    if (typeof value.result !== 'string') return false;
    keys++;
  }
  if (value.note !== undefined) {
    if (typeof value.note !== 'string') return false;
    keys++;
  }
  return (
    keyCount(value) === keys &&
    value.v === 1 &&
    isName(value.session) &&
    isCount(value.seq) &&
    isNumber(value.at) &&
    DECISIONS.has(value.decision) &&
    STATES.has(value.before) &&
    STATES.has(value.after) &&
    quickCheckCall(value.call) &&
    checkContext(value.context)
  );
}
