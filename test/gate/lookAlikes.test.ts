import {
  classifyToolCall,
  createClassifier,
  createSafetySession,
  createToolLoop,
  pulseClassifier,
} from 'assistant-safety';
import { describe, expect, it, vi } from 'vitest';

const hostileProxy = new Proxy(
  {},
  {
    getOwnPropertyDescriptor() {
      throw new Error('trap');
    },
    get() {
      throw new Error('trap');
    },
    getPrototypeOf() {
      throw new Error('trap');
    },
  },
);

/** Issue 16 item 8: classification of untrusted arguments never fails open on look-alikes. */
describe('look-alike discriminators', () => {
  for (const action of [
    'dismiss\u200b',
    'dismi\u017f\u017f',
    'D\u0130SM\u0130SS',
    '\uff44\uff49\uff53\uff4d\uff49\uff53\uff53',
    'd\u0131sm\u0131ss',
    'reso\u0142ve',
    '\u00a0list\u2060',
  ]) {
    it(`should classify pulse_alerts with action ${JSON.stringify(action)} as a write`, () => {
      expect(pulseClassifier('pulse_alerts', { action })).toBe('write');
    });
  }

  it('should still read pulse_alerts on plain ASCII actions it does not list, and with no action', () => {
    expect(pulseClassifier('pulse_alerts', { action: 'list' })).toBe('read');
    expect(pulseClassifier('pulse_alerts', { action: ' LIST ' })).toBe('read');
    expect(pulseClassifier('pulse_alerts', {})).toBe('read');
  });

  it('should match a value a rule names with non-ASCII characters, after the same normalisation', () => {
    const classify = createClassifier({
      tools: { t: { arg: 'action', values: { '\u30ed\u30b0': 'read', straße: 'read' }, default: 'read' } },
    });
    expect(classify('t', { action: '\u30ed\u30b0' })).toBe('read');
    expect(classify('t', { action: 'STRASSE' })).toBe('read');
    expect(classify('t', { action: '\u30ed\u30b0\u200b' })).toBe('write');
    expect(classify('t', { action: 'plain' })).toBe('read');
  });

  it('should classify a generic verb with invisible characters as a write', () => {
    expect(classifyToolCall('anything', { action: 'get' })).toBe('read');
    expect(classifyToolCall('anything', { action: 'get\u200b' })).toBe('write');
  });

  it('should classify hostile arguments as a write instead of throwing', () => {
    expect(pulseClassifier('pulse_alerts', hostileProxy)).toBe('write');
    expect(classifyToolCall('anything', hostileProxy)).toBe('write');
  });

  it('should run a batch whose classifier throws, treating that call as a write, and say so', async () => {
    const session = createSafetySession();
    const warnings: string[] = [];
    const loop = createToolLoop({
      session,
      execute: async () => 'done',
      classify: (name) => {
        if (name === 'weird') throw new Error('classifier bug');
        return 'resolve';
      },
      onWarning: (m) => warnings.push(m),
    });
    const outcomes = await loop.runBatch([
      { id: 'a', name: 'find' },
      { id: 'b', name: 'weird' },
    ]);
    expect(outcomes[1]!.kind).toBe('write');
    expect(outcomes[1]!.status).toBe('blocked'); // in RESOLVING: no validated target
    // Before, the bug showed only as a block: nothing said the classifier had thrown.
    expect(warnings).toEqual([
      'runBatch: calls[1] (weird): the classifier threw (classifier bug); the call is judged a write',
    ]);
  });

  it('should warn on the console by default, and run on when the warning itself throws', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const throwing = () => {
        throw new Error('classifier bug');
      };
      await createToolLoop({
        session: createSafetySession(),
        execute: async () => 'done',
        classify: throwing,
      }).runBatch([{ id: 'a', name: 'x' }]);
      expect(warn).toHaveBeenCalledWith(
        'assistant-safety: runBatch: calls[0] (x): the classifier threw (classifier bug); the call is judged a write',
      );
      const loop = createToolLoop({
        session: createSafetySession(),
        execute: async () => 'done',
        classify: throwing,
        onWarning: () => {
          throw new Error('warning sink down');
        },
      });
      expect((await loop.runBatch([{ id: 'a', name: 'x' }]))[0]!.status).toBe('blocked');
    } finally {
      warn.mockRestore();
    }
  });
});
