/*
 * The user's own words as a source of validated targets. A session keeps the user's (and the
 * engineer's system) messages in a normalised form; a write target whose value stands in one of
 * them is validated with source `user`. Tool output never reaches this list: only
 * `session.userMessage` adds to it. The matching rule is documented in docs/targets.md.
 */
import { hex8 } from '../core/snapshotChecksum.js';
import { MISSING_TARGET_PREFIX } from './missingTarget.js';

/** How many messages a session keeps; at the cap the oldest is dropped (the gate only gets stricter). */
export const MAX_USER_MESSAGES = 16;
/** The longest message kept, in characters; the rest is cut (a value past it is simply not found). */
export const MAX_USER_MESSAGE_LENGTH = 8192;
/** The shortest value a message can validate: one character stands in almost any text (`a`, `1`); two must still stand as a whole word. */
export const MIN_USER_VALUE_LENGTH = 2;

/**
 * Characters nobody sees (zero-width spaces and joiners, soft hyphens, direction marks, variation
 * selectors): text pasted from a page or a PDF carries them between the characters a person reads.
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
const INVISIBLES = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * A message as the session keeps it: invisible characters removed (the words as the user saw
 * them), NFKC, lower case, typographic quotes as plain ones, every run of white space as one space,
 * trimmed, cut at {@link MAX_USER_MESSAGE_LENGTH}.
 *
 * @example
 * normaliseWords('Pay  “GB29 NWBK”\n now'); // 'pay "gb29 nwbk" now'
 */
export function normaliseWords(text: string): string {
  return text
    .slice(0, MAX_USER_MESSAGE_LENGTH * 2)
    .replace(INVISIBLES, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_USER_MESSAGE_LENGTH);
}

/**
 * Characters that may stand right before a value: a start of words, an opening quote or bracket, and
 * the `#` people type before a channel or a tag (`#random`, `#42`). Not `@`: the domain of an address
 * the user typed is not a value they named.
 */
const BEFORE = new Set([' ', '"', "'", '(', '[', '{', '<', '`', ',', ';', ':', '=', '#']);
/** Characters that may stand right after a value: an end of words, a closing quote or bracket. */
const AFTER = new Set([' ', '"', "'", ')', ']', '}', '>', '`']);
/** Punctuation that may end a sentence right after a value, when the words end there too (`bob@example.com.`). */
const TRAILING = new Set([',', ';', ':', '.', '!', '?']);

/** Whether the words end at `end`: past any trailing punctuation, the text ends or a space, quote or bracket follows. */
function endsWords(text: string, end: number): boolean {
  let j = end;
  while (j < text.length && TRAILING.has(text[j]!)) j++;
  return j === text.length || AFTER.has(text[j]!);
}

/** The value of a target key: the key itself, and the part after a `prefix:` (not after `scheme://`). */
function valuesOfTarget(target: string): string[] {
  const out = [target];
  const colon = target.indexOf(':');
  if (colon > 0 && colon <= 32 && !target.startsWith('//', colon + 1) && colon < target.length - 1)
    out.push(target.slice(colon + 1));
  return out;
}

