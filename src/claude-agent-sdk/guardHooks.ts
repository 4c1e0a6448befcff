import type {
  CanUseTool,
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  HookJSONOutput,
  PermissionResult,
} from '@anthropic-ai/claude-agent-sdk';
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { SafetySession } from '../safety/SafetySessionTypes.js';
import type { BlockReasonCode } from '../safety/toolKind.js';
import type { CodingAgentClassifier } from '../presets/codingAgent.js';
import { ClaudeCodeHookInput } from '../hooks/ClaudeCodeHookInput.js';
import { respondToClaudeCodeHook } from '../hooks/respondToClaudeCodeHook.js';
import { formatIssues, issuesOf, safeParseInput } from '../core/Issue.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';
import { z } from 'zod';
import { optionsError, SessionLike } from '../harness/adapters/adapterKit.js';
import { askProblem } from '../safety/blockReasons.js';
import { BlockReasonCode as BlockReasonCodeSchema } from '../safety/toolKind.js';

/** Any store with `withSession(id, fn)`: `createFileSessionStore` (`/node`) or `createRedisSessionStore` (`/redis`). */
export interface GuardSessionStore {
  withSession<T>(id: string, fn: (session: SafetySession) => T): Promise<T>;
}

/** A call the gate escalated (answered `ask`), as `approve` sees it. */
export interface EscalatedCall {
  toolName: string;
  input: Record<string, unknown>;
  toolUseID: string;
  /** One sentence naming the file or command and what the block is about, ending with the block's code in brackets. */
  reason: string;
}

/** Options of {@link guardHooks}: one `session` for the whole query, or a `store` keyed by the SDK's session id. */
export type GuardHooksOptions = (
  { session: SafetySession; store?: undefined } | { store: GuardSessionStore; session?: undefined }
) & {
  /** How tool calls are classified. Default the coding-agent classifier (`assistant-safety/hooks`). */
  classify?: CodingAgentClassifier;
  /** Block reasons answered `ask` instead of `deny`; `approve` then decides. Default none. */
  escalate?: readonly BlockReasonCode[];
  /** Decides an escalated call (through `canUseTool`): true approves it, and the approval is the evidence. Default: deny. */
  approve?: (call: EscalatedCall) => boolean | Promise<boolean>;
  /** Answers permission prompts the gate did not raise. Default: deny them. */
  canUseTool?: CanUseTool;
  /** Who an approval is attested by. Default `claude-agent-sdk-user`. */
  approvedBy?: string;
  /** Whether `Write` would create a file (which then needs no read first). Default: it does not exist on disk. */
  isNewFile?: (path: string, cwd: string) => boolean;
};

/** What {@link guardHooks} returns: spread both into the SDK's `query` options. */
export interface GuardedHooks {
  hooks: Partial<Record<HookEvent, HookCallbackMatcher[]>>;
  canUseTool: CanUseTool;
}

const EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionDenied',
  'Stop',
  'UserPromptSubmit',
] as const;

const OPTION_KEYS = keysOf<{ session?: unknown; store?: unknown } & Omit<GuardHooksOptions, 'session' | 'store'>>({
  session: true,
  store: true,
  classify: true,
  escalate: true,
  approve: true,
  canUseTool: true,
  approvedBy: true,
  isNewFile: true,
});

const fn = (what: string) =>
  z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', { message: `expected a function ${what}` });

/** The options' values, checked when the hooks are made (a bad one would otherwise deny every call). */
const GuardHooksValues = z
  .object({
    session: SessionLike.optional(),
    store: z
      .custom<GuardSessionStore>(
        (v) =>
          typeof v === 'object' && v !== null && typeof (v as { withSession?: unknown }).withSession === 'function',
        {
          message:
            'expected a session store with withSession(id, fn) (createFileSessionStore, createRedisSessionStore)',
        },
      )
      .optional(),
    classify: fn('(toolName, input) => CodingAgentCall, such as createCodingAgentClassifier()').optional(),
    escalate: z
      .array(
        BlockReasonCodeSchema.check(
          z.refine((code) => askProblem(code) === undefined, { error: (i) => askProblem(i.input as never) }),
        ),
      )
      .optional(),
    approve: fn('(call) => boolean | Promise<boolean>').optional(),
    canUseTool: fn('(toolName, input, context) => PermissionResult').optional(),
    approvedBy: z.string().min(1).optional(),
    isNewFile: fn('(path, cwd) => boolean').optional(),
  })
  .check(
    z.refine((o) => (o.session === undefined) !== (o.store === undefined), {
      path: ['session'],
      error: 'expected exactly one of session (one session for the query) and store (a session per SDK session id)',
    }),
  );

