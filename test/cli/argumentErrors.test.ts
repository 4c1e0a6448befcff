import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { argumentError } from '../../src/cli/Command.js';
import { didYouMean } from '../../src/core/didYouMean.js';
import { main } from '../../src/cli/main.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('argument errors in the tool’s own words', () => {
  it('should name an unknown option and suggest the near miss: check --machin x', async () => {
    const { code, err } = await run(['check', '--machin', 'x']);
    expect(code).toBe(2);
    expect(err.split('\n')[0]).toBe('assistant-safety check: unknown option --machin (did you mean --machine?)');
    expect(err).not.toMatch(/positional argument|To specify/);
    // Quotes, when any, are balanced.
    expect((err.split('\n')[0]!.match(/'/g) ?? []).length % 2).toBe(0);
  });

  it('should say an option needs a value, or takes none', async () => {
    expect((await run(['check', '--machine'])).err).toMatch(
      /^assistant-safety check: option --machine needs a value\n/,
    );
    expect((await run(['check', '--json=yes'])).err).toMatch(/^assistant-safety check: option --json takes no value\n/);
  });

  it('should suggest the command meant for a mistyped one', async () => {
    const { code, err } = await run(['chek']);
    expect(code).toBe(2);
    expect(err).toMatch(/^assistant-safety: unknown command "chek" \(did you mean "check"\?\)/);
  });

  it('should point to --help instead of printing a long usage after the error, and print a short one', async () => {
    const long = await run(['mcp-gateway', '--rulez', 'x', '--', 'node', 'server.js']);
    expect(long.code).toBe(2);
    // Before: the 68-line usage scrolled the one line that says what is wrong off the screen.
    expect(long.err.trimEnd().split('\n')).toEqual([
      'assistant-safety mcp-gateway: unknown option --rulez (did you mean --rules?)',
      '',
      '(assistant-safety mcp-gateway --help shows every option)',
    ]);
    const short = await run(['export', '--format', 'svg']);
    expect(short.code).toBe(2);
    expect(short.err).toContain('assistant-safety export --format mermaid|scxml [--machine FILE]');
  });

  it('should suggest nothing for a name that is nothing like an option', () => {
    expect(didYouMean('--zzzzzz', ['--machine', '--json'])).toBeUndefined();
    expect(didYouMean('--mach', ['--machine', '--json'])).toBe('--machine');
    expect(argumentError(new Error('not a parse error'), '')).toBeUndefined();
  });

  it('should count two swapped neighbouring letters as one slip, as a typist makes them', () => {
    // A short name allows one edit: a swap is one ("nmae"), two unrelated slips are not ("nmea").
    expect(didYouMean('nmae', ['name', 'url'])).toBe('name');
    expect(didYouMean('nmea', ['name', 'url'])).toBeUndefined();
    expect(didYouMean('tagrets', ['targets', 'trust'])).toBe('targets');
    expect(didYouMean('--josn', ['--machine', '--json'])).toBe('--json');
    // `untrusted: true` is how open-world output is often written; the field is `trust: 'untrusted'`.
    expect(didYouMean('untrusted', ['kind', 'trust'])).toBe("trust: 'untrusted'");
    expect(didYouMean('untrusted', ['kind', 'tool'])).toBeUndefined();
    // A word in front of the name meant: the file store's `dir`, written as the CLI's --state-dir.
    expect(didYouMean('stateDir', ['dir', 'session', 'now'])).toBe('dir');
    expect(didYouMean('stateDir', ['session', 'now'])).toBeUndefined();
  });
});

describe('replay of a file whose only line is torn', () => {
  it('should say so and exit 1 without claiming that nothing diverged', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'torn-')), 'torn.jsonl');
    writeFileSync(file, '{"v":1,"session":"s1","se');
    const { code, out } = await run(['replay', file]);
    expect(code).toBe(1);
    expect(out).toContain("line 1, the file's only line, is torn");
    expect(out).not.toContain('no divergence');
  });

  it('should say in one line what is wrong with --redis-cluster and the options around it', async () => {
    const cases: [string[], string][] = [
      [['serve', '--redis-prefix', 'p:'], '--redis-prefix goes with --redis or --redis-cluster'],
      [['replay', '--redis-cluster', 'redis://127.0.0.1:1'], 'replay --redis-cluster URL[,URL...] takes --session ID'],
      [['replay', '--redis-cluster', 'redis://127.0.0.1:1', '--session', 's', 'file.jsonl'], 'and no file'],
      [['mcp-gateway', '--redis-cluster', ',', '--session', 's', '--', 'node', 'x'], '--redis-cluster: expected one'],
      [['mcp-gateway', '--orphan-after-ms', '60000', '--', 'node', 'x'], '--orphan-after-ms goes with --redis or'],
      [
        [
          ...['mcp-gateway', '--redis-cluster', 'redis://127.0.0.1:1', '--session', 's'],
          ...['--redis-durability', 'all', '--', 'node', 'x'],
        ],
        '--redis-durability: expected primary or replicated, got "all"',
      ],
      [
        ['mcp-gateway', '--redis-durability', 'replicated', '--', 'node', 'x'],
        '--redis-durability goes with --redis or --redis-cluster',
      ],
      // Only the gateway saves: serve and replay read, and a durability would change nothing.
      [
        ['serve', '--redis-cluster', 'redis://127.0.0.1:1', '--redis-durability', 'replicated'],
        '--redis-durability goes with mcp-gateway (and mcp-config), which save sessions: serve only reads from Redis',
      ],
      [
        ['replay', '--redis-cluster', 'redis://127.0.0.1:1', '--session', 's', '--redis-durability', 'replicated'],
        'replay only reads from Redis',
      ],
    ];
    for (const [args, message] of cases) {
      const { code, out, err } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(out).toBe('');
      expect(err.split('\n')[0]).toContain(message);
    }
  });
});

describe('--redis-durability in the help', () => {
  it('should be listed by the commands that take it', async () => {
    for (const command of ['mcp-gateway', 'mcp-config']) {
      const { code, out } = await run([command, '--help']);
      expect(code).toBe(0);
      expect(out).toContain('--redis-durability');
    }
    expect((await run(['mcp-gateway', '--help'])).out).toContain('--redis-durability primary|replicated');
  });
});
