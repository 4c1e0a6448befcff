import { describe, expect, it } from 'vitest';
import { codexCall, patchFiles } from 'assistant-safety/hooks';
import { codex, CWD, hookSession } from './agentEvents.js';

/* Codex's apply_patch: a write to every file the patch names; a file it adds may be new. */

const patch = (body: string) => ({ command: `*** Begin Patch\n${body}\n*** End Patch\n` });

describe('apply_patch', () => {
  it('names every file it adds, updates, deletes or moves to', () => {
    expect(
      patchFiles(
        '*** Begin Patch\n*** Add File: docs/new.md\n+hi\n*** Update File: src/a.ts\n*** Move to: src/b.ts\n@@\n-x\n+y\n*** Delete File: old.ts\n*** End Patch',
      ),
    ).toEqual({ added: ['docs/new.md'], changed: ['src/a.ts', 'src/b.ts', 'old.ts'] });
    expect(codexCall('apply_patch', patch('*** Update File: src/a.ts'), CWD).call).toMatchObject({
      kind: 'write',
      targets: [`file:${CWD}/src/a.ts`],
    });
  });

  it('lets a patch create a new file without a read, then wants it checked before the stop', () => {
    const session = hookSession();
    const event = (hook_event_name: string) => ({
      ...(codex.edit('p1')[0] as object),
      hook_event_name,
      tool_input: patch('*** Add File: docs/new.md\n+# New'),
      ...(hook_event_name === 'PostToolUse' && { tool_response: 'Success.' }),
    });
    const isNewFile = (path: string) => path === 'docs/new.md';
    expect(codex.decide(event('PreToolUse'), session, { isNewFile })).toEqual({});
    expect(codex.decide(event('PostToolUse'), session, { isNewFile })).toEqual({});
    expect(codex.decide(codex.stop(), session).sentBack).toMatch(/^Read docs\/new\.md again/);
  });

  it('refuses a patch naming no file (a write with no target) under target binding', () => {
    const session = hookSession();
    const event = { ...(codex.edit('p2')[0] as object), tool_input: { command: 'garbage' } };
    expect(codex.decide(event, session).refused).toMatch(/\[NO_VALIDATED_TARGET\]$/);
  });
});
