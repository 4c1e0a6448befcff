import { liveUrlProblem } from '../live/protocol.js';
import { GATEWAY_TOKEN_ENV, LIVE_TOKEN_ENV } from './tokenNames.js';

/*
 * Tokens the CLI takes from the environment. Any local user can read a process's command line
 * (/proc/PID/cmdline), but only its owner its environment (/proc/PID/environ): a token given on
 * the command line still works, with a warning naming the variable to use instead, and a token
 * given both ways must be the same one. The variables' names are in tokenNames.ts.
 */

/** What a command line shows, said once on stderr when a token came on one. */
const SHOWN = 'a token on the command line is readable by other local users (/proc/PID/cmdline)';

/** A `--live` URL and its token, checked. */
export interface LiveOption {
  /** The URL without its token: what may be shown or written where others read it. */
  url: string;
  token: string;
  /** Said on stderr when the token came in the URL. */
  warning?: string;
}

/** The value of `name` in `env`, an empty one as none. */
function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * A `--live URL` with its token: from the URL's `?token=` or from {@link LIVE_TOKEN_ENV}, the same
 * one when both say one. Returns what is wrong in words (without the option's name) when the URL
 * could never reach a hub or the two tokens differ.
 *
 * @example
 * liveOptionOf('http://127.0.0.1:4400/', { ASSISTANT_SAFETY_LIVE_TOKEN: 'ab12' });
 * // { url: 'http://127.0.0.1:4400/', token: 'ab12' }
 */
export function liveOptionOf(url: string, env: NodeJS.ProcessEnv = process.env): LiveOption | { problem: string } {
  const fromEnv = envValue(env, LIVE_TOKEN_ENV);
  const problem = liveUrlProblem(url, fromEnv, `set ${LIVE_TOKEN_ENV}`);
  if (problem !== undefined) return { problem };
  const parsed = new URL(url);
  const inUrl = parsed.searchParams.get('token') || undefined;
  if (inUrl !== undefined && fromEnv !== undefined && inUrl !== fromEnv)
    return {
      problem: `the URL's token and ${LIVE_TOKEN_ENV} differ; give the token once, in ${LIVE_TOKEN_ENV}, and the URL without ?token=`,
    };
  parsed.searchParams.delete('token');
  return {
    url: parsed.toString(),
    token: (fromEnv ?? inUrl)!,
    ...(inUrl !== undefined && {
      warning: `warning: ${SHOWN}: give --live without ?token= and set ${LIVE_TOKEN_ENV} instead`,
    }),
  };
}

/**
 * The bearer token of `mcp-gateway --listen`: `--token` or {@link GATEWAY_TOKEN_ENV} (undefined:
 * neither, a random one), the same one when both say one; or what is wrong, in words.
 *
 * @example
 * gatewayTokenOf(undefined, { ASSISTANT_SAFETY_GATEWAY_TOKEN: 's3cret' }); // { token: 's3cret' }
 */
export function gatewayTokenOf(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { token?: string; warning?: string } | { problem: string } {
  const fromEnv = envValue(env, GATEWAY_TOKEN_ENV);
  if (flag === undefined) return fromEnv === undefined ? {} : { token: fromEnv };
  if (flag === '') return { problem: `--token is empty; set ${GATEWAY_TOKEN_ENV} instead` };
  if (fromEnv !== undefined && fromEnv !== flag)
    return { problem: `--token and ${GATEWAY_TOKEN_ENV} differ; give the token once, in ${GATEWAY_TOKEN_ENV}` };
  return { token: flag, warning: `warning: ${SHOWN}: set ${GATEWAY_TOKEN_ENV} instead of --token` };
}

/** `env` without the tokens above: what a process the CLI starts (an MCP server) inherits. */
export function withoutTokens(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (e): e is [string, string] => e[1] !== undefined && e[0] !== LIVE_TOKEN_ENV && e[0] !== GATEWAY_TOKEN_ENV,
    ),
  );
}
