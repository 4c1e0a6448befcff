/**
 * JSON laid out as Prettier lays out compact JSON (`printWidth` 120, the
 * repository's setting): a value stays on one line when it fits, otherwise
 * its members go one per line; an array of two or more objects (or of two or
 * more arrays) with more than one member each always breaks. Strings and
 * numbers are never split. Saving a machine needs this at run time, where
 * Prettier (a devDependency) is absent: the same machine gives the same bytes
 * in an installed copy as in this repository. test/editor/formatJson.test.ts
 * checks it against Prettier itself.
 *
 * Arrays of numbers only are laid out one per line when they do not fit
 * (Prettier would fill lines with them); machines and layouts hold none.
 *
 * @example
 * formatJson({ initial: 'RESOLVING', states: {} }); // '{ "initial": "RESOLVING", "states": {} }\n'
 */
export function formatJson(value: unknown, printWidth = 120): string {
  return print(value, 0, 0, 0, printWidth) + '\n';
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A scalar as Prettier prints it: exponents without `+` (`1e21`, not `1e+21`). */
function scalar(value: null | boolean | number | string): string {
  const text = JSON.stringify(value);
  return typeof value === 'number' ? text.replace(/e\+/, 'e') : text;
}

function flat(value: Json): string {
  if (value === null || typeof value !== 'object') return scalar(value);
  if (Array.isArray(value)) return `[${value.map(flat).join(', ')}]`;
  const keys = Object.keys(value);
  if (keys.length === 0) return '{}';
  return `{ ${keys.map((k) => `${JSON.stringify(k)}: ${flat(value[k]!)}`).join(', ')} }`;
}

const members = (value: Json): Json[] =>
  value === null || typeof value !== 'object' ? [] : Array.isArray(value) ? value : Object.values(value);

/** Prettier's rule: `[{ a, b }, { c, d }]` is never printed on one line. */
function alwaysBreaks(value: Json): boolean {
  if (!Array.isArray(value) || value.length < 2) return false;
  const first = value[0];
  const isArray = Array.isArray(first);
  return value.every(
    (el) =>
      el !== null &&
      typeof el === 'object' &&
      Array.isArray(el) === isArray &&
      (Array.isArray(el) ? el.length > 1 : Object.keys(el).length > 1),
  );
}

/** A forced break anywhere inside breaks every enclosing value too. */
function mustBreak(value: Json): boolean {
  return alwaysBreaks(value) || members(value).some(mustBreak);
}

function print(value: unknown, indent: number, column: number, trailing: number, width: number): string {
  const json = JSON.parse(JSON.stringify(value ?? null)) as Json;
  return printJson(json, indent, column, trailing, width);
}

function printJson(value: Json, indent: number, column: number, trailing: number, width: number): string {
  if (value === null || typeof value !== 'object') return scalar(value);
  const one = flat(value);
  if (one.length <= 2 || (!mustBreak(value) && column + one.length + trailing <= width)) return one;
  const pad = ' '.repeat(indent + 2);
  if (Array.isArray(value)) {
    const items = value.map(
      (el, i) => pad + printJson(el, indent + 2, indent + 2, i < value.length - 1 ? 1 : 0, width),
    );
    return `[\n${items.join(',\n')}\n${' '.repeat(indent)}]`;
  }
  const keys = Object.keys(value);
  const items = keys.map((k, i) => {
    const head = `${JSON.stringify(k)}: `;
    return pad + head + printJson(value[k]!, indent + 2, indent + 2 + head.length, i < keys.length - 1 ? 1 : 0, width);
  });
  return `{\n${items.join(',\n')}\n${' '.repeat(indent)}}`;
}
