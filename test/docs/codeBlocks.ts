/*
 * The fenced code blocks of a Markdown page, for the doc-test: each block's
 * language (the info string's first word), whether it is marked as a
 * fragment (the word `fragment` anywhere in the info string), its code (the
 * fence's indentation removed, as in a list item) and the line it starts on.
 */

export interface CodeBlock {
  /** The info string's first word, lower case; '' for a bare fence. */
  lang: string;
  /** The info string says `fragment`: not a complete program, not run. */
  fragment: boolean;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** Every fenced block of `markdown`, in order; a fence left open runs to the end of the page. */
export function codeBlocksOf(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    const words = info.trim().split(/\s+/).filter(Boolean);
    const body: string[] = [];
    let j = i + 1;
    const close = new RegExp(`^ *${fence[0]}{${fence.length},}\\s*$`);
    for (; j < lines.length && !close.test(lines[j]!); j++) {
      const l = lines[j]!;
      body.push(l.startsWith(indent) ? l.slice(indent.length) : l.trimStart());
    }
    blocks.push({
      lang: (words[0] ?? '').toLowerCase(),
      fragment: words.includes('fragment'),
      code: body.length ? body.join('\n') + '\n' : '',
      line: i + 1,
    });
    i = j;
  }
  return blocks;
}
