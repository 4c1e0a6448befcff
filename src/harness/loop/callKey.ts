/**
 * A key that is equal for calls with the same tool name and the same
 * arguments, whatever the order of the arguments' keys. Used to spot a model
 * repeating itself.
 */
export function callKey(name: string, args: unknown): string {
  return `${name}\u0000${stableStringify(args, new Set())}`;
}

function stableStringify(value: unknown, seen: Set<object>): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? String(value);
  if (seen.has(value)) return '"[Circular]"';
  seen.add(value);
  try {
    if (Array.isArray(value)) return `[${value.map((v) => stableStringify(v, seen)).join(',')}]`;
    const keys = Object.keys(value).sort();
    const record = value as Record<string, unknown>;
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(record[k], seen)}`).join(',')}}`;
  } finally {
    seen.delete(value);
  }
}
