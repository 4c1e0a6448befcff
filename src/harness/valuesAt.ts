/*
 * Reading values at a dot-separated path in untrusted data (a call's arguments, a tool's result),
 * shared by classifier rules' `targets`, `created` and `discovers`.
 */

/**
 * Reads an own data property: never an inherited one (so `constructor` or `toString` of
 * `Object.prototype` is never read), never a getter (so a hostile object runs no code). A key
 * named `__proto__` that `JSON.parse` made an own property is an ordinary key.
 *
 * @example
 * ownValue({ id: 7 }, 'id');          // 7
 * ownValue({}, 'constructor');        // undefined: inherited
 */
export function ownValue(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const desc = Object.getOwnPropertyDescriptor(value, key);
  return desc && 'value' in desc ? desc.value : undefined;
}

/** The most values one level of a path may hold: shared references cannot multiply the work without bound. */
const MAX_LEVEL_VALUES = 100_000;

/** Appends a value to a level, arrays (nested ones too, each once) flattened; false once the level is full. */
function pushFlat(level: unknown[], value: unknown, seen: Set<unknown>): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      if (seen.has(v)) continue; // a cycle, or the same array twice: its values are there already
      seen.add(v);
      for (let i = v.length - 1; i >= 0; i--) {
        const desc = Object.getOwnPropertyDescriptor(v, i);
        if (desc && 'value' in desc) stack.push(desc.value);
      }
    } else if (v !== undefined) {
      if (level.length >= MAX_LEVEL_VALUES) return false;
      level.push(v);
    }
  }
  return true;
}

/**
 * The strings (trimmed, non-empty) and finite numbers (as text) at a dot-separated path in a
 * value: arrays are expanded at every level, the top one and nested ones too; `''` is the value
 * itself. Own data properties only (see {@link ownValue}). In the order found.
 *
 * @example
 * valuesAt({ vms: [{ id: 1 }, { id: ' b ' }] }, 'vms.id'); // ['1', 'b']
 * valuesAt([{ id: 'x' }], 'id');                          // ['x']
 * valuesAt(['a', ['b']], '');                             // ['a', 'b']
 */
export function valuesAt(value: unknown, path: string): string[] {
  let level: unknown[] = [];
  pushFlat(level, value, new Set());
  for (const key of path === '' ? [] : path.split('.')) {
    const next: unknown[] = [];
    const seen = new Set<unknown>();
    for (const v of level) if (!pushFlat(next, ownValue(v, key), seen)) break;
    level = next;
  }
  const out: string[] = [];
  for (const v of level) {
    if (typeof v === 'string' && v.trim() !== '') out.push(v.trim());
    else if (typeof v === 'number' && Number.isFinite(v)) out.push(String(v));
  }
  return out;
}
