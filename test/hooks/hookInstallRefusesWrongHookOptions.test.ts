import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

/*
 * `hook install AGENT -- OPTIONS` writes OPTIONS into the agent's settings, where a wrong one makes
 * the hook refuse every tool call. The installer checks them as the hook will (its own parser, the
 * rules file read and made into its classifier) and refuses a wrong one in one line, exit 2,
 * writing nothing.
 */

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'install-options-'));
const notRules = join(dir, 'not-rules.json');
writeFileSync(notRules, JSON.stringify({ tools: 5 }));
const notJson = join(dir, 'not-json.json');
writeFileSync(notJson, '{ "tools": ');

/** Each wrong option, and what the one line must name. */
const WRONG: [string[], RegExp][] = [
  [['--rulez', 'x.json'], /unknown option --rulez \(did you mean --rules\?\)/],
  [['--targets', 'bnd'], /--targets must be bind or ignore, got "bnd"/],
  [
    ['--escalate', 'TARGET_NOT_VALIDATD'],
    /unknown block reason "TARGET_NOT_VALIDATD" \(did you mean TARGET_NOT_VALIDATED\?\)/,
  ],
  [['--rules', join(dir, 'nonexistent.json')], /--rules .*nonexistent\.json: ENOENT/],
  [['--rules', notRules], /--rules .*not-rules\.json: invalid classifier rules: tools/],
  [['--rules', notJson], /--rules .*not-json\.json: .*JSON/],
  [['--deadline-ms', 'soon'], /--deadline-ms must be a positive whole number/],
  [['--profile', 'careful'], /--profile must be one of/],
  [['--redis', 'localhost:6379'], /--redis must be a redis:\/\/ or rediss:\/\/ URL/],
  [['--shadow', 'yes'], /unexpected argument yes/],
  [['--rules'], /option --rules needs a value/],
];

describe('hook install with wrong hook options', () => {
  it.each(WRONG)('claude-code -- %j: refused in one line, nothing written', async (options, named) => {
    const file = join(mkdtempSync(join(dir, 'cc-')), 'settings.json');
    const r = await cli('hook', 'install', 'claude-code', '--settings', file, '--', ...options);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(named);
    expect(r.err).toMatch(/^hook install: .*nothing was written$/m);
    expect(existsSync(file)).toBe(false);
  });

  it('leaves settings that exist as they were, on --dry-run too', async () => {
    const file = join(mkdtempSync(join(dir, 'kept-')), 'settings.json');
    writeFileSync(file, '{ "model": "opus" }\n');
    for (const dry of [[], ['--dry-run']]) {
      const r = await cli('hook', 'install', 'claude-code', '--settings', file, ...dry, '--', '--rulez', 'x.json');
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
    }
    expect(readFileSync(file, 'utf8')).toBe('{ "model": "opus" }\n');
  });

  it.each(['codex', 'gemini', 'cursor'])('%s: refuses what its hook refuses, --escalate included', async (agent) => {
    const file = join(mkdtempSync(join(dir, `${agent}-`)), 'hooks.json');
    const typo = await cli('hook', 'install', agent, '--settings', file, '--', '--stat-dir', dir);
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/unknown option --stat-dir \(did you mean --state-dir\?\).*nothing was written/);
    // Only Claude Code can ask a person: the other agents' hooks take no --escalate.
    const ask = await cli('hook', 'install', agent, '--settings', file, '--', '--escalate', 'NO_VALIDATED_TARGET');
    expect(ask.code).toBe(2);
    expect(ask.err).toMatch(/unknown option --escalate/);
    expect(existsSync(file)).toBe(false);
  });

  it('installs options the hook takes', async () => {
    const rules = join(dir, 'rules.json');
    writeFileSync(rules, JSON.stringify({ tools: { mcp__deploy__run: 'write' } }));
    const project = mkdtempSync(join(dir, 'ok-'));
    // A project with the package installed: the project form is refused in one without it.
    mkdirSync(join(project, 'node_modules', 'assistant-safety', 'dist', 'src', 'cli'), { recursive: true });
    writeFileSync(join(project, 'node_modules', 'assistant-safety', 'dist', 'src', 'cli', 'bin.js'), '');
    const file = join(project, 'settings.json');
    const options = ['--rules', rules, '--escalate', 'NO_VALIDATED_TARGET', '--targets', 'ignore', '--shadow'];
    const r = await cli('hook', 'install', 'claude-code', '--settings', file, '--', ...options);
    expect(r.code, r.err).toBe(0);
    const command = JSON.parse(readFileSync(file, 'utf8')).hooks.PreToolUse[0].hooks[0].command as string;
    expect(command).toContain(`hook claude-code ${options.join(' ')}`);
  });
});
