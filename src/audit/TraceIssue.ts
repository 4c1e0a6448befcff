import * as z from 'zod/mini';

/**
 * Something in the input the audit could not read: the file, the 1-based line, the field (a path
 * such as `messages[3].role`, empty for the whole line), and a sentence naming the value found and
 * what is allowed. The trace it belongs to is skipped; the rest of the run goes on.
 */
export const TraceIssue = z.object({
  file: z.string(),
  line: z.number(),
  /** The trace's id, when the problem is inside a trace that has one. */
  trace: z.optional(z.string()),
  path: z.string(),
  message: z.string(),
});
export type TraceIssue = z.infer<typeof TraceIssue>;

/** How a value found is named in a message: strings quoted and cut, other values by their type. */
export function describeValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : typeof v;
}
