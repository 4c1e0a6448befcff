/*
 * A shell-word parser for the command line a coding agent hands its shell tool: enough of the
 * POSIX shell grammar to split a line into simple commands (pipelines, `&&`, `||`, `;`, `&`,
 * newlines, groups), take quoting apart (single, double, backslash, `$'...'`), and see
 * redirections and here-documents. What it cannot judge without running the shell (command or
 * process substitution, control keywords, an unterminated quote) is reported as `unsupported`,
 * and a caller fails closed on it.
 */

/** A redirection of one simple command: `>` `>>` `>|` `&>` `&>>` `<` `<<` `<<<` `<>` `>&` `<&`. */
export interface ShellRedirect {
  op: string;
  /** The file descriptor written before the operator (`2` in `2>err.log`), if any. */
  fd?: string;
  /** The word after the operator (the delimiter of a here-document). */
  target: string;
}

/** One simple command: its words with quotes removed. */
export interface ShellCommand {
  /** Command name and arguments. Empty for a command that is only assignments or redirections. */
  argv: string[];
  /** `NAME=value` words before the command name. */
  assignments: string[];
  redirects: ShellRedirect[];
  /** Indexes into `argv` of words holding a parameter expansion (`$HOME`, `${x}`) or an unquoted glob. */
  expanding: number[];
  /** How many `( )` subshells it runs in (absent at the top level): a `cd` inside one ends with it. */
  subshell?: number;
  /**
   * The subshells it runs in, outermost first, each by its own number in the line (absent at the top
   * level): commands of the same subshell share a folder a `cd` in it moves, siblings do not.
   */
  scope?: number[];
}

/** A command line taken apart: its simple commands in order, or why it cannot be judged statically. */
export interface ParsedShell {
  commands: ShellCommand[];
  /** Set when the line uses something only running the shell can resolve; `commands` is then incomplete. */
  unsupported?: string;
}

type Token =
  | { type: 'word'; value: string; expanding: boolean; quoted: boolean }
  | { type: 'op'; value: string }
  | { type: 'redirect'; op: string; fd?: string };

const CONTROL_OPS = ['&&', '||', '|&', ';;', '|', ';', '&', '(', ')'];
const REDIRECT_OPS = ['&>>', '<<<', '<<-', '>>', '>|', '&>', '<<', '<>', '>&', '<&', '>', '<'];
const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'for',
  'while',
  'until',
  'do',
  'done',
  'case',
  'esac',
  'function',
  'select',
  'coproc',
  '[[',
  ']]',
]);

