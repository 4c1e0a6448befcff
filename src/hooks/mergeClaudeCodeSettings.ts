import * as z from 'zod/mini';
import { formatIssues, issuesOf } from '../core/Issue.js';

/** One hook command of a Claude Code settings file. */
const HookCommand = z.looseObject({ type: z.string(), command: z.optional(z.string()) });
/** One matcher group: a tool-name pattern (tool events only) and its hooks. */
const MatcherGroup = z.looseObject({ matcher: z.optional(z.string()), hooks: z.array(HookCommand) });

/** The part of a Claude Code settings file the installer reads: `hooks`, by event; everything else is kept as it is. */
export const ClaudeCodeSettings = z.looseObject({
  hooks: z.optional(z.record(z.string(), z.array(MatcherGroup))),
});
export type ClaudeCodeSettings = z.infer<typeof ClaudeCodeSettings>;

/** The events the gate is installed for, and whether each takes a tool-name matcher. */
const INSTALLED_EVENTS: readonly { event: string; matcher: boolean }[] = [
  { event: 'PreToolUse', matcher: true },
  { event: 'PostToolUse', matcher: true },
  { event: 'PostToolUseFailure', matcher: true },
  { event: 'PermissionDenied', matcher: true },
  { event: 'Stop', matcher: false },
  { event: 'SessionStart', matcher: false },
  { event: 'SessionEnd', matcher: false },
  { event: 'UserPromptSubmit', matcher: false },
];

/** Settings that cannot be merged (not an object, `hooks` of the wrong shape); nothing is written. */
export class ClaudeCodeSettingsError extends Error {
  readonly code = 'INVALID_SETTINGS' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ClaudeCodeSettingsError';
  }
}

/** True for a hook entry this package installed (any version, any path). */
const isOurs = (command: string | undefined) => command !== undefined && /(^|\s)hook claude-code(\s|$)/.test(command);

/**
 * Adds the gate's hook command to Claude Code settings for each event it handles, keeping every
 * other setting and hook as it is: an entry of ours already there is updated in place (a new
 * path), never doubled. Returns the new settings and whether anything changed.
 *
 * @throws {ClaudeCodeSettingsError} when the settings are not an object or `hooks` is malformed.
 * @example
 * mergeClaudeCodeSettings({ model: 'opus' }, '/usr/bin/assistant-safety hook claude-code').settings.hooks.Stop;
 * // [{ hooks: [{ type: 'command', command: '/usr/bin/assistant-safety hook claude-code' }] }]
 */
export function mergeClaudeCodeSettings(
  settings: unknown,
  command: string,
): { settings: ClaudeCodeSettings & { hooks: NonNullable<ClaudeCodeSettings['hooks']> }; changed: boolean } {
  const parsed = ClaudeCodeSettings.safeParse(settings ?? {});
  if (!parsed.success)
    throw new ClaudeCodeSettingsError(`the settings cannot take the hooks: ${formatIssues(issuesOf(parsed.error))}`);
  const out = structuredClone(parsed.data);
  const hooks = (out.hooks ??= {});
  let changed = false;
  for (const { event, matcher } of INSTALLED_EVENTS) {
    const groups = (hooks[event] ??= []);
    let found = false;
    for (const group of groups) {
      for (const hook of group.hooks) {
        if (hook.type === 'command' && isOurs(hook.command)) {
          found = true;
          if (hook.command !== command) {
            hook.command = command;
            changed = true;
          }
        }
      }
    }
    if (!found) {
      groups.push({ ...(matcher && { matcher: '*' }), hooks: [{ type: 'command', command }] });
      changed = true;
    }
  }
  return { settings: out as ClaudeCodeSettings & { hooks: NonNullable<ClaudeCodeSettings['hooks']> }, changed };
}
