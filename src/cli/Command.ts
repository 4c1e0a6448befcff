import { didYouMean } from '../core/didYouMean.js';

/** Where a command writes; tests pass their own. */
export interface CliIO {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** One `assistant-safety <name>` command. Exit codes: 0 ok, 1 a finding (divergence, violation), 2 bad input. */
export interface Command {
  name: string;
  /** One line for `--help`. */
  summary: string;
  /** Full usage text for `<name> --help`. */
  usage: string;
  run(argv: string[], io: CliIO): Promise<number>;
}

/** A usage error: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The long options a command's usage text names (`--machine`, `--json`, ...), plus `--help`. */
function optionsOf(usage: string): string[] {
  return [...new Set([...(usage.match(/--[a-z][a-z-]*/g) ?? []), '--help'])];
}

/**
 * A `node:util` parseArgs error in the tool's own words (its messages quote
 * oddly and never suggest anything), or undefined when `e` is not one.
 *
 * @example
 * argumentError(e, usage); // 'unknown option --machin (did you mean --machine?)'
 */
export function argumentError(e: unknown, usage: string): string | undefined {
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) return undefined;
  const message = (e as Error).message;
  const quoted = /'([^' ]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = quoted.split('=')[0]!;
    const guess = option.startsWith('--') ? didYouMean(option, optionsOf(usage)) : undefined;
    return `unknown option ${option}${guess ? ` (did you mean ${guess}?)` : ''}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return /argument missing/.test(message) ? `option ${quoted} needs a value` : `option ${quoted} takes no value`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument ${quoted}`;
  return message;
}
