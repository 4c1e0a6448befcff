import * as z from 'zod/mini';
import { formatIssues, issuesOf } from '../core/Issue.js';

/*
 * The pure merges of `hook install codex|gemini|cursor`: the gate's hook command added to each
 * agent's hook configuration for the events it handles, every other setting and hook kept, an
 * entry of ours updated in place (a new command), never doubled.
 */

/** A configuration that cannot take the hooks (not an object, `hooks` of the wrong shape); nothing is written. */
export class AgentHooksError extends Error {
  readonly code = 'INVALID_SETTINGS' as const;
  constructor(message: string) {
    super(message);
    this.name = 'AgentHooksError';
  }
}

/** The agents `hook install` writes for besides Claude Code. */
export type HookAgent = 'codex' | 'gemini' | 'cursor';

/** True for a hook command this package installed for `agent` (any version, any path). */
const isOurCommand = (agent: HookAgent, command: unknown) =>
  typeof command === 'string' && new RegExp(`(^|\\s)hook ${agent}(\\s|$)`).test(command);

const Handler = z.looseObject({ type: z.optional(z.string()), command: z.optional(z.string()) });
const Group = z.looseObject({ matcher: z.optional(z.string()), hooks: z.array(Handler) });
/** Codex's hooks.json and Gemini CLI's settings.json: `hooks`, by event, matcher groups of handlers (Gemini keeps other keys there too). */
const GroupedConfig = z.looseObject({ hooks: z.optional(z.looseObject({})) });
/** Cursor's hooks.json: `version` and `hooks`, by event, flat handlers. */
const CursorConfig = z.looseObject({
  version: z.optional(z.number()),
  hooks: z.optional(z.record(z.string(), z.array(z.looseObject({ command: z.optional(z.string()) })))),
});

type Json = Record<string, unknown>;
export interface MergedHooks {
  settings: Json;
  changed: boolean;
}

function parsed<T extends z.ZodMiniType>(schema: T, value: unknown, where?: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new AgentHooksError(
      `the configuration cannot take the hooks${where === undefined ? '' : ` (${where})`}: ${formatIssues(issuesOf(result.error))}`,
    );
  return structuredClone(result.data) as z.infer<T>;
}

/** The events of a grouped configuration, and whether each takes the all-tools matcher. */
const CODEX_EVENTS = ['PreToolUse', 'PostToolUse', 'Stop', 'UserPromptSubmit', 'SessionStart', 'SessionEnd'];
const GEMINI_EVENTS: readonly { event: string; matcher: boolean }[] = [
  { event: 'BeforeTool', matcher: true },
  { event: 'AfterTool', matcher: true },
  { event: 'BeforeAgent', matcher: false },
  { event: 'AfterAgent', matcher: false },
  { event: 'SessionStart', matcher: false },
  { event: 'SessionEnd', matcher: false },
];
const CURSOR_EVENTS = [
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'beforeSubmitPrompt',
  'stop',
  'sessionStart',
  'sessionEnd',
];

/** Adds `handler` under each event of a grouped configuration, updating an entry of ours in place. */
function mergeGrouped(
  settings: unknown,
  agent: HookAgent,
  events: readonly { event: string; matcher?: string }[],
  handler: Json & { command: string },
): MergedHooks {
  const out = parsed(GroupedConfig, settings ?? {}) as Json & { hooks?: Json };
  const hooks = (out.hooks ??= {});
  let changed = false;
  for (const { event, matcher } of events) {
    const groups = parsed(z.optional(z.array(Group)), hooks[event], `hooks.${event}`) ?? [];
    let found = false;
    for (const group of groups)
      for (const h of group.hooks)
        if (isOurCommand(agent, h.command)) {
          found = true;
          for (const [key, value] of Object.entries(handler))
            if (h[key] !== value) {
              h[key] = value;
              changed = true;
            }
        }
    if (!found) {
      groups.push({ ...(matcher !== undefined && { matcher }), hooks: [{ ...handler }] });
      changed = true;
    }
    hooks[event] = groups;
  }
  return { settings: out, changed };
}

/**
 * Adds the gate to a Codex CLI hooks file (`.codex/hooks.json`, Claude Code's shape: matcher
 * groups of `{ type: "command", command }` handlers; no matcher: every tool).
 *
 * @throws {AgentHooksError} when the file is not an object or `hooks` is malformed.
 * @example
 * mergeCodexHooks({}, 'assistant-safety hook codex').settings.hooks.Stop;
 * // [{ hooks: [{ type: 'command', command: 'assistant-safety hook codex' }] }]
 */
export function mergeCodexHooks(settings: unknown, command: string): MergedHooks {
  return mergeGrouped(
    settings,
    'codex',
    CODEX_EVENTS.map((event) => ({ event })),
    { type: 'command', command },
  );
}

/**
 * Adds the gate to a Gemini CLI settings file (`.gemini/settings.json`: `hooks`, by event,
 * matcher groups of named handlers; `"*"` matches every tool). Other keys of `hooks`
 * (`disabled`, ...) and of the file are kept.
 *
 * @throws {AgentHooksError} when the file is not an object or an event's entry is malformed.
 * @example
 * mergeGeminiSettings({ model: { name: 'gemini-2.5-pro' } }, 'assistant-safety hook gemini').settings.hooks.BeforeTool;
 * // [{ matcher: '*', hooks: [{ name: 'assistant-safety', type: 'command', command: 'assistant-safety hook gemini' }] }]
 */
export function mergeGeminiSettings(settings: unknown, command: string): MergedHooks {
  return mergeGrouped(
    settings,
    'gemini',
    GEMINI_EVENTS.map(({ event, matcher }) => ({ event, ...(matcher && { matcher: '*' }) })),
    { name: 'assistant-safety', type: 'command', command },
  );
}

/**
 * Adds the gate to a Cursor hooks file (`.cursor/hooks.json`: `version: 1`, `hooks` by event,
 * flat `{ command }` handlers), each with `failClosed: true`: a hook that crashes or times out
 * refuses the call instead of letting it go.
 *
 * @throws {AgentHooksError} when the file is not an object or `hooks` is malformed.
 * @example
 * mergeCursorHooks({}, 'assistant-safety hook cursor').settings;
 * // { version: 1, hooks: { preToolUse: [{ command: 'assistant-safety hook cursor', failClosed: true }], ... } }
 */
export function mergeCursorHooks(settings: unknown, command: string): MergedHooks {
  const out = parsed(CursorConfig, settings ?? {}) as Json & { version?: number; hooks?: Record<string, Json[]> };
  let changed = false;
  if (out.version === undefined) {
    out.version = 1;
    changed = true;
  }
  const hooks = (out.hooks ??= {});
  const handler = { command, failClosed: true };
  for (const event of CURSOR_EVENTS) {
    const entries = (hooks[event] ??= []);
    let found = false;
    for (const h of entries)
      if (isOurCommand('cursor', h.command)) {
        found = true;
        for (const [key, value] of Object.entries(handler))
          if (h[key] !== value) {
            h[key] = value;
            changed = true;
          }
      }
    if (!found) {
      entries.push({ ...handler });
      changed = true;
    }
  }
  // `version` first, as Cursor's own examples write it.
  const { version, ...rest } = out;
  return { settings: { version, ...rest }, changed };
}
