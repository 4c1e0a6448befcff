import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from 'assistant-safety';

describe('the README API reference', () => {
  it('should name every runtime export of the package root', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## API reference'), readme.indexOf('## Decisions'));
    const named = (name: string) => section.includes('`' + name + '`') || section.includes('`' + name + '(');
    const missing = Object.keys(api).filter((name) => !named(name));
    expect(missing, 'exports missing from the README API reference').toEqual([]);
  });

  it('should export every name API.md promises', () => {
    for (const name of [
      'ErrCodeFSMBlocked',
      'ErrCodeStrictResolution',
      'RECOVERY_TTL_MS',
      'safetyMachine',
      'createSafetySession',
      'restoreSafetySession',
      'FSMBlockedError',
      'createClassifier',
      'classifyToolCall',
      'pulseClassifier',
      'parseRecording',
      'replayRecording',
    ]) {
      expect(api, name).toHaveProperty(name);
    }
  });
});
