import * as z from 'zod/mini';
import { MAX_CALL_TARGETS, MAX_TARGET_LENGTH } from '../safety/SafetyContext.js';
import { ownValue, valuesAt } from './valuesAt.js';

/**
 * A result field that reveals targets: one entry of a classifier rule's `discovers`. `path` has the
 * `targets` syntax (dot-separated; arrays expanded at every level, the top one too); `''` is the
 * result itself. `prefix` goes before each value found; there is none unless given.
 *
 * @example
 * ResultDiscovery.parse({ path: 'files.id', prefix: 'file:' }); // { path: 'files.id', prefix: 'file:' }
 */
export const ResultDiscovery = z.strictObject({
  /** Dot-separated path in the result: `files.id`; `''` is the result itself. */
  path: z.string(),
  /** Put before each value found: `file:`. */
  prefix: z.optional(z.string()),
});
export type ResultDiscovery = z.infer<typeof ResultDiscovery>;

/** A target a result revealed, with the rule's path it was found at (what `endToolCall` takes as `discovered`). */
export interface DiscoveredTarget {
  target: string;
  field: string;
}

/** JSON text that is an object or an array; a bare word, number or anything else is free text. */
function parsedJson(text: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? [parsed] : [];
  } catch {
    return []; // free text reveals nothing: only declared fields of structured output do
  }
}

/** An MCP `tools/call` result: `content` an array of typed items, or a `structuredContent` object. */
function isMcpResult(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const structured = ownValue(value, 'structuredContent');
  if (typeof structured === 'object' && structured !== null) return true;
  const content = ownValue(value, 'content');
  return (
    Array.isArray(content) &&
    content.length > 0 &&
    content.every((item: unknown) => typeof ownValue(item, 'type') === 'string')
  );
}

/** The JSON values a result carries, as {@link discoveredTargets} reads them. */
function valuesOf(result: unknown): unknown[] {
  const value = typeof result === 'string' ? parsedJson(result)[0] : result;
  if (!isMcpResult(value)) return value === undefined ? [] : [value];
  if (ownValue(value, 'isError') === true) return []; // a failed call reveals nothing
  const structured = ownValue(value, 'structuredContent');
  if (typeof structured === 'object' && structured !== null) return [structured];
  const out: unknown[] = [];
  for (const item of ownValue(value, 'content') as unknown[]) {
    const text = ownValue(item, 'text');
    if (ownValue(item, 'type') === 'text' && typeof text === 'string') out.push(...parsedJson(text));
  }
  return out;
}

/**
 * The targets a tool's result reveals by a rule's `discovers` fields, each with the field
 * (the rule's path) it was found at: what `endToolCall({ id, ok: true, discovered })` takes.
 *
 * The result may be a JSON value (an object, an array, a number; a Claude Code `tool_response`
 * is one), JSON text (a string that parses to an object or an array; free text reveals nothing),
 * or an MCP `tools/call` result: its `structuredContent`, else each `text` content item that is
 * JSON; `isError: true` reveals nothing. Only own data properties are read, never inherited ones
 * or getters. Values are strings (trimmed, non-empty) and finite numbers, prefixed, deduplicated
 * in the order found; one longer than `MAX_TARGET_LENGTH` is skipped, and at most
 * `MAX_CALL_TARGETS` are returned. Never throws: a result that cannot be read reveals nothing.
 *
 * @example
 * discoveredTargets(
 *   { content: [{ type: 'text', text: '{"files":[{"id":"a1"},{"id":"b2"}]}' }] },
 *   [{ path: 'files.id', prefix: 'file:' }],
 * ); // [{ target: 'file:a1', field: 'files.id' }, { target: 'file:b2', field: 'files.id' }]
 */
export function discoveredTargets(result: unknown, discovers: readonly ResultDiscovery[]): DiscoveredTarget[] {
  if (discovers.length === 0) return [];
  const found = new Map<string, string>();
  try {
    for (const value of valuesOf(result))
      for (const { path, prefix = '' } of discovers)
        for (const v of valuesAt(value, path)) {
          const target = prefix + v;
          if (target.length > MAX_TARGET_LENGTH || found.has(target)) continue;
          found.set(target, path);
          if (found.size === MAX_CALL_TARGETS) return [...found].map(([target, field]) => ({ target, field }));
        }
  } catch {
    return []; // a result that cannot be read (a hostile Proxy) reveals nothing
  }
  return [...found].map(([target, field]) => ({ target, field }));
}
