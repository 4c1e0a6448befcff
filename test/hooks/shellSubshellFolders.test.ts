import { describe, expect, it } from 'vitest';
import { classifyShellCommand } from 'assistant-safety/hooks';

/*
 * A `cd` inside `( )` moves the folder for the rest of that subshell only. A check run there is one
 * for the project when the subshell is in it; a sibling subshell, and what follows the subshell,
 * start from where the enclosing shell was.
 */

const judge = (line: string) => classifyShellCommand(line, { cwd: '/repo' });

describe('cd inside a subshell', () => {
  it('counts a check run in a subshell that moved into the project', () => {
    expect(judge('(cd /repo && npm test)')).toMatchObject({ kind: 'read', check: true });
    expect(judge('(cd packages/app && npx tsc --noEmit)')).toMatchObject({ kind: 'read', check: true });
  });

  it('does not count a check run in a subshell that moved out of the project', () => {
    expect(judge('(cd /elsewhere && npm test)').check).toBeUndefined();
  });

  it('takes paths after the subshell, and in a sibling one, from the folder outside it', () => {
    expect(judge('(cd /tmp && ls) && cat src/a.ts').targets).toEqual(['file:/repo/src/a.ts']);
    expect(judge('(cd /tmp && ls); (cat src/a.ts)').targets).toEqual(['file:/repo/src/a.ts']);
    expect(judge('(cd src && (cat a.ts))').targets).toEqual(['file:/repo/src/a.ts']);
  });
});
