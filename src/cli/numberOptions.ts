import { UsageError } from './Command.js';

/**
 * A whole-number option from `min` to `max`, or undefined when not given. Throws a usage error
 * naming the option, the value given and the range.
 *
 * @example
 * wholeNumberOption('99999999999', '--cancel-grace-ms', 0, MAX_TIMER_MS);
 * // throws '--cancel-grace-ms: expected a whole number from 0 to 2147483647, got "99999999999"'
 */
export function wholeNumberOption(
  value: string | undefined,
  flag: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^-?\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${flag}: expected a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}

/**
 * `--flag -5` as `--flag=-5` for each of `flags`: parseArgs reads a value that starts with a dash
 * as an option of its own, which would say the flag takes no value instead of what is wrong with -5.
 */
export function joinNegativeValues(args: readonly string[], flags: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (flags.includes(arg) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}
