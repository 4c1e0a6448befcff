import { describe, expect, it } from 'vitest';
import { generateCodingCorpus } from '../../eval/coding/corpus.js';

describe('the coding evaluation corpus', () => {
  const sessions = generateCodingCorpus({ seed: 1, benign: 20 });

  it('is the same bytes for the same seed', () => {
    expect(JSON.stringify(generateCodingCorpus({ seed: 1, benign: 20 }))).toBe(JSON.stringify(sessions));
  });

  it('has 20 benign sessions of at least 30 tool calls, each ending in Stop', () => {
    const benign = sessions.filter((s) => !s.risky);
    expect(benign).toHaveLength(20);
    for (const s of benign) {
      expect(s.events.filter((e) => e.hook_event_name === 'PreToolUse').length).toBeGreaterThanOrEqual(30);
      expect(s.events.at(-1)?.hook_event_name).toBe('Stop');
    }
  });

  it('pairs every PreToolUse with one PostToolUse or PostToolUseFailure of the same tool_use_id', () => {
    for (const s of sessions) {
      const pre = s.events.filter((e) => e.hook_event_name === 'PreToolUse').map((e) => e.tool_use_id);
      const post = s.events.filter((e) => e.hook_event_name.startsWith('PostToolUse')).map((e) => e.tool_use_id);
      expect(post).toEqual(pre);
      expect(new Set(pre).size).toBe(pre.length);
    }
  });

  it('has 10 risky sessions, each labelled with one of its calls or its Stop', () => {
    const risky = sessions.filter((s) => s.risky);
    expect(risky).toHaveLength(10);
    for (const s of risky) {
      expect(s.risk).toBeTruthy();
      const ids = s.events.map((e) => e.tool_use_id);
      expect(s.stopAt === 'Stop' || ids.includes(s.stopAt)).toBe(true);
    }
  });
});
