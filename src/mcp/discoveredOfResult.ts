import { MAX_CALL_TARGETS, MAX_TARGET_LENGTH } from '../SafetyContext.js';

/** A result field that reveals targets: a classifier rule's `discovers` entry. */
export interface ResultDiscovery {
  /** Dot-separated path in the result (the `targets` syntax); arrays are expanded at every level; `''` is the value itself. */
  path: string;
  /** Put before each value found (`file:`). */
  prefix?: string;
}

/** Reads an own data property: never inherited, never a getter. */
function ownValue(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const desc = Object.getOwnPropertyDescriptor(value, key);
  return desc && 'value' in desc ? desc.value : undefined;
}

/** The strings and finite numbers at `path` in `value`, arrays expanded at every level (the top one too). */
function valuesAt(value: unknown, path: string): string[] {
  let level: unknown[] = Array.isArray(value) ? [...(value as unknown[])] : [value];
  for (const key of path === '' ? [] : path.split('.')) {
    const next: unknown[] = [];
    for (const v of level) {
      const found = ownValue(v, key);
      if (Array.isArray(found)) next.push(...(found as unknown[]));
      else if (found !== undefined) next.push(found);
    }
    level = next;
  }
  const out: string[] = [];
  for (const v of level) {
    if (typeof v === 'string' && v.trim() !== '') out.push(v.trim());
    else if (typeof v === 'number' && Number.isFinite(v)) out.push(String(v));
  }
  return out;
}

/** The JSON values a tool result carries: its `structuredContent`, else each text item that is JSON. */
function valuesOf(result: unknown): unknown[] {
  const structured = ownValue(result, 'structuredContent');
  if (typeof structured === 'object' && structured !== null) return [structured];
  const content = ownValue(result, 'content');
  if (!Array.isArray(content)) return [];
  const out: unknown[] = [];
  for (const item of content as unknown[]) {
    const text = ownValue(item, 'text');
    if (ownValue(item, 'type') !== 'text' || typeof text !== 'string') continue;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null) out.push(parsed);
    } catch {
      // Free text: it reveals nothing (only declared fields of structured output do).
    }
  }
  return out;
}

/**
 * The targets an MCP tool result reveals by the `discovers` fields of its rule, for
 * `endToolCall({ discovered })`: read from the result's `structuredContent`, or, when it has
 * none, from each text content item that is a JSON object or array. Arrays are expanded at
 * every level; values are strings and finite numbers, trimmed, prefixed, deduplicated in the
 * order found. A failed result (`isError: true`) reveals nothing, nor does free text. At most
 * `MAX_CALL_TARGETS` targets, each at most `MAX_TARGET_LENGTH` characters (longer ones are
 * dropped: they cannot name a target).
 *
 * @example
 * discoveredOfResult(
 *   { content: [{ type: 'text', text: '{"files":[{"id":"a1"},{"id":"b2"}]}' }] },
 *   [{ path: 'files.id', prefix: 'file:' }],
 * ); // ['file:a1', 'file:b2']
 */
export function discoveredOfResult(result: unknown, discovers: readonly ResultDiscovery[]): string[] {
  if (discovers.length === 0 || ownValue(result, 'isError') === true) return [];
  const found = new Set<string>();
  for (const value of valuesOf(result))
    for (const { path, prefix = '' } of discovers)
      for (const v of valuesAt(value, path)) {
        const target = prefix + v;
        if (target.length > MAX_TARGET_LENGTH) continue;
        found.add(target);
        if (found.size === MAX_CALL_TARGETS) return [...found];
      }
  return [...found];
}
