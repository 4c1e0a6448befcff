import { eventOfCall } from '../safety/eventOfCall.js';
import { callDigest } from '../safety/userWords.js';
import { applyCall } from '../index.js';
import type { RecordedBlockCode, RecordedCall } from '../safety/RecordingEntry.js';
import type { InFlightCall, SafetyConfig, SafetyContext } from '../safety/SafetyContext.js';
import type { SafetyEvent } from '../safety/SafetyEvent.js';
import type { FSMBlockedError } from '../safety/FSMBlockedError.js';
import type { SafetySession } from '../safety/SafetySessionTypes.js';
import { TOOL_KINDS, type ToolKind } from '../safety/toolKind.js';

/*
 * A move is what a test does to a session, independent of call ids and
 * clock readings: "begin a read", "the read that began before the write
 * ends ok". The same move becomes a machine event (for the graph) or a
 * session API call (for the system under test), picking the concrete call id
 * from the context it is applied to.
 */

/** Whether an in-flight call began at the current write epoch or before the last write landed. */
type Epoch = 'now' | 'stale';

/**
 * What a call says of itself besides its kind: the abstract targets it names (`t1`, `t2`; absent:
 * none), whether it is a state-only write, whether its tool is untrusted. Two targets and "none"
 * are enough for every guard: a guard compares targets with each other, never reads them.
 */
interface CallFacts {
  targets?: readonly string[];
  stateOnly?: true;
  untrusted?: true;
  /** An egress read: its targets are destinations data goes to. */
  egress?: true;
  /** A creating write: the targets it creates (the rest it names must be validated). */
  creates?: readonly string[];
  /** A project-wide check (the coding profile's evidence for every edited file). */
  check?: true;
  /** A subagent (the coding profile: its end makes every file need a read again). */
  delegates?: true;
}

export type Move =
  | { type: 'check'; kind: ToolKind; targets?: readonly string[] }
  | ({ type: 'begin'; kind: ToolKind } & CallFacts)
  | ({
      type: 'end';
      kind: ToolKind;
      epoch: Epoch;
      ok: boolean;
      verified?: boolean;
      unknown?: boolean;
      /** Targets the result revealed (`discovered`). */
      reveals?: readonly string[];
      /** The call ran ungated (shadow mode): the gate would have blocked it. */
      ungated?: true;
    } & CallFacts)
  | { type: 'succeed'; kind: ToolKind; targets?: readonly string[] }
  | { type: 'finalAnswer' }
  | { type: 'completeVerification' }
  | { type: 'targetEstablished'; targets?: readonly string[] }
  | {
      type: 'attest';
      evidence: 'target' | 'verification';
      targets?: readonly string[];
      /** A person's approval of the config's plain write, bound to its digest (the block it answers). */
      approves?: true;
    }
  | { type: 'userMessage'; targets: readonly string[] }
  | { type: 'reset' }
  | { type: 'resetKeepProgress' }
  | { type: 'trackRecovery' }
  | { type: 'checkRecovery' };

/** One tool per kind, so paths read like a session. */
const TOOL_OF: Record<ToolKind, string> = {
  resolve: 'find_vm',
  read: 'get_logs',
  write: 'restart_vm',
  user_input: 'ask_user',
};
/** The tools of the variants: a state-only write files a finding; an untrusted read fetches a web page. */
const STATE_ONLY_TOOL = 'report_finding';
const UNTRUSTED_TOOL = 'fetch_page';
/** An egress read posts to a URL; a creating write opens a ticket that names a recipient. */
const EGRESS_TOOL = 'post_webhook';
const CREATING_TOOL = 'open_ticket';
/** The coding profile's project-wide check runs the tests. */
const CHECK_TOOL = 'run_tests';
/** The coding profile's subagent. */
const SUBAGENT_TOOL = 'run_subagent';

const toolOf = (kind: ToolKind, facts: CallFacts = {}) =>
  facts.stateOnly
    ? STATE_ONLY_TOOL
    : facts.untrusted
      ? UNTRUSTED_TOOL
      : facts.egress
        ? EGRESS_TOOL
        : facts.creates
          ? CREATING_TOOL
          : facts.check
            ? CHECK_TOOL
            : facts.delegates
              ? SUBAGENT_TOOL
              : TOOL_OF[kind];

