import type * as z from 'zod/mini';
import { formatPath, safeParseInput } from '../core/Issue.js';
import { ToolDeclaration } from '../classify/index.js';
import { describeValue } from './TraceIssue.js';

/** A field that failed its schema: its path (under `prefix`) and what was wrong, with the value found. */
export interface Problem {
  path: string;
  message: string;
}

/**
 * Parses `value` with `schema`; on failure returns the first problem, its path joined to `prefix`
 * (`messages[3]` + `tool_calls[0].id`) and the value found at that path named in the message.
 */
export function parseOr<S extends z.core.$ZodType>(
  schema: S,
  value: unknown,
  prefix: (string | number)[],
): { data: z.infer<S> } | { problem: Problem } {
  const parsed = safeParseInput(schema, value);
  if (parsed.success) return { data: parsed.data as z.infer<S> };
  const issue = parsed.error.issues[0]!;
  let found: unknown = value;
  for (const key of issue.path)
    found = typeof found === 'object' && found !== null ? (found as Record<PropertyKey, unknown>)[key] : undefined;
  const path = formatPath([...prefix, ...issue.path.map((k) => (typeof k === 'number' ? k : String(k)))]);
  const got = found === undefined ? 'it is missing' : `got ${describeValue(found)}`;
  return { problem: { path, message: `${issue.message}; ${got}` } };
}

/** An allowed-values check: `role` must be one of `allowed`. */
export function oneOf(value: unknown, allowed: readonly string[], path: string): Problem | undefined {
  if (typeof value === 'string' && allowed.includes(value)) return undefined;
  return {
    path,
    message: `expected one of ${allowed.join(', ')}; got ${value === undefined ? 'nothing' : describeValue(value)}`,
  };
}

/**
 * Tool declarations a trace carries, in any of the shapes exports use: MCP (`{ name, annotations }`),
 * a tool object with a `kind`, or OpenAI's `{ type: 'function', function: { name } }`. Entries that
 * are none of these are left out (they only help classification).
 */
export function declarationsOf(tools: unknown): ToolDeclaration[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  const out: ToolDeclaration[] = [];
  for (const t of tools) {
    if (typeof t !== 'object' || t === null) continue;
    const fn = (t as { function?: unknown }).function;
    const candidate =
      typeof fn === 'object' && fn !== null && typeof (t as { name?: unknown }).name !== 'string'
        ? {
            ...(fn as object),
            ...('annotations' in t && { annotations: t.annotations }),
            ...('kind' in t && { kind: t.kind }),
          }
        : t;
    const parsed = safeParseInput(ToolDeclaration, candidate);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

/**
 * Tool-call arguments as the gate reads them: a JSON string (the OpenAI API's form) parsed, an object as
 * it is, a blank string as none. A string that is not JSON is kept as it is, which the classifier reads
 * as it reads arguments it cannot read (as missing ones: a write whose rule names target arguments
 * carries `?missing:<tool>@<digest>`), and `unreadable` is true so the reader reports it.
 *
 * @example
 * readArguments('{"vm":101}'); // { args: { vm: 101 }, unreadable: false }
 * readArguments('{not json');  // { args: '{not json', unreadable: true }
 */
export function readArguments(args: unknown): { args: unknown; unreadable: boolean } {
  if (typeof args !== 'string') return { args, unreadable: false };
  if (args.trim() === '') return { args: undefined, unreadable: false };
  try {
    return { args: JSON.parse(args) as unknown, unreadable: false };
  } catch {
    return { args, unreadable: true };
  }
}
