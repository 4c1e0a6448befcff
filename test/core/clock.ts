/** A manual clock for sessions: starts at `start`, moves only when told. */
export function manualClock(start = 1_000_000) {
  let t = start;
  const now = () => t;
  return {
    now,
    advance(ms: number) {
      t += ms;
    },
    set(ms: number) {
      t = ms;
    },
  };
}
