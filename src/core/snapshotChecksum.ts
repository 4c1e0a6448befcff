/*
 * A snapshot's checksum: FNV-1a (32 bits) over a walk of its JSON value. Computing it copies the
 * value at the same time, so `persist()` pays one walk for its defensive copy and its checksum,
 * and a restore of a snapshot the session wrote itself pays one walk to copy it and prove it
 * unchanged, instead of a full schema validation.
 *
 * The checksum detects accidental change (an edited field, a truncated write, a migration bug),
 * not a forger: anyone who can write the store can compute it, as they could write a valid
 * snapshot. Access to the store is what protects it (docs/performance.md).
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** Type tags, so `"1"` and `1`, `[]` and `{}`, and key/value boundaries never hash alike. */
const TAG = { null: 1, false: 2, true: 3, number: 4, string: 5, array: 6, object: 7, end: 8, key: 9, int: 10 } as const;

/** The running hash, in a typed array: cheaper to load and store than a module variable in the hot loop. */
const H = new Int32Array(1);

const mix = (n: number) => {
  H[0] = Math.imul(H[0]! ^ n, FNV_PRIME);
};

function mixString(s: string): void {
  mix(TAG.string);
  mix(s.length);
  // Two UTF-16 units per step: half the multiplications, the same detection of any changed unit.
  // The hash stays in a local for the loop (the module's variable would be loaded and stored per step).
  let x = H[0]!;
  let i = 0;
  for (; i + 1 < s.length; i += 2) x = Math.imul(x ^ ((s.charCodeAt(i) << 16) | s.charCodeAt(i + 1)), FNV_PRIME);
  if (i < s.length) x = Math.imul(x ^ s.charCodeAt(i), FNV_PRIME);
  H[0] = x;
}

const HEX = '0123456789abcdef';

/** Eight lowercase hex digits of a 32-bit value (`toString(16)` and `padStart` cost a tenth of a restore). */
export function hex8(n: number): string {
  return (
    HEX[(n >>> 28) & 15]! +
    HEX[(n >>> 24) & 15]! +
    HEX[(n >>> 20) & 15]! +
    HEX[(n >>> 16) & 15]! +
    HEX[(n >>> 12) & 15]! +
    HEX[(n >>> 8) & 15]! +
    HEX[(n >>> 4) & 15]! +
    HEX[n & 15]!
  );
}

/**
 * A key's own hash, cached: snapshots repeat the same few dozen field names, and hashing each
 * name's characters again was the largest part of a walk. The key then counts as one word: a
 * changed name still changes its word (the cache holds each name's own FNV-1a), so the checksum
 * catches it. Call ids are keys too, so the cache stops growing at a bound.
 */
const keyWords = new Map<string, number>();
const KEY_CACHE_LIMIT = 256;

function mixKey(key: string): void {
  let word = keyWords.get(key);
  if (word === undefined) {
    let x = FNV_OFFSET;
    for (let i = 0; i < key.length; i++) x = Math.imul(x ^ key.charCodeAt(i), FNV_PRIME);
    word = x;
    if (keyWords.size < KEY_CACHE_LIMIT) keyWords.set(key, word);
  }
  mix(TAG.key);
  mix(word);
}

/** Thrown inside the walk for a value JSON would not keep as it is; caught by the caller. */
const NOT_JSON = new Error('not plain JSON data');

function walk(value: unknown, depth: number, copying: boolean): unknown {
  if (value === null) {
    mix(TAG.null);
    return null;
  }
  switch (typeof value) {
    case 'boolean':
      mix(value ? TAG.true : TAG.false);
      return value;
    case 'number':
      if ((value | 0) === value) {
        // A 32-bit integer (counts, epochs, sequence numbers): one step. -0 hashes as 0, as JSON writes it.
        mix(TAG.int);
        mix(value);
        return value;
      }
      if (!Number.isFinite(value)) throw NOT_JSON;
      mix(TAG.number);
      f64[0] = value;
      mix(u32[0]!);
      mix(u32[1]!);
      return value;
    case 'string':
      mixString(value);
      return value;
    case 'object': {
      if (depth > 8) throw NOT_JSON; // snapshots are shallow; anything deeper is not one this build wrote
      if (Array.isArray(value)) {
        mix(TAG.array);
        const out = copying ? new Array<unknown>(value.length) : value;
        for (let i = 0; i < value.length; i++) {
          const v = walk(value[i], depth + 1, copying);
          if (copying) out[i] = v;
        }
        mix(TAG.end);
        return out;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) throw NOT_JSON;
      mix(TAG.object);
      const out: Record<string, unknown> = copying ? {} : (value as Record<string, unknown>);
      const keys = Object.keys(value);
      for (let k = 0; k < keys.length; k++) {
        const key = keys[k]!;
        const v = (value as Record<string, unknown>)[key];
        if (v === undefined) continue; // JSON drops it too
        mixKey(key);
        const copy = walk(v, depth + 1, copying);
        if (!copying) continue;
        // A key like `__proto__` (a call id) is a name, never the prototype.
        if (key === '__proto__')
          Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
        else out[key] = copy;
      }
      mix(TAG.end);
      return out;
    }
    default:
      throw NOT_JSON;
  }
}

