/**
 * Edit distance between two short strings (option, command and field names), a swap of two
 * neighbouring letters counting as one edit: "nmae" is one edit from "name", as a typist sees it.
 */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The closest of `known` to a mistyped `name` ("--machin" → "--machine", "targts" → "targets"), when
 * it is close enough to be what was meant: a prefix of it, at most two edits (one for short names)
 * away, or, failing those, the end of the mistyped name.
 *
 * @example
 * didYouMean('--machin', ['--machine', '--json']); // '--machine'
 * didYouMean('untrusted', ['kind', 'trust']);       // "trust: 'untrusted'"
 * didYouMean('stateDir', ['dir', 'session']);       // 'dir'
 */
export function didYouMean(name: string, known: readonly string[]): string | undefined {
  // A flag named after the value of another field: what the reader wrote for "open-world output".
  if (name === 'untrusted' && known.includes('trust')) return "trust: 'untrusted'";
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = k.startsWith(name) && name.length >= 3 ? 0 : distance(name, k);
    if (d <= (k.replace(/^-+/, '').length <= 4 ? 1 : 2) && (!best || d < best.d)) best = { name: k, d };
  }
  if (best) return best.name;
  // A name with a word in front of the one meant (`stateDir` for `dir`, as the CLI's --state-dir reads).
  const lower = name.toLowerCase();
  return known.find((k) => k.length >= 3 && lower.endsWith(k.toLowerCase()));
}
