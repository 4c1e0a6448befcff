import { describe, expect, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import { createCodingAgentClassifier, respondToClaudeCodeHook, type ClaudeCodeHookInput } from 'assistant-safety/hooks';
import { events } from './fixtures.js';

/*
 * On Windows a drive letter names the same drive in either case, and models write it both ways.
 * Before, `C:\repo\src\a.ts` read and `c:\repo\src\a.ts` edited were two files: the edit was
 * refused for want of a read of the very file just read, and the sentence showed the path whole.
 */

const CWD = 'C:\\Users\\me\\repo';
const e = events('windows');
const at = (event: ClaudeCodeHookInput) => ({ ...event, cwd: CWD });
const decision = (out: unknown) =>
  (out as { hookSpecificOutput?: { permissionDecision?: string } } | undefined)?.hookSpecificOutput
    ?.permissionDecision ?? 'allow';

describe('Windows drive letters', () => {
  it('keys a path the same whatever the case of its drive letter', () => {
    const classify = createCodingAgentClassifier({ cwd: CWD });
    expect(classify('Read', { file_path: 'c:\\Users\\me\\repo\\src\\a.ts' }).targets).toEqual([
      'file:C:/Users/me/repo/src/a.ts',
    ]);
    expect(classify('Edit', { file_path: 'src\\a.ts', old_string: 'a', new_string: 'b' }).targets).toEqual([
      'file:C:/Users/me/repo/src/a.ts',
    ]);
  });

  it('lets an edit of the file read run, its drive letter written in the other case', () => {
    const session = createSafetySession({ targets: 'bind', profile: 'coding' });
    const notes = {};
    const classify = createCodingAgentClassifier({ cwd: CWD });
    const respond = (event: ClaudeCodeHookInput) => respondToClaudeCodeHook(at(event), session, notes, { classify });
    const readInput = { file_path: 'C:\\Users\\me\\repo\\src\\a.ts' };
    respond(e.pre('Read', readInput, 'r1'));
    respond(e.post('Read', readInput, 'r1'));
    const edit = { file_path: 'c:\\Users\\me\\repo\\src\\a.ts', old_string: 'a', new_string: 'b' };
    expect(decision(respond(e.pre('Edit', edit, 'w1')))).toBe('allow');
  });
});
