/**
 * A path as a target key: absolute (a relative one is taken from `cwd`), `.` and `..` folded,
 * no trailing slash. POSIX and Windows-style separators are both read; the key keeps `/`, and a
 * drive letter upper case.
 *
 * @example
 * fileTarget('src/../a.ts', '/repo'); // 'file:/repo/a.ts'
 */
export function fileTarget(path: string, cwd?: string): string {
  let p = path.replace(/\\/g, '/');
  const absolute = p.startsWith('/') || /^[A-Za-z]:\//.test(p);
  if (!absolute && cwd !== undefined) p = `${cwd.replace(/\\/g, '/').replace(/\/+$/, '')}/${p}`;
  // A drive letter is the same drive in either case (`c:` is `C:`): the key keeps it upper case.
  const drive = /^[A-Za-z]:/.exec(p)?.[0]?.toUpperCase() ?? '';
  const parts: string[] = [];
  for (const part of p.slice(drive.length).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `file:${drive}${p.slice(drive.length).startsWith('/') ? '/' : ''}${parts.join('/')}`;
}