class Unsupported extends Error {}

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  const heredocs: { delimiter: string; stripTabs: boolean }[] = [];
  let i = 0;
  let word = '';
  let inWord = false;
  let expanding = false;
  let quoted = false;
  /** An unquoted `[` seen in this word: a glob only once a `]` follows (`[` alone is the test command). */
  let bracket = false;
  const endWord = () => {
    if (inWord) tokens.push({ type: 'word', value: word, expanding, quoted });
    word = '';
    inWord = false;
    expanding = false;
    quoted = false;
    bracket = false;
  };
  /** After a newline: skip the bodies of the here-documents opened on the line just ended. */
  const skipHeredocs = () => {
    for (const { delimiter, stripTabs } of heredocs.splice(0)) {
      for (;;) {
        if (i >= src.length) throw new Unsupported(`here-document ${JSON.stringify(delimiter)} is not closed`);
        const end = src.indexOf('\n', i);
        let line = src.slice(i, end === -1 ? src.length : end);
        i = end === -1 ? src.length : end + 1;
        if (stripTabs) line = line.replace(/^\t+/, '');
        if (line === delimiter) break;
      }
    }
  };
  /** Reads `$...` at `i` (the `$` included) into the word; command and arithmetic substitution are unsupported. */
  const dollar = (inQuotes: boolean) => {
    const next = src[i + 1];
    if (next === '(') throw new Unsupported('command substitution $(...)');
    if (next === "'" && !inQuotes) {
      // ANSI-C quoting: escapes resolved loosely (the text is data, never a command name we trust).
      const close = src.indexOf("'", i + 2);
      if (close === -1) throw new Unsupported("unterminated $'...'");
      word += src.slice(i + 2, close).replace(/\\(.)/g, '$1');
      i = close + 1;
      inWord = true;
      quoted = true;
      expanding = true;
      return;
    }
    if (next === '{') {
      const close = src.indexOf('}', i + 2);
      if (close === -1) throw new Unsupported('unterminated ${...}');
      word += src.slice(i, close + 1);
      i = close + 1;
      inWord = true;
      expanding = true;
      return;
    }
    const name = /^([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(src.slice(i + 1));
    if (name) {
      word += '$' + name[1];
      i += 1 + name[1]!.length;
      inWord = true;
      expanding = true;
      return;
    }
    word += '$';
    i++;
    inWord = true;
  };

  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t') {
      endWord();
      i++;
      continue;
    }
    if (c === '\n') {
      endWord();
      tokens.push({ type: 'op', value: ';' });
      i++;
      skipHeredocs();
      continue;
    }
    if (c === '#' && !inWord) {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '\\') {
      if (src[i + 1] === '\n') {
        i += 2; // line continuation
        continue;
      }
      if (i + 1 >= src.length) throw new Unsupported('a trailing backslash');
      word += src[i + 1];
      inWord = true;
      quoted = true;
      i += 2;
      continue;
    }
    if (c === "'") {
      const close = src.indexOf("'", i + 1);
      if (close === -1) throw new Unsupported('an unterminated single quote');
      word += src.slice(i + 1, close);
      inWord = true;
      quoted = true;
      i = close + 1;
      continue;
    }
    if (c === '"') {
      inWord = true;
      quoted = true;
      i++;
      for (;;) {
        if (i >= src.length) throw new Unsupported('an unterminated double quote');
        const d = src[i]!;
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\' && i + 1 < src.length && '$`"\\\n'.includes(src[i + 1]!)) {
          if (src[i + 1] !== '\n') word += src[i + 1];
          i += 2;
          continue;
        }
        if (d === '`') throw new Unsupported('command substitution `...`');
        if (d === '$') {
          dollar(true);
          continue;
        }
        word += d;
        i++;
      }
      continue;
    }
    if (c === '`') throw new Unsupported('command substitution `...`');
    if (c === '$') {
      dollar(false);
      continue;
    }
    if ((c === '<' || c === '>') && src[i + 1] === '(') throw new Unsupported('process substitution');
    // A file descriptor number directly before a redirection (`2>`) belongs to it.
    const fd = inWord && !quoted && !expanding && /^[0-9]+$/.test(word) && (c === '<' || c === '>') ? word : undefined;
    const redirect = REDIRECT_OPS.find((op) => src.startsWith(op, i));
    if (redirect) {
      if (fd !== undefined) {
        word = '';
        inWord = false;
      } else endWord();
      tokens.push({ type: 'redirect', op: redirect, ...(fd !== undefined && { fd }) });
      i += redirect.length;
      if (redirect === '<<' || redirect === '<<-') {
        // The delimiter is the next word, quotes removed.
        while (src[i] === ' ' || src[i] === '\t') i++;
        const m = /^(?:'([^']*)'|"([^"]*)"|([^\s;&|<>()]+))/.exec(src.slice(i));
        if (!m) throw new Unsupported('a here-document with no delimiter');
        const delimiter = (m[1] ?? m[2] ?? m[3]!).replace(/\\/g, '');
        heredocs.push({ delimiter, stripTabs: redirect === '<<-' });
        tokens.push({ type: 'word', value: delimiter, expanding: false, quoted: true });
        i += m[0].length;
      }
      continue;
    }
    const op = CONTROL_OPS.find((o) => src.startsWith(o, i));
    if (op) {
      endWord();
      tokens.push({ type: 'op', value: op });
      i += op.length;
      continue;
    }
    // Only unquoted characters reach here, whatever parts of the word were quoted (`'src'/*` globs).
    if (c === '*' || c === '?' || (c === ']' && bracket)) expanding = true;
    if (c === '[') bracket = true;
    if (c === '~' && !inWord) expanding = true;
    word += c;
    inWord = true;
    i++;
  }
  endWord();
  if (heredocs.length) throw new Unsupported(`here-document ${JSON.stringify(heredocs[0]!.delimiter)} is not closed`);
  return tokens;
}

/**
 * Splits a shell command line into its simple commands. Never throws: anything it cannot judge
 * statically comes back in `unsupported`.
 *
 * @example
 * parseShellCommand('ls -la | grep "x y" && echo done').commands.map((c) => c.argv);
 * // [['ls', '-la'], ['grep', 'x y'], ['echo', 'done']]
 * parseShellCommand('echo $(rm -rf /)').unsupported; // 'command substitution $(...)'
 */
export function parseShellCommand(src: string): ParsedShell {
  let tokens: Token[];
  try {
    tokens = tokenize(src);
  } catch (e) {
    if (e instanceof Unsupported) return { commands: [], unsupported: e.message };
    throw e;
  }
  const commands: ShellCommand[] = [];
  const open: number[] = [];
  let opened = 0;
  const fresh = (): ShellCommand => ({
    argv: [],
    assignments: [],
    redirects: [],
    expanding: [],
    ...(open.length > 0 && { subshell: open.length, scope: [...open] }),
  });
  let current = fresh();
  const flush = () => {
    if (current.argv.length || current.assignments.length || current.redirects.length) commands.push(current);
    current = fresh();
  };
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    if (token.type === 'op') {
      if (token.value === ';;') return { commands, unsupported: 'a case statement' };
      flush();
      if (token.value === '(') open.push(++opened);
      else if (token.value === ')') open.pop();
      if (token.value === '(' || token.value === ')') current = fresh();
      continue;
    }
    if (token.type === 'redirect') {
      const target = tokens[t + 1];
      if (target?.type !== 'word') return { commands, unsupported: `a redirection ${token.op} with no target` };
      current.redirects.push({ op: token.op, ...(token.fd !== undefined && { fd: token.fd }), target: target.value });
      t++;
      continue;
    }
    if (current.argv.length === 0) {
      if (!token.quoted && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(token.value)) {
        current.assignments.push(token.value);
        continue;
      }
      if (!token.quoted && KEYWORDS.has(token.value))
        return { commands, unsupported: `the shell keyword ${JSON.stringify(token.value)}` };
      // Group braces and `!` only group or negate: the commands inside are what matter.
      if (!token.quoted && (token.value === '{' || token.value === '}' || token.value === '!')) continue;
    }
    if (token.expanding) current.expanding.push(current.argv.length);
    current.argv.push(token.value);
  }
  flush();
  return { commands };
}
