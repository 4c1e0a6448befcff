/*
 * A delay handed to `setTimeout` past 2^31-1 ms does not wait longer: Node warns and fires it after
 * 1 ms. For a grace period or a time-out that means the opposite of what was asked (a cancelled
 * write taken as over at once), so every option that becomes a timer is checked against this bound.
 */

/** The longest delay a timer keeps (about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Why a timer option is wrong, or `undefined` when it is a whole number of ms from `min` to {@link MAX_TIMER_MS}.
 *
 * @example
 * timerDelayProblem(99_999_999_999); // 'expected at most 2147483647 ms (a longer timer fires at once), got 99999999999'
 */
export function timerDelayProblem(value: unknown, min = 1): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value))
    return `expected a whole number of milliseconds, got ${typeof value === 'number' ? value : typeof value}`;
  if (value < min) return `expected at least ${min} ms, got ${value}`;
  if (value > MAX_TIMER_MS) return `expected at most ${MAX_TIMER_MS} ms (a longer timer fires at once), got ${value}`;
  return undefined;
}