/** The error code a hand-tracked recovery carries in generated paths. */
const TRACKED_ERROR_CODE = 'TOOL_ERROR';
/** Who attests in generated paths. */
const ATTESTER = 'qa-lead';

const KIND_WORD: Record<ToolKind, string> = {
  resolve: 'resolve',
  read: 'read',
  write: 'write',
  user_input: 'user input',
};

const targetsText = (targets: readonly string[] | undefined) => (targets ? ` [${targets.join(', ')}]` : '');

/** A call in words: `write`, `write [t1, t2]`, `write (state-only)`, `read [t2] (untrusted)`. */
function callText(kind: ToolKind, facts: CallFacts): string {
  return `${KIND_WORD[kind]}${targetsText(facts.targets)}${facts.stateOnly ? ' (state-only)' : ''}${facts.untrusted ? ' (untrusted)' : ''}${facts.egress ? ' (egress)' : ''}${facts.creates ? (facts.creates.length ? ` (creates ${facts.creates.join(', ')})` : ' (creates)') : ''}${facts.check ? ' (check)' : ''}${facts.delegates ? ' (subagent)' : ''}`;
}

/**
 * A short readable label, unique per move: `begin write`, `read ok (began before the write)`,
 * `begin write [t1, t2]`, `attest verification`.
 *
 * @example
 * moveLabel({ type: 'begin', kind: 'write' }); // 'begin write'
 */
export function moveLabel(move: Move): string {
  switch (move.type) {
    case 'check':
      return `check ${callText(move.kind, move)}`;
    case 'begin':
      return `begin ${callText(move.kind, move)}`;
    case 'end': {
      const outcome = move.ok
        ? move.verified
          ? 'ok, self-verified'
          : 'ok'
        : move.unknown
          ? 'outcome unknown'
          : 'fails';
      const reveals = move.reveals ? `, reveals ${move.reveals.join(', ')}` : '';
      return `${callText(move.kind, move)} ${outcome}${reveals}${move.epoch === 'stale' ? ' (began before the write)' : ''}${move.ungated ? ' (ran ungated)' : ''}`;
    }
    case 'succeed':
      return `onToolSuccess ${callText(move.kind, move)}`;
    case 'finalAnswer':
      return 'final answer';
    case 'completeVerification':
      return 'complete verification';
    case 'targetEstablished':
      return `target established${targetsText(move.targets)}`;
    case 'attest':
      return `attest ${move.evidence}${targetsText(move.targets)}${move.approves ? ' (approves write)' : ''}`;
    case 'userMessage':
      return `user says ${move.targets.join(', ')}`;
    case 'reset':
      return 'reset';
    case 'resetKeepProgress':
      return 'reset keeping progress';
    case 'trackRecovery':
      return 'track recovery';
    case 'checkRecovery':
      return 'check recovery';
  }
}

const epochOf = (context: SafetyContext, callEpoch: number): Epoch =>
  callEpoch === context.writeEpoch ? 'now' : 'stale';

/** The facts of a call as begun (only those set). */
function factsOf(call: Omit<CallFacts, 'creates'> & { creates?: readonly string[] | undefined }): CallFacts {
  return {
    ...(call.targets !== undefined && { targets: call.targets }),
    ...(call.stateOnly && { stateOnly: true as const }),
    ...(call.untrusted && { untrusted: true as const }),
    ...(call.egress && { egress: true as const }),
    ...(call.creates && { creates: call.creates }),
    ...(call.check && { check: true as const }),
    ...(call.delegates && { delegates: true as const }),
  };
}

const sameTargets = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  (a ?? []).join(',') === (b ?? []).join(',') && (a === undefined) === (b === undefined);

