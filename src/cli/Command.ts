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

/** Edit distance between two short strings (option and command names). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}

/**
 * The closest of `known` to a mistyped `name` ("--machin" → "--machine"), when
 * it is close enough to be what was meant: a prefix of it, or at most two
 * edits (one for short names) away.
 *
 * @example
 * didYouMean('--machin', ['--machine', '--json']); // '--machine'
 */
export function didYouMean(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = k.startsWith(name) && name.length >= 3 ? 0 : distance(name, k);
    if (d <= (k.replace(/^-+/, '').length <= 4 ? 1 : 2) && (!best || d < best.d)) best = { name: k, d };
  }
  return best?.name;
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
