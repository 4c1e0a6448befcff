import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { toMermaid } from '../export/toMermaid.js';
import { toScxml } from '../export/toScxml.js';
import { UsageError, type Command } from './Command.js';
import { defaultMachinePath } from '../node/packageRoot.js';
import { KIND_USAGE, loadKindMachineFile } from './loadMachineFile.js';

export const exportCommand: Command = {
  name: 'export',
  summary: 'export the machine as Mermaid stateDiagram-v2 or SCXML',
  usage: `assistant-safety export --format mermaid|scxml [--machine FILE] [--kind safety|patrol] [--out FILE]

Writes the machine (default machines/assistant-safety.json) as a Mermaid
stateDiagram-v2 or as W3C SCXML, to standard output or --out, as the editor's
Mermaid and SCXML buttons do.

${KIND_USAGE}

Exit codes: 0 written, 2 a bad machine file or bad options.`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        machine: { type: 'string' },
        kind: { type: 'string' },
        out: { type: 'string' },
      },
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.format !== 'mermaid' && values.format !== 'scxml') {
      throw new UsageError(`--format must be mermaid or scxml${values.format ? `, not "${values.format}"` : ''}`);
    }
    const path = values.machine ?? defaultMachinePath();
    // Loaded with its kind (Patrol's run machine included), as check and the editor load it.
    const loaded = loadKindMachineFile(path, { out: io.out, err: (t) => io.err(`export: ${t}`) }, values.kind);
    if (!loaded) return 2;
    const text = values.format === 'mermaid' ? toMermaid(loaded.definition) : toScxml(loaded.definition);
    if (values.out) writeFileSync(values.out, text);
    else io.out(text.trimEnd());
    return 0;
  },
};
