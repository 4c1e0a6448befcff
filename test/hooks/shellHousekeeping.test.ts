import { describe, expect, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';
import { classifyShellCommand, createCodingAgentClassifier, respondToClaudeCodeHook } from 'assistant-safety/hooks';
import { bash, CWD, events, read } from './fixtures.js';

/*
 * Making folders in the project and deleting build output change no file's content: they are
 * state-only writes, so they hold no later edit until a check. The same commands outside the
 * project, on source folders, or with other options stay writes.
 */

const judge = (line: string) => classifyShellCommand(line, { cwd: CWD });

describe('tree housekeeping in a shell command', () => {
  it.each(['mkdir -p src/utils', 'mkdir docs', 'rm -rf dist', 'rm -rf ./build/ coverage', 'rm -r node_modules/.cache'])(
    'is a state-only write in the project: %s',
    (line) => {
      expect(judge(line)).toMatchObject({ kind: 'write', stateOnly: true });
    },
  );

  it.each([
    'mkdir /etc/app',
    'mkdir -p ../elsewhere',
    'mkdir -m 777 x',
    'rm -rf src',
    'rm -rf ../dist',
    'rm -rf $OUT',
    'rm -rf dist/*',
  ])('stays a write: %s', (line) => {
    const judged = judge(line);
    expect(judged.kind).toBe('write');
    expect(judged.stateOnly).toBeUndefined();
  });

  it('is a write without a project folder to be inside', () => {
    expect(classifyShellCommand('mkdir -p src/utils').stateOnly).toBeUndefined();
  });

  it('holds no later edit: a new file in a new folder goes right after', () => {
    const session = createSafetySession({ targets: 'bind', profile: 'coding' });
    const notes = {};
    const e = events('housekeeping');
    const respond = (event: Parameters<typeof respondToClaudeCodeHook>[0]) =>
      respondToClaudeCodeHook(event, session, notes, {
        classify: createCodingAgentClassifier({ cwd: CWD }), // as the hook command makes it, from the event's folder
        isNewFile: () => true,
      });
    respond(e.pre('Read', read(), 'r1'));
    respond(e.post('Read', read(), 'r1'));
    expect(respond(e.pre('Bash', bash('mkdir -p src/utils'), 'b1'))).toBeUndefined();
    respond(e.post('Bash', bash('mkdir -p src/utils'), 'b1'));
    const write = { file_path: `${CWD}/src/utils/x.ts`, content: 'export {};\n' };
    expect(respond(e.pre('Write', write, 'w1'))).toBeUndefined();
  });
});
