/*
 * Reading tool calls the way the detectors need: the JSON object in an
 * output (even one with text around it), a field of the input, times in the
 * formats tools print.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The JSON object a tool's output holds, or `undefined` for output that
 * carries none: empty, a "no ..." or "state provider not available" message,
 * text that is not JSON. Strict JSON first; otherwise the text from the first
 * `{` up to the last `}` that makes it parse (so prose around one object is
 * tolerated, a truncated object is not).
 *
 * @example
 * parseToolOutput('Result: {"node":"pve1"} done'); // { node: 'pve1' }
 * parseToolOutput('No storage data available'); // undefined
 */
export function parseToolOutput(output: string): Json | undefined {
  const text = output.trim();
  if (text === '') return undefined;
  const lower = text.toLowerCase();
  if (lower.startsWith('no ') || lower.startsWith('state provider not available')) return undefined;
  const tryParse = (s: string) => {
    try {
      const value: unknown = JSON.parse(s);
      return isObject(value) ? value : undefined;
    } catch {
      return undefined;
    }
  };
  const strict = tryParse(text);
  if (strict) return strict;
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  for (let end = text.lastIndexOf('}'); end > start; end = text.lastIndexOf('}', end - 1)) {
    const parsed = tryParse(text.slice(start, end + 1));
    if (parsed) return parsed;
  }
  return undefined;
}

/**
 * A string field of a tool's input (an object, or its JSON text); `''` when absent.
 *
 * @example
 * inputField('{"type":"pools"}', 'type'); // 'pools'
 */
export function inputField(input: unknown, field: string): string {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return '';
    }
  }
  if (!isObject(value)) return '';
  const found = value[field];
  return typeof found === 'string' ? found : '';
}

const NAIVE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/;

/**
 * A time a tool printed, as epoch milliseconds: RFC 3339 (with or without
 * fractions), `YYYY-MM-DDTHH:MM:SS` or `YYYY-MM-DD HH:MM:SS` (read as UTC), or a
 * number of seconds (milliseconds when it is that large). `undefined` when
 * absent or unreadable.
 *
 * @example
 * parseToolTime('2026-08-22 12:00:00'); // 1787400000000
 */
export function parseToolTime(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value < 1e12 ? value * 1000 : value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  const naive = NAIVE.exec(text);
  const ms = Date.parse(naive ? `${naive[1]}T${naive[2]}Z` : text);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  return ms;
}

/** A field as text: strings trimmed, numbers printed; anything else `''`. */
export const textOf = (v: unknown): string =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : '';

/** A field as a number, or 0. */
export const numberOf = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** A field as an array of objects (anything else dropped). */
export const objectsOf = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

export type { Json };