/** The id of an in-flight (or ungated) call matching an `end` move, the first in begin order. */
function callIdFor(context: SafetyContext, move: Extract<Move, { type: 'end' }>): string | undefined {
  const calls = move.ungated ? context.shadowCalls : context.calls;
  for (const id in calls) {
    const call = calls[id]!;
    if (
      call.kind === move.kind &&
      epochOf(context, call.epoch) === move.epoch &&
      sameTargets(call.targets, move.targets) &&
      call.stateOnly === move.stateOnly &&
      call.untrusted === move.untrusted &&
      call.egress === move.egress &&
      call.check === move.check &&
      call.delegates === move.delegates &&
      sameTargets(call.creates ? (call.created ?? []) : undefined, move.creates)
    )
      return id;
  }
  return undefined;
}

/** A call id not in flight (gated or not): `c1`, `c2`, ... */
function freshCallId(context: SafetyContext): string {
  for (let n = 1; ; n++) {
    const id = `c${n}`;
    if (!Object.hasOwn(context.calls, id) && !Object.hasOwn(context.shadowCalls, id)) return id;
  }
}

/** The shape of a call in flight: `read@now`, `write[t1,t2]@now`, `write(state-only)@stale`, `read[t2](untrusted)@now`. */
export const shapeOf = (context: SafetyContext, call: InFlightCall) =>
  `${call.kind}${call.targets ? `[${call.targets.join(',')}]` : ''}${call.stateOnly ? '(state-only)' : ''}${call.untrusted ? '(untrusted)' : ''}${call.egress ? '(egress)' : ''}${call.creates ? `(creates${call.created ? ` ${call.created.join(',')}` : ''})` : ''}${call.check ? '(check)' : ''}${call.delegates ? '(subagent)' : ''}@${epochOf(context, call.epoch)}`;

/** The in-flight calls (or, with `ungated`, the calls running ungated) by shape, counted. */
export function callShapes(context: SafetyContext, ungated = false): Map<string, number> {
  const shapes = new Map<string, number>();
  const calls = ungated ? context.shadowCalls : context.calls;
  for (const id in calls) {
    const key = shapeOf(context, calls[id]!);
    shapes.set(key, (shapes.get(key) ?? 0) + 1);
  }
  return shapes;
}

export interface MoveOptions {
  /** Most calls of one kind in flight at once that exploration begins. Default 2 (1 with target binding). */
  maxCallsPerKind?: number;
  /** Most calls in flight at once (ungated ones included) that exploration begins. Default 2. */
  maxCallsInFlight?: number;
}

/**
 * The moves tried under one session config: which calls begin, which are checked or reported
 * through the compatible API, which targets are established or attested, which results reveal
 * targets. Each setting adds only the variants its guards can tell apart, which keeps the graph small.
 */
interface MoveSet {
  /** `alone`: begun only when nothing else runs. */
  begins: Array<{ kind: ToolKind; alone?: true } & CallFacts>;
  checks: Array<{ kind: ToolKind; targets?: readonly string[] }>;
  successes: Array<{ kind: ToolKind; targets?: readonly string[] }>;
  established: Array<readonly string[] | undefined>;
  attests: Array<Extract<Move, { type: 'attest' }>>;
  /** What the user says: the targets named in their words. */
  userMessages: Array<readonly string[]>;
  /** Targets a successful resolve or write on the world may reveal, besides revealing none. */
  reveals?: readonly string[];
  /** Whether recoveries are tracked and checked by hand (and so told apart in configurations). */
  recoveries: boolean;
  perKind: number;
}

const plain = TOOL_KINDS.map((kind) => ({ kind }));
const STATE_ONLY_WRITE = { kind: 'write' as const, stateOnly: true as const };
const T1 = ['t1'] as const;
const T2 = ['t2'] as const;
const T12 = ['t1', 't2'] as const;
/** The coding profile's files: two, as a check covers every one and a read only its own. */
const FA = ['file:a'] as const;
const FB = ['file:b'] as const;

/**
 * The moves of a session config. The seed's settings try every kind (and a state-only write);
 * target binding tries targets (`t1`, `t2`, both, none), an untrusted read and revealed targets;
 * a profile tries state-only writes; shadow mode tries the writes the gate would block.
 *
 * @example
 * moveSetOf({ ...DEFAULT_CONFIG, targets: 'bind' }).begins.length; // 5
 */
