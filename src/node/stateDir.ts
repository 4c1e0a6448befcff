import { homedir } from 'node:os';
import { join } from 'node:path';

/*
 * The state folder's default, apart from the store: the hook's small entry finds a resident
 * hook server through it without loading the store (or zod).
 */

/**
 * Where sessions live by default: `$ASSISTANT_SAFETY_STATE_DIR`, else
 * `$XDG_STATE_HOME/assistant-safety/sessions`, else `~/.local/state/assistant-safety/sessions`.
 *
 * @example
 * defaultStateDir({ XDG_STATE_HOME: '/home/me/.state' }); // '/home/me/.state/assistant-safety/sessions'
 */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ASSISTANT_SAFETY_STATE_DIR) return env.ASSISTANT_SAFETY_STATE_DIR;
  const base = env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'assistant-safety', 'sessions');
}
