/* Where a file's JSON breaks, said in one line: for machine files and session files alike. */

/**
 * Where a file's JSON breaks, as a person finds it: line and column (counted from 1), from the
 * character position `JSON.parse` names, and what it says, in one line (the piece of the text a
 * message quotes may hold a line break: it is written `\n`).
 *
 * @example
 * try { JSON.parse(text); } catch (e) { jsonSyntaxError(text, e); } // 'not JSON at line 3, column 7: Expected ...'
 */
export function jsonSyntaxError(text: string, error: unknown): string {
  const message = escapeControls(error instanceof Error ? error.message : String(error));
  const at = /at position (\d+)/.exec(message);
  // A text cut off before its JSON ends: the message names no position, the place is the end of the file.
  const end = !at && /Unexpected end of JSON input/.test(message);
  if (!at && !end) return `not JSON: ${message}`;
  const before = at ? text.slice(0, Number(at[1])) : text;
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  const where = `line ${line}, column ${column}${end ? ' (the end of the file)' : ''}`;
  return `not JSON at ${where}: ${message.replace(/ in JSON at position \d+.*$/, '')}`;
}

/** A text on one line: line breaks and other control characters written as JSON writes them (`\n`, `\u0007`). */
export const escapeControls = (text: string): string =>
  text.replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1));