export function moveSetOf(config: SafetyConfig): MoveSet {
  const attests: MoveSet['attests'] = [
    { type: 'attest', evidence: 'target' },
    { type: 'attest', evidence: 'verification' },
  ];
  if (config.profile === 'coding')
    return {
      // A read of one file, a check, an edit of it and one that creates the other (a read of one
      // file then covers only it), a write on the world (a push: no file targets), the todo list, a subagent.
      begins: [
        { kind: 'read', targets: FA },
        { kind: 'read', check: true },
        { kind: 'write', targets: FA },
        { kind: 'write', targets: FB, creates: FB },
        { kind: 'write' },
        STATE_ONLY_WRITE,
        { kind: 'user_input', delegates: true },
        // A question to the user: a user_input that is no subagent, whose end forgets nothing.
        { kind: 'user_input', alone: true },
      ],
      checks: [],
      successes: [],
      established: [],
      attests: [
        { type: 'attest', evidence: 'verification' },
        { type: 'attest', evidence: 'target', targets: FB },
      ],
      userMessages: [],
      recoveries: false,
      perKind: 1,
    };
  if (config.targets === 'bind')
    return {
      begins: [
        { kind: 'resolve' },
        { kind: 'read', targets: T1 },
        { kind: 'read', targets: T2, untrusted: true },
        { kind: 'write', targets: T1 },
        { kind: 'write', targets: T12 },
        { kind: 'read', targets: T2, egress: true },
        { kind: 'write', targets: T12, creates: T2 },
        { kind: 'write', creates: [] },
      ],
      checks: [
        { kind: 'write', targets: T1 },
        { kind: 'write', targets: T12 },
      ],
      successes: [
        { kind: 'read', targets: T2 },
        { kind: 'write', targets: T12 },
      ],
      established: [undefined, T2],
      // A verification attested with targets (the recording vocabulary allows it) must validate none.
      attests: [
        { type: 'attest', evidence: 'target', targets: T2 },
        { type: 'attest', evidence: 'verification', targets: T2 },
      ],
      userMessages: [T1],
      reveals: T2,
      recoveries: false,
      perKind: 1,
    };
  if (config.mode === 'shadow')
    return {
      begins: [{ kind: 'resolve' }, { kind: 'read' }, { kind: 'write' }],
      checks: [{ kind: 'write' }],
      successes: [],
      established: [],
      attests: [],
      userMessages: [],
      recoveries: false,
      // Two writes: one in flight and one the gate refused that runs ungated beside it.
      perKind: 2,
    };
  if (config.profile === 'detection' || config.profile === 'investigation')
    return {
      begins: [{ kind: 'read' }, { kind: 'write' }, STATE_ONLY_WRITE],
      checks: [{ kind: 'write' }],
      successes: [{ kind: 'read' }, { kind: 'write' }],
      established: [],
      attests: [],
      userMessages: [],
      recoveries: false,
      perKind: 2,
    };
  return {
    begins: config.failedWriteRequiresVerification ? plain : [...plain, STATE_ONLY_WRITE],
    checks: plain,
    successes: plain,
    established: [undefined],
    attests: [
      ...attests,
      { type: 'attest', evidence: 'target', approves: true },
      { type: 'attest', evidence: 'verification', approves: true },
    ],
    userMessages: [],
    recoveries: true,
    perKind: 2,
  };
}

/**
 * Every move worth trying from a context: checks, begins (of the variants the session config
 * tells apart), an end (ok, failed, and self-verified or unknown for writes) for each shape of
 * call in flight or running ungated, compatible-API successes, evidence, resets and recoveries.
 *
 * @example
 * movesFrom(initialContext()).map(moveLabel); // ['check resolve', 'check read', 'check write', ...]
 */
