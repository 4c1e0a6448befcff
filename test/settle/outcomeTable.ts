/**
 * The one table of how a write's tool can end, shared by every harness's test (the tool loop,
 * the Redis path, the MCP gateway, both SDK adapters): each harness must end the write so that
 * the session is left in `state`, and the next write is blocked with `next` (null: allowed).
 */
export interface OutcomeCase {
  name: string;
  /** What the tool does: return a value, or throw this. */
  thrown?: () => unknown;
  state: 'READING' | 'VERIFYING';
  next: 'UNVERIFIED_WRITE' | null;
}

const hostile = () =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error('hostile');
      },
      getPrototypeOf: () => {
        throw new Error('hostile');
      },
      has: () => {
        throw new Error('hostile');
      },
      ownKeys: () => {
        throw new Error('hostile');
      },
      getOwnPropertyDescriptor: () => {
        throw new Error('hostile');
      },
    },
  );

export const OUTCOME_CASES: readonly OutcomeCase[] = [
  { name: 'the tool succeeded', state: 'VERIFYING', next: 'UNVERIFIED_WRITE' },
  {
    name: 'the tool reported failure (an ordinary Error)',
    thrown: () => new Error('disk full'),
    state: 'READING',
    next: null,
  },
  {
    name: 'the tool timed out (TimeoutError)',
    thrown: () => new DOMException('too slow', 'TimeoutError'),
    state: 'VERIFYING',
    next: 'UNVERIFIED_WRITE',
  },
  {
    name: 'the tool was aborted (AbortError)',
    thrown: () => Object.assign(new Error('aborted'), { name: 'AbortError' }),
    state: 'VERIFYING',
    next: 'UNVERIFIED_WRITE',
  },
  {
    name: 'the connection was cut (ECONNRESET)',
    thrown: () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
    state: 'VERIFYING',
    next: 'UNVERIFIED_WRITE',
  },
  {
    name: 'the tool threw a string (unclassifiable)',
    thrown: () => 'boom',
    state: 'VERIFYING',
    next: 'UNVERIFIED_WRITE',
  },
  { name: 'the tool threw a hostile Proxy', thrown: hostile, state: 'VERIFYING', next: 'UNVERIFIED_WRITE' },
];
