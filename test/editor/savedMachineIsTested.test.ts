import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { applyMachineEdit } from '../../src/editor/MachineEdit.js';
import { emptyLayout } from '../../src/editor/MachineLayout.js';
import { readMachineFile, saveMachineFile } from '../../src/node/machineFiles.js';
import type { MachineDefinition } from '../../src/core/MachineDefinition.js';
import { RESOLVING_WRITE } from './fixtures.js';

async function run(args: string[]) {
  const out: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => out.push(t) });
  return { code, text: out.join('\n') };
}

/** A copy of machines/ with the machine saved as the editor saves it, after `edit`. */
async function savedCopy(edit: Parameters<typeof applyMachineEdit>[1]) {
  const dir = mkdtempSync(join(tmpdir(), 'as-saved-'));
  cpSync('machines/assistant-safety.json', join(dir, 'assistant-safety.json'));
  const file = readMachineFile(dir, 'assistant-safety');
  const doc = applyMachineEdit({ definition: file.json as MachineDefinition, layout: emptyLayout() }, edit);
  await saveMachineFile(dir, { name: 'assistant-safety', definition: doc.definition, baseVersion: file.version });
  return join(dir, 'assistant-safety.json');
}

describe('a machine saved by the editor', () => {
  it('should be checked and path-tested as it is, with nothing generated to rebuild', async () => {
    const file = await savedCopy({ type: 'setStateDescription', state: 'READING', description: 'Edited and saved.' });
    const check = await run(['check', '--machine', file]);
    expect(check.text).toContain('every invariant holds on every edge');
    expect(check.code).toBe(0);
    const paths = await run(['test-paths', '--machine', file, '--depth', '2']);
    expect(paths.text).toMatch(/\d+ passed, 0 failed/);
    expect(paths.code).toBe(0);
    // A full check and a path run of the whole machine: about 14 s on a loaded 2-core machine, so the
    // default 30 s left too little room when the suite runs beside other work.
  }, 120_000);

  it('should fail the check when the saved machine lets a write through without a target', async () => {
    const file = await savedCopy({ type: 'removeTransition', at: RESOLVING_WRITE });
    const check = await run(['check', '--machine', file]);
    expect(check.code).toBe(1);
    expect(check.text).toContain('✗ I1 No write without a validated target');
  });
});