/**
 * Copies a JSON value and computes its checksum in one walk; `undefined` for anything that is not
 * plain JSON data (a class instance, a getter or Proxy that throws, a cycle, a non-finite number).
 * With `copying` false it only computes the checksum, and `copy` is the value itself (for a value
 * nobody else holds, such as one just parsed from text). With `fields`, the value must be an object
 * and only those fields count, in that order: the checksum is the one of an object holding just
 * them, and the copy (even when not `copying`, a new object) holds just them. `shallow` names, for
 * some of those fields, how to copy the object there (one literal of its fields, see
 * `MachineKind.copyContext`); such an object's field names are checked rather than hashed, so its
 * checksum differs from the plain walk's: a writer and a reader must name the same fields and copiers.
 *
 * @example
 * copyWithChecksum({ a: [1, 'x'] })?.checksum; // 8 hex digits, the same for an equal value
 */
export function copyWithChecksum<T>(
  value: T,
  copying = true,
  fields?: readonly string[],
  shallow?: Readonly<Record<string, ShallowCopy>>,
): { copy: T; checksum: string } | undefined {
  H[0] = FNV_OFFSET;
  try {
    const copy = (fields === undefined ? walk(value, 0, copying) : walkFields(value, fields, copying, shallow)) as T;
    return { copy, checksum: hex8(H[0]!) };
  } catch {
    return undefined;
  }
}

/** Copies an object as one literal of the fields it should have (each read once). */
export type ShallowCopy = (value: never) => object;

/** The top of a snapshot: the named fields only, so a restore builds no object to leave the others out. */
function walkFields(
  value: unknown,
  fields: readonly string[],
  copying: boolean,
  shallow: Readonly<Record<string, ShallowCopy>> | undefined,
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw NOT_JSON;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  mix(TAG.object);
  for (const key of fields) {
    if (!Object.hasOwn(source, key)) continue;
    const v = source[key];
    if (v === undefined) continue;
    mixKey(key);
    const copier = shallow?.[key];
    out[key] = copier === undefined ? walk(v, 1, copying) : walkShallow(v, copier, copying);
  }
  mix(TAG.end);
  return out;
}

/**
 * An object copied by its shallow copier first, then walked: a copy of one shape (a transitioning
 * store per field into `{}`, as the plain walk copies, was most of a restore's copy). The value must
 * have exactly the copier's fields: one more, or one missing, and it is not plain data of this shape.
 * The field names are not hashed: that the value has exactly the copier's fields is checked, and the
 * values are hashed in the copier's order, so a renamed or moved field still changes the result or
 * fails the check (hashing the names was a fifth of a restore's walk).
 */
function walkShallow(value: unknown, copier: ShallowCopy, copying: boolean): object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw NOT_JSON;
  if (Object.getPrototypeOf(value) !== Object.prototype) throw NOT_JSON;
  const out = copier(value as never) as Record<string, unknown>;
  const keys = copierKeys(copier, out);
  if (Object.keys(value).length !== keys.length) throw NOT_JSON;
  mix(TAG.object);
  mix(keys.length);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const v = out[key];
    if (v === undefined) throw NOT_JSON; // a field the value lacks: not a snapshot of this shape
    const copy = walk(v, 2, copying);
    if (copy !== v) out[key] = copy;
  }
  mix(TAG.end);
  return out;
}

/** Each copier's field names, in its order: the same for every copy it makes. */
const copierFields = new WeakMap<ShallowCopy, readonly string[]>();

function copierKeys(copier: ShallowCopy, copy: object): readonly string[] {
  let keys = copierFields.get(copier);
  if (keys === undefined) copierFields.set(copier, (keys = Object.keys(copy)));
  return keys;
}
