import * as z from 'zod/mini';
import { didYouMean } from './didYouMean.js';

/**
 * One thing wrong with an input, as data: a stable `code`, the `path` to the
 * bad field (keys and indexes, root first) and a sentence for people. Every
 * error this package throws for bad input carries a list of these; they are
 * turned into text only at the edge (`formatIssues`).
 */
export interface Issue {
  code: string;
  path: (string | number)[];
  message: string;
}

/**
 * What the package throws for input it refuses (a machine, a snapshot, an event of a kind): the
 * problems as data, `code` for the error and `issues` with a path each, and a message naming them.
 * Catch this one type to handle any of them alike.
 *
 * @example
 * try {
 *   restoreSafetySession(text);
 * } catch (e) {
 *   if (e instanceof IssueError) for (const i of e.issues) console.log(formatPath(i.path), i.message);
 * }
 */
export abstract class IssueError<I extends Issue = Issue> extends Error {
  abstract readonly code: string;
  constructor(
    message: string,
    readonly issues: I[] = [],
  ) {
    super(message);
  }
}

// The core uses zod/mini, which ships no messages: without these, every issue
// would read "Invalid input". English messages are passed per parse, so the
// application's own zod configuration (a locale, an error map) is left alone.
// They are zod's own English wordings for the checks the core's schemas use
// (its full locale, string formats and all, would cost the browser bundle 1 KB
// gzipped); test/core/issueMessages.test.ts holds them equal to zod's.
type RawIssue = z.core.$ZodRawIssue & Record<string, unknown>;
const shown = (v: unknown) => (typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? `"${v}"` : `${v}`);
const received = (v: unknown): string => {
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : Number.isFinite(v) ? 'number' : String(v);
  if (typeof v !== 'object') return typeof v;
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const proto: unknown = Object.getPrototypeOf(v);
  const ctor = 'constructor' in v ? (v as { constructor?: { name?: string } }).constructor : undefined;
  return proto !== Object.prototype && ctor ? String(ctor.name) : 'object';
};
const UNITS: Record<string, string> = {
  string: 'characters',
  file: 'bytes',
  array: 'items',
  set: 'items',
  map: 'entries',
};
function localeError(issue: RawIssue): string {
  const size = (word: string, adjective: string, bound: unknown) => {
    const unit = UNITS[issue.origin as string];
    return `${word}: expected ${(issue.origin as string) ?? 'value'} to ${unit ? 'have' : 'be'} ${adjective}${String(bound)}${unit ? ` ${unit}` : ''}`;
  };
  switch (issue.code) {
    case 'invalid_type':
      return `Invalid input: expected ${issue.expected === 'nan' ? 'NaN' : String(issue.expected)}, received ${received(issue.input)}`;
    case 'invalid_value': {
      const values = issue.values as unknown[];
      return values.length === 1
        ? `Invalid input: expected ${shown(values[0])}`
        : `Invalid option: expected one of ${values.map(shown).join('|')}`;
    }
    case 'too_big':
      return size('Too big', issue.exact ? 'exactly ' : issue.inclusive ? '<=' : '<', issue.maximum);
    case 'too_small':
      return size('Too small', issue.exact ? 'exactly ' : issue.inclusive ? '>=' : '>', issue.minimum);
    case 'unrecognized_keys': {
      const keys = issue.keys as string[];
      // The object's own keys, when the schema that refused them is at hand: the one meant, named.
      const shape = (issue.inst as { _zod?: { def?: { shape?: object } } } | undefined)?._zod?.def?.shape;
      const guess = shape && keys.length === 1 ? didYouMean(keys[0]!, Object.keys(shape)) : undefined;
      return `Unrecognized key${keys.length > 1 ? 's' : ''}: ${keys.map(shown).join(', ')}${guess ? ` (did you mean ${guess}?)` : ''}`;
    }
    case 'invalid_key':
      return `Invalid key in ${String(issue.origin)}`;
    case 'invalid_element':
      return `Invalid value in ${String(issue.origin)}`;
    case 'invalid_union': {
      const options = issue.options as unknown[] | undefined;
      if (Array.isArray(options) && options.length > 0)
        return `Invalid discriminator value. Expected ${options.map((o) => `'${String(o)}'`).join(' | ')}`;
      return issue.inclusive === false ? 'Invalid input: more than one option matched' : 'Invalid input';
    }
    default:
      return 'Invalid input';
  }
}

/**
 * `schema.safeParse(input)` with English messages, whatever the global zod
 * configuration holds.
 *
 * @example
 * const r = safeParseInput(ToolKind, 'reed');
 * if (!r.success) console.log(issuesOf(r.error)); // [{ code: 'invalid_value', path: [], message: 'Invalid option: …' }]
 */
export function safeParseInput<S extends z.core.$ZodType>(schema: S, input: unknown) {
  const key = pollutedKey();
  // Refused whatever the input: a failure of the same type, with the one issue that matters.
  if (key !== undefined)
    return z.safeParse(z.never(), input, { error: () => pollutionMessage(key) }) as z.core.util.SafeParseResult<
      z.core.output<S>
    >;
  return z.safeParse(schema, input, { error: (issue) => localeError(issue as RawIssue) });
}

const NOTHING = {};

/**
 * An enumerable property someone added to `Object.prototype` (prototype pollution, say by a deep merge
 * of attacker JSON), or undefined. Every object then seems to carry it: to `for...in`, to zod, and to
 * any read of an option or a call field the caller left out (`verified`, `mode`), so no input can be
 * read safely. Sessions refuse to start or decide while there is one: the gate fails closed, and says why.
 */
export function pollutedKey(): string | undefined {
  for (const key in NOTHING) return key;
  return undefined;
}

/** What a refusal for a polluted prototype says. */
export const pollutionMessage = (key: string) =>
  `Object.prototype has an enumerable property ${JSON.stringify(key)} (prototype pollution): refused until it is removed`;

/**
 * The issues of a zod error in this package's shape.
 *
 * @example
 * const r = safeParseInput(SessionState, 'DONE');
 * if (!r.success) issuesOf(r.error)[0]!.path; // []
 */
export function issuesOf(error: z.core.$ZodError): Issue[] {
  return error.issues.map((i) => ({
    code: i.code,
    path: i.path.map((k) => (typeof k === 'number' ? k : String(k))),
    message: i.message,
  }));
}

/**
 * A path as people read it: `states.READING.on.TOOL_SUCCEEDED[1].guard`.
 *
 * @example
 * formatPath(['calls', 2, 'id']); // 'calls[2].id'
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/**
 * Issues as one line of text: `path: message; path: message`.
 *
 * @example
 * formatIssues([{ code: 'invalid_type', path: ['id'], message: 'expected string' }]); // 'id: expected string'
 */
export function formatIssues(issues: readonly Issue[]): string {
  return issues.map((i) => `${formatPath(i.path) || '(root)'}: ${i.message}`).join('; ');
}