/** A value as it is compared: normalised as a message is, without surrounding quotes or trailing punctuation. */
function normaliseValue(value: string): string {
  return normaliseWords(value)
    .replace(/^["'`]+|["'`]+$/g, '')
    .replace(/[.,;:!?]+$/, '');
}

/** Whether `value` stands in `text` as whole words (the characters around it end a word). */
function standsIn(text: string, value: string): boolean {
  for (let i = text.indexOf(value); i >= 0; i = text.indexOf(value, i + 1)) {
    const before = i === 0 ? ' ' : text[i - 1]!;
    if (BEFORE.has(before) && endsWords(text, i + value.length)) return true;
  }
  return false;
}

/** Without the spaces and hyphens people type inside long identifiers (an IBAN in groups of four). */
const compact = (s: string) => s.replace(/[\s-]+/g, '');
/** What may stand between the groups of a long identifier (after {@link normaliseWords}: one space). */
const GROUP_SEPARATORS = new Set([' ', '-']);

/**
 * Whether the identifier `bare` stands in `text` as whole words typed in groups (`gb29 nwbk 6016 …`,
 * `gb29-nwbk-…`): it begins where a value may begin, spaces or hyphens may stand between its
 * characters, and the words end right after it, as {@link standsIn} has it. Not a part of a longer
 * identifier: `gb29nwbk6016` does not stand in `gb29 nwbk 6016 1331`.
 */
function standsInGroups(text: string, bare: string): boolean {
  // The cheap test first: most values are not in the text at all.
  if (!compact(text).includes(bare)) return false;
  for (let i = text.indexOf(bare[0]!); i >= 0; i = text.indexOf(bare[0]!, i + 1)) {
    if (i > 0 && !BEFORE.has(text[i - 1]!)) continue;
    let j = i;
    let k = 0;
    while (k < bare.length && j < text.length) {
      if (text[j] === bare[k]) {
        j++;
        k++;
      } else if (GROUP_SEPARATORS.has(text[j]!)) j++;
      else break;
    }
    if (k === bare.length && endsWords(text, j)) return true;
  }
  return false;
}
/** Numbers as typed with thousands separators (`1,000`, `1 000`, `1_000`) read as the digits. */
const plainNumbers = (s: string) => s.replace(/(\d)[, _](?=\d{3}(?!\d))/g, '$1');

/**
 * The words of a message a target's value stands in, or undefined. A value matches when, after
 * both are normalised ({@link normaliseWords}), it stands in the message as whole words; a long
 * identifier (8 or more characters with a digit) also matches when typed with spaces or hyphens
 * inside it, still as whole words; a number also matches when typed with thousands separators. A
 * value holding an invisible character never matches: the user cannot have typed what they saw.
 *
 * @example
 * userWordsFor('iban:GB29NWBK60161331926819', ['pay gb29 nwbk 6016 1331 9268 19 today']); // 'gb29nwbk60161331926819'
 * userWordsFor('email:bob@example.com', ['mail "bob@example.com".']);                   // 'bob@example.com'
 * userWordsFor('email:bob@example.com', ['mail bob@example.com.evil']);                 // undefined
 * userWordsFor('iban:GB29NWBK6016', ['pay gb29 nwbk 6016 1331 9268 19 today']);            // undefined: a part of it
 */
export function userWordsFor(target: string, messages: readonly string[]): string | undefined {
  // A write's missing target argument (`?missing:send_money@…`) has no value: typing the tool's name validates nothing.
  if (messages.length === 0 || target.startsWith(MISSING_TARGET_PREFIX)) return undefined;
  if (INVISIBLE.test(target)) return undefined;
  for (const raw of valuesOfTarget(target)) {
    const value = normaliseValue(raw);
    if (value.length < MIN_USER_VALUE_LENGTH) continue;
    for (const text of messages) if (standsIn(text, value)) return value;
    const bare = compact(value);
    if (bare.length >= 8 && /\d/.test(bare) && !/[\s]/.test(value))
      for (const text of messages) if (standsInGroups(text, bare)) return bare;
    if (/^\d+([.]\d+)?$/.test(value))
      for (const text of messages) if (standsIn(plainNumbers(text), value)) return value;
  }
  return undefined;
}

/**
 * A call's digest: what a person's approval is bound to. The tool, the arguments in canonical JSON
 * (keys sorted at every level) and the targets (sorted), hashed with two 32-bit FNV-1a passes. It
 * tells calls apart; it is not a signature (the session store must be protected, docs/escalation.md).
 * Throws a `TypeError` for arguments JSON cannot say either (a bigint, a cycle) and a `RangeError`
 * for arguments of more than {@link MAX_DIGEST_VALUES} values, counting an object each time it is
 * reached (objects shared many times over would otherwise take exponential time): such a call has
 * no digest, so no approval ever matches it.
 *
 * @example
 * callDigest({ tool: 'send_money', args: { to: 'a', amount: 5 } }) ===
 *   callDigest({ tool: 'send_money', args: { amount: 5, to: 'a' } }); // true
 */
export function callDigest(call: { tool: string; args?: unknown; targets?: readonly string[] }): string {
  // The hash of `tool \0 canonical-args \0 sorted-targets joined by \1`, fed piece by piece: a block
  // computes one per blocked call, and building the joined text was most of its cost.
  const targets = call.targets ?? [];
  const parts = [
    call.tool,
    '\u0000',
    call.args === undefined ? 'null' : canonicalJson(call.args, 0, { left: MAX_DIGEST_VALUES, path: new Set() }),
    '\u0000',
    targets.length < 2 ? (targets[0] ?? '') : [...targets].sort().join('\u0001'),
  ];
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  let i = 0;
  for (const text of parts) {
    for (let k = 0; k < text.length; k++, i++) {
      const c = text.charCodeAt(k);
      a = Math.imul(a ^ c, 0x01000193) >>> 0;
      b = Math.imul(b ^ c ^ (i & 0xff), 0x01000193) >>> 0;
    }
  }
  return `call:${hex8(a)}${hex8(b)}`;
}

/** The most values a call's arguments may hold for a digest, an object counted each time it is reached. */
const MAX_DIGEST_VALUES = 1_000_000;

/** What {@link canonicalJson} has left to spend, and the objects it is inside of (to refuse a cycle). */
interface CanonicalWalk {
  left: number;
  path: Set<object>;
}

/**
 * JSON with object keys sorted at every level; anything JSON cannot say is `null`, as `JSON.stringify`
 * has it, and what it refuses (a bigint, a cycle) throws. Past {@link MAX_DIGEST_VALUES} values, throws.
 */
function canonicalJson(value: unknown, depth: number, walk: CanonicalWalk): string {
  if (--walk.left < 0)
    throw new RangeError(`callDigest: the arguments hold more than ${MAX_DIGEST_VALUES} values (or share objects)`);
  if (depth > 64) return 'null';
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (walk.path.has(value)) throw new TypeError('callDigest: the arguments are cyclic');
  walk.path.add(value);
  try {
    if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1, walk)).join(',')}]`;
    const keys = Object.keys(value).sort();
    return `{${keys
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k], depth + 1, walk)}`)
      .join(',')}}`;
  } finally {
    walk.path.delete(value);
  }
}
