import { randomBytes } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  createSafetySession,
  hasVerificationEvidence,
  settleToolCall,
  type FSMBlockedError,
  type SafetySession,
  type SessionRecorder,
  type ToolCallSettlement,
  type ToolCallStart,
  type ToolKind,
} from '../index.js';
import { asObject, cutOff, messageOf } from './jsonRpc.js';
import type { OrphanedCall, SharedGatewaySession } from './SharedGatewaySession.js';
import { isTooLarge } from './spawnMcpServer.js';

/*
 * The gateway's policy: the gate's decision before a call reaches the server, and the call's
 * end once its answer comes, on a session in this process or on one kept outside it (every
 * decision and end saved there in order, the calls claimed, the calls a gone gateway left in
 * flight ended as unknown outcomes). It knows nothing of JSON-RPC routing.
 */

/** A tool call the gate let through, until it ends. */
export interface GatedCall {
  callId: string;
  tool: string;
  kind: ToolKind;
  ended: boolean;
  /** Declared self-verifying by a rule: only then may its own result verify it. */
  selfVerifying?: true;
  args?: unknown;
  /** The targets a result reveals by the tool's rule's `discovers` (the catalogue's `discover`). */
  discover?: (result: unknown) => { target: string; field: string }[];
  /** What its result revealed, once it came. */
  discovered?: { target: string; field: string }[];
}

export interface GatewayPolicyOptions {
  session?: SafetySession | undefined;
  recorder?: SessionRecorder | undefined;
  sharedSession?: SharedGatewaySession | undefined;
  log: (line: string) => void;
}

/** See {@link createGatewayPolicy}. */
export interface GatewayPolicy {
  /** The session is kept outside this process. */
  readonly shared: boolean;
  /** Prefix of this gateway's call ids (on a shared session another gateway's client reuses request ids). */
  readonly callPrefix: string;
  /** The session as last seen: the local one, or the shared one as this gateway last saved it. */
  readonly session: SafetySession;
  /** A shared session: loads it and ends what a gone gateway left in flight (rejects when it cannot be saved). */
  start(): Promise<void>;
  /**
   * Asks the gate for a call (after attesting `attested`, an escalated block the client vouched
   * for): at once on a local session; on a shared one saved (with the call claimed) first.
   */
  decide(start: ToolCallStart, attested?: FSMBlockedError): FSMBlockedError | null | Promise<FSMBlockedError | null>;
  /**
   * Ends a call (once) by the settle rule every harness uses. On a shared session: the promise
   * of whether the end was saved (never rejects).
   */
  settle(call: GatedCall, settled: ToolCallSettlement | { ok: false; error: unknown }): Promise<boolean> | undefined;
  /** How a call ended, as its answer (a result or a JSON-RPC error) says. */
  settlementOf(call: GatedCall, message: JSONRPCMessage): ToolCallSettlement;
  /** Settles once every save asked for so far is done (or failed). */
  saved(): Promise<unknown>;
}

/** The part of a tool result that carries verification evidence (`structuredContent` or a text item), if any. */
function evidenceOf(result: Record<string, unknown>): unknown {
  if (hasVerificationEvidence(result.structuredContent)) return result.structuredContent;
  const content = Array.isArray(result.content) ? result.content : [];
  for (const item of content) {
    const o = asObject(item);
    if (o?.type === 'text' && typeof o.text === 'string' && hasVerificationEvidence(o.text)) return o.text;
  }
  return undefined;
}

/**
 * The gateway's decide/settle policy on its session.
 *
 * @example
 * const policy = createGatewayPolicy({ session: createSafetySession(), log: console.error });
 * const blocked = policy.decide({ id: '1', kind: 'read', tool: 'get_status' }); // null
 * policy.settle({ callId: '1', tool: 'get_status', kind: 'read', ended: false }, { ok: true, value: {} });
 */
