import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  contentVersion,
  listMachineFiles,
  MachineFileError,
  readMachineFile,
  saveMachineFile,
} from '../../src/node/machineFiles.js';

function machinesDir() {
  const dir = mkdtempSync(join(tmpdir(), 'as-machines-'));
  cpSync('machines/assistant-safety.json', join(dir, 'assistant-safety.json'));
  writeFileSync(join(dir, 'another.json'), readFileSync('machines/assistant-safety.json'));
  return dir;
}

async function refused(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MachineFileError);
  expect((error as MachineFileError).code).toBe(code);
  return error as MachineFileError;
}

describe('machine files', () => {
  it('should list machines with the safety machine first and read one with its version', () => {
    const dir = machinesDir();
    writeFileSync(join(dir, 'aaa.layout.json'), '{}');
    expect(listMachineFiles(dir)).toEqual(['assistant-safety', 'another']);
    const file = readMachineFile(dir, 'assistant-safety');
    expect(file.version).toBe(contentVersion(file.text));
    expect(file.layout).toBeNull();
  });

  it('should save a well-formed machine atomically with its layout and return the new version', async () => {
    const dir = machinesDir();
    const file = readMachineFile(dir, 'assistant-safety');
    const def = file.json as any;
    def.states.READING.description = 'Edited in the editor.';
    const result = await saveMachineFile(dir, {
      name: 'assistant-safety',
      definition: def,
      layout: { version: 1, nodes: { READING: { x: 1, y: 2 } } },
      baseVersion: file.version,
    });
    const again = readMachineFile(dir, 'assistant-safety');
    expect(again.version).toBe(result.version);
    expect((again.json as any).states.READING.description).toBe('Edited in the editor.');
    expect(again.layout).toEqual({ version: 1, nodes: { READING: { x: 1, y: 2 } } });
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('should refuse a save when the file changed since it was loaded, and write nothing', async () => {
    const dir = machinesDir();
    const file = readMachineFile(dir, 'assistant-safety');
    writeFileSync(join(dir, 'assistant-safety.json'), file.text.replace('RESOLVING', 'RESOLVING'), { flag: 'a' });
    const onDisk = readFileSync(join(dir, 'assistant-safety.json'), 'utf8');
    const e = await refused(
      saveMachineFile(dir, { name: 'assistant-safety', definition: file.json, baseVersion: file.version }),
      'CONFLICT',
    );
    expect(e.message).toMatch(/changed on disk since it was loaded/);
    expect(readFileSync(join(dir, 'assistant-safety.json'), 'utf8')).toBe(onDisk);
  });

  it('should refuse a malformed machine, a bad layout and a bad name, writing nothing', async () => {
    const dir = machinesDir();
    const file = readMachineFile(dir, 'assistant-safety');
    const def = structuredClone(file.json) as any;
    def.states.READING.on.BEGIN_CALL[0].guard = 'isWirte';
    const e = await refused(
      saveMachineFile(dir, { name: 'assistant-safety', definition: def, baseVersion: file.version }),
      'INVALID_MACHINE',
    );
    expect(e.message).toMatch(/states\.READING\.on\.BEGIN_CALL\[0\]\.guard: unknown guard "isWirte"/);
    await refused(
      saveMachineFile(dir, {
        name: 'assistant-safety',
        definition: file.json,
        layout: { nodes: 3 },
        baseVersion: file.version,
      }),
      'INVALID_LAYOUT',
    );
    await refused(
      saveMachineFile(dir, { name: '../evil', definition: file.json, baseVersion: 'absent' }),
      'INVALID_NAME',
    );
    expect(readMachineFile(dir, 'assistant-safety').version).toBe(file.version);
  });

  it('should create a new machine only from the absent version', async () => {
    const dir = machinesDir();
    const json = readMachineFile(dir, 'assistant-safety').json;
    await refused(saveMachineFile(dir, { name: 'fresh', definition: json, baseVersion: 'deadbeef' }), 'CONFLICT');
    await saveMachineFile(dir, { name: 'fresh', definition: json, baseVersion: 'absent' });
    expect(listMachineFiles(dir)).toContain('fresh');
  });
});
