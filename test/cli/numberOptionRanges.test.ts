import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';
import { parseHookOptions } from '../../src/cli/hookRun.js';

const SERVER = ['--', 'node', 'server.js'];

/** The first line mcp-gateway prints for `args`, and its exit code. */
async function gateway(args: string[]): Promise<{ code: number; line: string }> {
  const { code, err } = await runCli(['mcp-gateway', ...args, ...SERVER]);
  return { code, line: err.split('\n')[0]! };
}

describe('number options out of range are refused in one line, before anything starts', () => {
  it('should refuse a millisecond option past the longest timer Node keeps (it would fire after 1 ms)', async () => {
    for (const flag of ['--cancel-grace-ms', '--idle-timeout-ms']) {
      const extra = flag === '--idle-timeout-ms' ? ['--listen', '127.0.0.1:0'] : [];
      const { code, line } = await gateway([...extra, flag, '99999999999']);
      expect(code).toBe(2);
      expect(line).toMatch(
        new RegExp(
          `^assistant-safety mcp-gateway: ${flag}: expected a whole number from \\d+ to 2147483647, got "99999999999"$`,
        ),
      );
    }
    // The longest timer itself is accepted as far as the range goes (mcp-config only writes it).
    const { code, out } = await runCli(['mcp-config', 'cursor', '--cancel-grace-ms', '2147483647', ...SERVER]);
    expect(code).toBe(0);
    expect(out).toContain('2147483647');
    const over = await runCli(['mcp-config', 'cursor', '--cancel-grace-ms', '2147483648', ...SERVER]);
    expect(over.code).toBe(2);
  });

  it('should refuse --orphan-after-ms outside 30 to 86400000 as a usage error, not a TypeError', async () => {
    for (const value of ['0', '29', '86400001', '99999999999']) {
      const { code, line } = await gateway([
        '--redis',
        'redis://127.0.0.1:1',
        '--session',
        's',
        '--orphan-after-ms',
        value,
      ]);
      expect(code).toBe(2);
      expect(line).toBe(
        `assistant-safety mcp-gateway: --orphan-after-ms: expected a whole number from 30 to 86400000, got "${value}"`,
      );
    }
  });

  it('should say the same of a negative number after a space as after =', async () => {
    const redis = ['--redis', 'redis://127.0.0.1:1', '--session', 's'];
    const spaced = await gateway([...redis, '--orphan-after-ms', '-5']);
    const joined = await gateway([...redis, '--orphan-after-ms=-5']);
    expect(spaced.code).toBe(2);
    expect(spaced.line).toBe(joined.line);
    expect(spaced.line).toContain('got "-5"');
    expect((await gateway(['--cancel-grace-ms', '-1'])).line).toContain('--cancel-grace-ms: expected a whole number');
  });

  it('should refuse --max-sessions below 1 (every client would get 503)', async () => {
    const { code, line } = await gateway(['--listen', '127.0.0.1:0', '--max-sessions', '0']);
    expect(code).toBe(2);
    expect(line).toBe(
      'assistant-safety mcp-gateway: --max-sessions: expected a whole number from 1 to 100000, got "0"',
    );
  });

  it('should refuse a hook --deadline-ms past the longest timer', () => {
    expect(() => parseHookOptions(['--deadline-ms', '2147483648'], true)).toThrow(
      /--deadline-ms must be a positive whole number of milliseconds up to 2147483647, got "2147483648"/,
    );
    expect(parseHookOptions(['--deadline-ms', '2147483647'], true).options.deadlineMs).toBe(2147483647);
  });
});
