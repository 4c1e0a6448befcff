import { LIVE_TOKEN_ENV } from './tokenNames.js';

/*
 * The environment variables a hook event reads, apart so that the hook's small entry (hookFast.ts)
 * can name them without loading anything.
 */

/** The hook's mode, `enforce` (the default) or `shadow` (as `--shadow`). */
export const HOOK_MODE_ENV = 'ASSISTANT_SAFETY_HOOK_MODE';

/**
 * What a hook event reads from the agent's environment. `hook serve` runs the event in its own
 * process, whose environment is not the agent's: the hook command sends these along with the
 * event, and the server runs it with them exactly as the command had them (none: none).
 */
export const HOOK_EVENT_ENV = [LIVE_TOKEN_ENV, HOOK_MODE_ENV] as const;

/**
 * The options that name a file or folder: `hook install` makes them absolute, and the hook command
 * does before it hands an event to `hook serve`, whose working folder is not the agent's.
 */
export const HOOK_PATH_OPTIONS: readonly string[] = ['rules', 'state-dir', 'record'];
