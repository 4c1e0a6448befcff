import {
  classifyToolCall,
  createMemoryRecorder,
  createSafetySession,
  createToolLoop,
  ToolLoopError,
} from 'assistant-safety';
import { describe, expect, it } from 'vitest';

const WARNING =
  'no tool was classified as resolve or read, so every write is blocked for a missing target; see docs/classification.md';
const ORDINARY = ['read_file', 'search_docs', 'get_weather', 'list_users'];

/** Issue 19: classification is an explicit choice, and an all-write session says so once. */
describe('no silent default classification', () => {
  it('should refuse to build a loop without a classifier, with a message naming the fix', () => {
    const build = () => createToolLoop({ session: createSafetySession(), execute: async () => 'ok' } as never);
    expect(build).toThrow(ToolLoopError);
    expect(build).toThrow(/options\.classify: .*createClassifier\(rules\).*pulseClassifier.*docs\/classification\.md/);
  });

  it('should warn once, through the logger and the recording, when every call is a write blocked for a missing target', async () => {
    const warnings: string[] = [];
    const recorder = createMemoryRecorder();
    const session = createSafetySession({ recorder, onWarning: (m) => warnings.push(m) });
    const loop = createToolLoop({ session, execute: async () => 'ok', classify: classifyToolCall });
    for (let turn = 0; turn < 3; turn++) {
      loop.startTurn();
      const outcomes = await loop.runBatch(ORDINARY.map((name, i) => ({ id: `${turn}-${i}`, name })));
      expect(outcomes.every((o) => o.kind === 'write' && o.status === 'blocked')).toBe(true);
    }
    expect(warnings).toEqual([WARNING]);
    expect(recorder.entries.filter((e) => e.note === WARNING)).toHaveLength(1);
    expect(session.state).toBe('RESOLVING');
  });

  it('should not warn once a resolve or read has been seen', () => {
    const warnings: string[] = [];
    const session = createSafetySession({ onWarning: (m) => warnings.push(m) });
    session.canExecuteTool('read', 'get_weather');
    for (let i = 0; i < 10; i++) session.beginToolCall({ id: `w${i}`, kind: 'write', tool: 'x' });
    expect(warnings).toEqual([]);
  });

  it('should keep blocking the same way when the warning handler throws', () => {
    const session = createSafetySession({
      onWarning: () => {
        throw new Error('logger down');
      },
    });
    for (let i = 0; i < 5; i++)
      expect(session.beginToolCall({ id: `w${i}`, kind: 'write', tool: 'x' })?.reasonCode).toBe('NO_VALIDATED_TARGET');
  });
});