export function movesFrom(context: SafetyContext, options: MoveOptions = {}): Move[] {
  const set = moveSetOf(context.config);
  const perKind = options.maxCallsPerKind ?? set.perKind;
  const total = options.maxCallsInFlight ?? 2;
  const moves: Move[] = [];
  const inFlight = Object.values(context.calls);
  const ungated = Object.values(context.shadowCalls);
  const running = [...inFlight, ...ungated];
  for (const check of set.checks) moves.push({ type: 'check', ...check });
  const runsAlone = (call: InFlightCall) =>
    set.begins.some((b) => (b.alone || b.delegates) && b.kind === call.kind && !!b.delegates === !!call.delegates);
  for (const { alone, ...begin } of set.begins) {
    // A subagent runs alone (its own calls are gated one by one anyway): that reaches both sides of
    // its guard and action at a fraction of the graph a subagent beside every other call costs.
    if (((begin.delegates || alone) && running.length > 0) || running.some(runsAlone)) continue;
    if (running.length < total && running.filter((c) => c.kind === begin.kind).length < perKind)
      moves.push({ type: 'begin', ...begin });
  }
  const ends = (calls: InFlightCall[], ran: { ungated?: true }) => {
    const seen = new Set<string>();
    for (const call of calls) {
      const epoch = epochOf(context, call.epoch);
      const key = shapeOf(context, call);
      if (seen.has(key)) continue;
      seen.add(key);
      const { created, ...rest } = call;
      const base = {
        type: 'end' as const,
        kind: call.kind,
        epoch,
        ...factsOf({ ...rest, creates: rest.creates ? (created ?? []) : undefined }),
        ...ran,
      };
      const world = call.kind === 'write' && !call.stateOnly;
      moves.push({ ...base, ok: true });
      if (set.reveals && (call.kind === 'resolve' || world)) moves.push({ ...base, ok: true, reveals: set.reveals });
      if (world && !ran.ungated) moves.push({ ...base, ok: true, verified: true });
      if (world && set.reveals) moves.push({ ...base, ok: true, verified: true, reveals: set.reveals });
      moves.push({ ...base, ok: false });
      // A timed-out or aborted write: its tool may have acted.
      if (world) moves.push({ ...base, ok: false, unknown: true });
    }
  };
  ends(inFlight, {});
  ends(ungated, { ungated: true });
  for (const success of set.successes) moves.push({ type: 'succeed', ...success });
  moves.push({ type: 'finalAnswer' }, { type: 'completeVerification' });
  for (const targets of set.established) moves.push({ type: 'targetEstablished', ...(targets && { targets }) });
  moves.push(...set.attests, { type: 'reset' }, { type: 'resetKeepProgress' });
  for (const targets of set.userMessages) moves.push({ type: 'userMessage', targets });
  if (set.recoveries) moves.push({ type: 'trackRecovery' }, { type: 'checkRecovery' });
  return moves;
}

/**
 * The session API call a move stands for in a context, with the concrete call
 * id it picks; undefined for an end with no matching call in flight.
 */
