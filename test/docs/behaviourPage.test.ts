import { describe, expect, it } from 'vitest';
import {
  BlockReasonCode,
  createSafetySession,
  GENERIC_READ_VERBS,
  GENERIC_WRITE_VERBS,
  pulseRules,
  RECOVERY_TTL_MS,
  safetyMachineDefinition,
  SESSION_STATES,
  TOOL_KINDS,
} from 'assistant-safety';
import { read } from './markdown.js';

/*
 * docs/behaviour.md and docs/machine.md say what the code does: the words they
 * use for kinds, states, reasons, verbs, the preset's tools and the machine's
 * guards and actions are the code's own.
 */

const behaviour = read('docs/behaviour.md');
const machine = read('docs/machine.md');

describe('the behaviour page (docs/behaviour.md)', () => {
  it('should name every tool kind, state and reason code', () => {
    for (const name of [...TOOL_KINDS, ...SESSION_STATES, ...BlockReasonCode.options])
      expect(behaviour).toContain('`' + name + '`');
  });

  it('should list the generic verbs the classifier uses', () => {
    expect(behaviour).toContain('write verbs: `' + GENERIC_WRITE_VERBS.join(' ') + '`');
    expect(behaviour).toContain('read verbs: `' + GENERIC_READ_VERBS.join(' ') + '`');
  });

  it('should name every tool of the shipped preset', () => {
    const missing = Object.keys(pulseRules.tools).filter((tool) => !behaviour.includes('`' + tool + '`'));
    expect(missing).toEqual([]);
  });

  it('should quote the reason a block really gives', () => {
    const block = createSafetySession().beginToolCall({ id: 'c1', kind: 'write', tool: 'restart_vm' });
    expect(behaviour).toContain('`' + block!.reason + '`');
  });

  it('should give the recovery time-to-live the code uses', () => {
    expect(RECOVERY_TTL_MS).toBe(600_000);
    expect(behaviour.replace(/\s+/g, ' ')).toContain('`RECOVERY_TTL_MS`, ten minutes');
  });
});

describe('the machine page (docs/machine.md)', () => {
  it('should describe every guard and action as the machine JSON does', () => {
    const rows = new Map(
      machine
        .split('\n')
        .filter((line) => /^\| `\w+` +\|/.test(line))
        .map((line) => line.split('|').map((cell) => cell.trim()))
        .map((cells) => [cells[1]!.slice(1, -1), cells[2]!]),
    );
    const catalogue = { ...safetyMachineDefinition.guards, ...safetyMachineDefinition.actions };
    expect(Object.fromEntries(rows)).toEqual(
      Object.fromEntries(Object.entries(catalogue).map(([name, entry]) => [name, entry.description])),
    );
  });
});