/**
 * The gate for a Claude Agent SDK agent: the SDK's own `hooks` (PreToolUse, PostToolUse,
 * PostToolUseFailure, PermissionDenied, Stop, all tools; UserPromptSubmit tells the session the
 * user's words) deciding each call on a session the way
 * the `assistant-safety hook claude-code` command does, in-process, and a `canUseTool` that puts
 * escalated calls to `approve`. A blocked call is denied with one sentence saying what clears it
 * as the reason the model reads; a stop with an unverified write is sent back to work once. A hook that
 * fails denies the call.
 *
 * @throws {TypeError} naming the bad option (`options.session`, `options.store`, `options.escalate.0`, ...).
 * @example
 * import { query } from '@anthropic-ai/claude-agent-sdk';
 * const { hooks, canUseTool } = guardHooks({ session: createSafetySession({ targets: 'bind' }) });
 * for await (const message of query({ prompt: 'Change the port to 8080', options: { hooks, canUseTool } })) {
 *   console.log(message.type);
 * }
 */
export function guardHooks(options: GuardHooksOptions): GuardedHooks {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('guardHooks: options: expected an object with a session or a store');
  refuseUnknownOptions('guardHooks', options, OPTION_KEYS);
  const checked = safeParseInput(GuardHooksValues, options);
  if (!checked.success) throw optionsError('guardHooks', checked.error);
  const notesBySession = new Map<string, Record<string, unknown>>();
  const escalated = new Map<string, string>();
  const notesOf = (id: string) => {
    let notes = notesBySession.get(id);
    if (!notes) notesBySession.set(id, (notes = {}));
    return notes;
  };
  const withSession = <T>(id: string, fn: (session: SafetySession) => T): Promise<T> =>
    options.session ? Promise.resolve().then(() => fn(options.session)) : options.store.withSession(id, fn);

  const denyAll = (event: string, message: string): HookJSONOutput =>
    event === 'PreToolUse'
      ? {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: `assistant-safety: ${message}; the call is refused`,
          },
        }
      : { systemMessage: `assistant-safety: ${message}` };

  const callback: HookCallback = async (raw) => {
    const event = raw.hook_event_name;
    try {
      const parsed = ClaudeCodeHookInput.safeParse(raw);
      if (!parsed.success)
        return denyAll(event, `the hook input does not match the hook schema: ${formatIssues(issuesOf(parsed.error))}`);
      const input = parsed.data;
      const notes = notesOf(input.session_id);
      const output = await withSession(input.session_id, (session) =>
        respondToClaudeCodeHook(input, session, notes, {
          ...(options.classify && { classify: options.classify }),
          ...(options.escalate && { escalate: options.escalate }),
          approvedBy: options.approvedBy ?? 'claude-agent-sdk-user',
          isNewFile: options.isNewFile ?? ((path, cwd) => !existsSync(isAbsolute(path) ? path : join(cwd, path))),
        }),
      );
      if (input.hook_event_name === 'PreToolUse' && output && 'hookSpecificOutput' in output) {
        if (output.hookSpecificOutput.permissionDecision === 'ask')
          escalated.set(input.tool_use_id, output.hookSpecificOutput.permissionDecisionReason);
      } else if (typeof input.tool_use_id === 'string') escalated.delete(input.tool_use_id);
      return output ?? {};
    } catch (e) {
      return denyAll(event, e instanceof Error ? e.message : String(e));
    }
  };

  const canUseTool: CanUseTool = async (toolName, input, context): Promise<PermissionResult> => {
    const reason = escalated.get(context.toolUseID);
    if (reason === undefined) {
      if (options.canUseTool) {
        const answer = await options.canUseTool(toolName, input, context);
        if (answer) return answer;
      }
      // Claude Code asked permission for a call the gate did not refuse: say whose prompt it was.
      return {
        behavior: 'deny',
        message: `assistant-safety: permission for ${toolName} was not granted: nothing answers Claude Code's permission prompts here (give guardHooks a canUseTool, or the query a permissionMode that does not ask)`,
      };
    }
    const approved = options.approve
      ? await options.approve({ toolName, input, toolUseID: context.toolUseID, reason })
      : false;
    if (approved) return { behavior: 'allow', updatedInput: input };
    escalated.delete(context.toolUseID);
    return { behavior: 'deny', message: reason };
  };

  const hooks: Partial<Record<HookEvent, HookCallbackMatcher[]>> = {};
  for (const event of EVENTS) hooks[event] = [{ hooks: [callback] }];
  return { hooks, canUseTool };
}