function callOfMove(move: Move, context: SafetyContext): RecordedCall | undefined {
  switch (move.type) {
    case 'check':
      return {
        type: 'canExecuteTool',
        kind: move.kind,
        tool: TOOL_OF[move.kind],
        ...(move.targets && { targets: [...move.targets] }),
      };
    case 'begin':
      return {
        type: 'beginToolCall',
        id: freshCallId(context),
        kind: move.kind,
        tool: toolOf(move.kind, move),
        ...(move.targets && { targets: [...move.targets] }),
        ...(move.stateOnly && { stateOnly: true }),
        ...(move.untrusted && { trust: 'untrusted' as const }),
        ...(move.egress && { egress: true }),
        ...(move.creates && { creates: true, ...(move.creates.length > 0 && { created: [...move.creates] }) }),
        ...(move.check && { check: true }),
        ...(move.delegates && { delegates: true }),
      };
    case 'end': {
      const id = callIdFor(context, move);
      if (id === undefined) return undefined;
      return {
        type: 'endToolCall',
        id,
        ok: move.ok,
        ...(move.verified && { verified: true }),
        ...(move.unknown && { unknown: true }),
        ...(move.reveals && { discovered: [...move.reveals] }),
      };
    }
    case 'succeed':
      return {
        type: 'onToolSuccess',
        kind: move.kind,
        tool: TOOL_OF[move.kind],
        ...(move.targets && { targets: [...move.targets] }),
      };
    case 'finalAnswer':
      return { type: 'canFinalAnswer' };
    case 'targetEstablished':
      return move.targets ? { type: move.type, targets: [...move.targets], source: 'user' } : { type: move.type };
    case 'attest':
      // An approval answers the block of the config's plain write and carries its digest; the
      // others supply targets, or verify the last write for the final answer.
      return {
        type: 'attest',
        evidence: move.evidence,
        reasonCode: move.approves
          ? move.evidence === 'target'
            ? 'NO_VALIDATED_TARGET'
            : 'UNVERIFIED_WRITE'
          : move.evidence === 'target'
            ? 'TARGET_NOT_VALIDATED'
            : 'FINAL_ANSWER_UNVERIFIED',
        ...(move.targets && { targets: [...move.targets] }),
        ...(move.approves && { digest: callDigest({ tool: TOOL_OF.write }) }),
        by: ATTESTER,
      };
    case 'userMessage':
      return { type: 'userMessage', text: `please see to ${move.targets.join(' and ')}` };
    case 'completeVerification':
    case 'reset':
    case 'resetKeepProgress':
      return { type: move.type };
    case 'trackRecovery':
      return { type: 'trackPendingRecovery', errorCode: TRACKED_ERROR_CODE, tool: TOOL_OF.write };
    case 'checkRecovery':
      return { type: 'checkRecoverySuccess', tool: TOOL_OF.write };
  }
}

/**
 * The machine event a move stands for in a context, or undefined (an end with no matching call).
 *
 * @example
 * moveToEvent({ type: 'begin', kind: 'write' }, initialContext(), 5);
 * // { type: 'BEGIN_CALL', id: 'c1', kind: 'write', tool: 'restart_vm', at: 5 }
 */
export function moveToEvent(move: Move, context: SafetyContext, at: number): SafetyEvent | undefined {
  const call = callOfMove(move, context);
  return call && eventOfCall(call, at, context);
}

/** What a session API call returned, as far as a path test compares it. */
export interface MoveResult {
  /** The session method called, with its arguments. */
  call: string;
  /** For checks: null when allowed, else the block. */
  blocked?: FSMBlockedError | null;
  /** Shadow mode: the call was allowed, and enforcement would have blocked it for this reason. */
  wouldBlock?: RecordedBlockCode;
}

/** A call as a failure message shows it: `beginToolCall(c1, write, restart_vm)`, `endToolCall(c1, ok: true)`. */
function describeCall(call: RecordedCall): string {
  const args = Object.entries(call)
    .filter(([key]) => key !== 'type')
    .map(([key, value]) =>
      typeof value === 'boolean'
        ? `${key}: ${value}`
        : Array.isArray(value)
          ? `${key}: [${value.join(', ')}]`
          : String(value),
    );
  return `${call.type}(${args.join(', ')})`;
}

/**
 * Applies a move to a real session through its public API (the system under
 * test), with the same call mapping a replay uses ({@link applyCall}): checks
 * through `canExecuteTool`/`canFinalAnswer`, calls through
 * `beginToolCall`/`endToolCall`, successes through `onToolSuccess`.
 *
 * @example
 * const session = createSafetySession();
 * applyMove(session, { type: 'begin', kind: 'write' }).blocked?.reasonCode; // 'NO_VALIDATED_TARGET'
 */
export function applyMove(session: SafetySession, move: Move): MoveResult {
  const call = callOfMove(move, session.context);
  if (!call) throw new Error(`no call in flight matches "${moveLabel(move)}"`);
  const outcome = applyCall(session, call);
  const decides = call.type === 'canExecuteTool' || call.type === 'canFinalAnswer' || call.type === 'beginToolCall';
  if (!decides) return { call: describeCall(call) };
  return {
    call: describeCall(call),
    blocked: outcome.blocked ?? null,
    ...(outcome.wouldBlock !== undefined && { wouldBlock: outcome.wouldBlock }),
  };
}
