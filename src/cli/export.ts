import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { safeParseMachineDefinition } from '../safety/safetyMachineDefinition.js';
import { toMermaid } from '../export/toMermaid.js';
import { toScxml } from '../export/toScxml.js';
import { UsageError, type Command } from './Command.js';
import { defaultMachinePath } from '../node/packageRoot.js';

export const exportCommand: Command = {
  name: 'export',
  summary: 'export the machine as Mermaid stateDiagram-v2 or SCXML',
  usage: `assistant-safety export --format mermaid|scxml [--machine FILE] [--out FILE]

Writes the machine (default machines/assistant-safety.json) as a Mermaid
stateDiagram-v2 or as W3C SCXML, to standard output or --out.

Exit codes: 0 written, 2 a bad machine file or bad options.`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { format: { type: 'string' }, machine: { type: 'string' }, out: { type: 'string' } },
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.format !== 'mermaid' && values.format !== 'scxml') {
      throw new UsageError(`--format must be mermaid or scxml${values.format ? `, not "${values.format}"` : ''}`);
    }
    const path = values.machine ?? defaultMachinePath();
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      io.err(`export: ${path}: ${(e as Error).message}`);
      return 2;
    }
    const parsed = safeParseMachineDefinition(json);
    if (!parsed.success) {
      io.err(`export: ${path}: ${parsed.error.message}`);
      return 2;
    }
    const text = values.format === 'mermaid' ? toMermaid(parsed.data) : toScxml(parsed.data);
    if (values.out) writeFileSync(values.out, text);
    else io.out(text.trimEnd());
    return 0;
  },
};
