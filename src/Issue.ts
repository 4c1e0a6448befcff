import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

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

// The core uses zod/mini, which ships no messages: without these, every issue
// would read "Invalid input". English messages are passed per parse, so the
// application's own zod configuration (a locale, an error map) is left alone.
const localeError = en().localeError;

/**
 * `schema.safeParse(input)` with English messages, whatever the global zod
 * configuration holds.
 *
 * @example
 * const r = safeParseInput(ToolKind, 'reed');
 * if (!r.success) console.log(issuesOf(r.error)); // [{ code: 'invalid_value', path: [], message: 'Invalid option: …' }]
 */
export function safeParseInput<S extends z.core.$ZodType>(schema: S, input: unknown) {
  return z.safeParse(schema, input, { error: localeError });
}

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
