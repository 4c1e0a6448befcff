/** One line of a diff: kept, removed (only in the old text) or added (only in the new). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/**
 * A line diff (longest common subsequence), for showing what a save changes
 * before it is written. Texts of a few thousand lines are fine.
 *
 * @example
 * lineDiff('a\nb\n', 'a\nc\n'); // [{op:' ',text:'a'},{op:'-',text:'b'},{op:'+',text:'c'}]
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.at(-1) === '' && b.at(-1) === '') {
    a.pop();
    b.pop();
  }
  // Common prefix and suffix first: edits are local, so the table stays small.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = midA[i] === midB[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: DiffLine[] = a.slice(0, start).map((text) => ({ op: ' ', text }));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && midA[i] === midB[j]) {
      out.push({ op: ' ', text: midA[i]! });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      out.push({ op: '-', text: midA[i++]! });
    } else {
      out.push({ op: '+', text: midB[j++]! });
    }
  }
  for (const text of a.slice(endA)) out.push({ op: ' ', text });
  return out;
}

/**
 * True when the diff changes anything.
 *
 * @example
 * diffChanges(lineDiff('a\nb', 'a\nb')); // false
 * diffChanges(lineDiff('a\nb', 'a\nc')); // true
 */
export const diffChanges = (diff: DiffLine[]) => diff.some((l) => l.op !== ' ');