export function createGatewayPolicy(options: GatewayPolicyOptions): GatewayPolicy {
  const { log } = options;
  const shared = options.sharedSession;
  const local = shared
    ? undefined
    : (options.session ?? createSafetySession(options.recorder ? { recorder: options.recorder } : {}));
  let lastSeen: SafetySession | undefined = local;
  /** The shared session's loads and saves, in the order the gateway asked for them. */
  let chain: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(work: () => Promise<T>): Promise<T> => {
    const p = chain.then(work);
    chain = p.then(
      () => undefined,
      () => undefined,
    );
    return p;
  };

  /** Ends the calls a gone gateway left in flight: their outcome is unknown (a write must be verified). */
  function endOrphans(s: SafetySession, orphaned: readonly OrphanedCall[]) {
    for (const { id, holder } of orphaned) {
      if (!(id in s.context.calls) && !(id in s.context.shadowCalls)) continue;
      s.endToolCall({ id, ok: false, unknown: true, ...(holder !== undefined && { orphanedBy: holder }) });
      log(
        `call ${id} was left in flight by a gateway that is gone (${holder === undefined ? 'holder unknown' : `holder ${holder}`}): its outcome is unknown, it must be verified`,
      );
    }
  }

  /** On a shared session: ends the orphaned calls, then runs `fn`, all in one save. */
  async function sharedDecision<T>(sharedSession: SharedGatewaySession, fn: (s: SafetySession) => T): Promise<T> {
    const orphaned = await sharedSession.orphans();
    const value = await sharedSession.withSession((s) => {
      endOrphans(s, orphaned);
      const v = fn(s);
      lastSeen = s;
      return v;
    });
    await Promise.all(orphaned.map(({ id }) => sharedSession.release(id, true)));
    return value;
  }

  const decideOn = (s: SafetySession, start: ToolCallStart, attested: FSMBlockedError | undefined) =>
    attested && !s.attest(attested, { by: 'mcp-client' }) ? attested : s.beginToolCall(start);

  function decide(start: ToolCallStart, attested?: FSMBlockedError) {
    if (!shared) return decideOn(local!, start, attested);
    const run = (s: SafetySession) => decideOn(s, start, attested);
    return inOrder(async () => {
      await shared.claim(start.id);
      let blocked: FSMBlockedError | null;
      try {
        blocked = await sharedDecision(shared, run);
      } catch (e) {
        // The begin may have landed (a lost reply): the claim runs out, and the call is then orphaned.
        await shared.release(start.id, false).catch(() => undefined);
        throw e;
      }
      if (blocked) await shared.release(start.id, true).catch(() => undefined);
      return blocked;
    });
  }

  /** Changes the shared session, saved in order; resolves with whether it was saved (logged when not). */
  function onShared(sharedSession: SharedGatewaySession, what: string, fn: (s: SafetySession) => void, callId: string) {
    return inOrder(async () => {
      try {
        await sharedDecision(sharedSession, fn);
      } catch (e) {
        log(`could not ${what} on the session: ${messageOf(e)}`);
        // Not saved: the claim runs out, and the next gateway ends the call as an unknown outcome.
        await sharedSession.release(callId, false).catch(() => undefined);
        return false;
      }
      await sharedSession
        .release(callId, true)
        .catch((e: unknown) => log(`could not release ${callId}: ${messageOf(e)}`));
      return true;
    });
  }

  /**
   * Ends a call by the one settle rule every harness uses (`settleToolCall`): a result is a
   * success (a tool declared self-verifying may verify itself, never with evidence its own
   * arguments carry), a thrown value is judged by `outcomeOfError`, and an unknown outcome of a
   * write must be verified.
   */
  function settle(call: GatedCall, settled: ToolCallSettlement | { ok: false; error: unknown }) {
    if (call.ended) return undefined;
    call.ended = true;
    const settledCall = {
      id: call.callId,
      kind: call.kind,
      args: call.args,
      ...(call.selfVerifying && { selfVerifying: true }),
      ...(settled.ok && call.discovered?.length && { discovered: call.discovered }),
    };
    if (!shared) {
      // A local session: at once (no closure, no queue: this runs once per call).
      try {
        settleToolCall(local!, settledCall, settled);
      } catch (e) {
        log(`could not end ${call.tool} on the session: ${messageOf(e)}`);
      }
      return undefined;
    }
    return onShared(shared, `end ${call.tool}`, (s) => settleToolCall(s, settledCall, settled), call.callId);
  }

  function settlementOf(call: GatedCall, message: JSONRPCMessage): ToolCallSettlement {
    if ('result' in message) {
      const result = asObject(message.result) ?? {};
      if (result.isError === true) return { ok: false };
      // What the result reveals by the rule's `discovers` (structuredContent, else JSON text): validated on success.
      if (call.discover) call.discovered = call.discover(result);
      // Only a self-verifying tool's result is read for evidence (`settleToolCall` looks at nothing else of it).
      return { ok: true, value: call.selfVerifying ? (evidenceOf(result) ?? result) : result };
    }
    // The server answered with more than could be read, or a proxy in between lost it: not known.
    if ('error' in message && (isTooLarge(message.error) || cutOff(message.error))) return { ok: false, unknown: true };
    return { ok: false };
  }

  return {
    shared: shared !== undefined,
    callPrefix: shared ? `gw-${randomBytes(4).toString('hex')}:` : '',
    get session() {
      return lastSeen!;
    },
    async start() {
      if (shared) await inOrder(() => sharedDecision(shared, () => undefined));
    },
    decide,
    settle,
    settlementOf,
    saved: () => chain,
  };
}
