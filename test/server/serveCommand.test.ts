import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

describe('assistant-safety serve', () => {
  it('should be listed in the help with its usage', async () => {
    const { io, out } = capture();
    expect(await main(['--help'], io)).toBe(0);
    expect(out.join('\n')).toContain('serve');
    const usage = capture();
    expect(await main(['serve', '--help'], usage.io)).toBe(0);
    expect(usage.out.join('\n')).toContain('assistant-safety serve [--port N] [--recordings DIR]');
  });

  it('should refuse a bad port or a missing folder with exit code 2', async () => {
    const port = capture();
    expect(await main(['serve', '--port', 'eighty'], port.io)).toBe(2);
    expect(port.err.join('\n')).toContain('--port: not a port: eighty');
    const dir = capture();
    expect(await main(['serve', '--recordings', '/nonexistent/recordings'], dir.io)).toBe(2);
    expect(dir.err.join('\n')).toContain('no such folder');
  });
});
