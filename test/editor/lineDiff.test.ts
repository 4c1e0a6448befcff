import { describe, expect, it } from 'vitest';
import { diffChanges, lineDiff } from '../../src/editor/lineDiff.js';

describe('lineDiff', () => {
  it('should show a changed line as removed then added, keeping the rest', () => {
    expect(lineDiff('a\nb\nc\n', 'a\nB\nc\n')).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'B' },
      { op: ' ', text: 'c' },
    ]);
  });

  it('should reconstruct both texts', () => {
    const a = 'one\ntwo\nthree\nfour\nfive\n';
    const b = 'zero\none\nthree\nfour!\nfive\nsix\n';
    const d = lineDiff(a, b);
    expect(
      d
        .filter((l) => l.op !== '+')
        .map((l) => l.text)
        .join('\n') + '\n',
    ).toBe(a);
    expect(
      d
        .filter((l) => l.op !== '-')
        .map((l) => l.text)
        .join('\n') + '\n',
    ).toBe(b);
    expect(diffChanges(d)).toBe(true);
    expect(diffChanges(lineDiff(a, a))).toBe(false);
  });
});
