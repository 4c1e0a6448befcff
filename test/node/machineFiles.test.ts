import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  listMachineFiles,
  MachineFileError,
  readMachineFile,
  recoverMachineFiles,
  saveMachineFile,
} from 'assistant-safety/node';
import { root } from '../server/helpers.js';

function machinesDir() {
  const dir = mkdtempSync(join(tmpdir(), 'node-machines-'));
  cpSync(join(root, 'machines', 'assistant-safety.json'), join(dir, 'assistant-safety.json'));
  return dir;
}

async function refusal(promise: Promise<unknown>): Promise<MachineFileError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MachineFileError);
  return error as MachineFileError;
}

const definition = () => JSON.parse(readFileSync(join(root, 'machines', 'assistant-safety.json'), 'utf8'));

describe('machine files on disk', () => {
  it('should refuse a __proto__ key anywhere in a machine or a layout, naming where, and write nothing', async () => {
    const dir = machinesDir();
    const file = readMachineFile(dir, 'assistant-safety');
    const bad = JSON.parse(
      JSON.stringify(definition()).replace('"states":{', '"states":{"__proto__":{"polluted":true},'),
    );
    const error = await refusal(
      saveMachineFile(dir, { name: 'assistant-safety', definition: bad, baseVersion: file.version }),
    );
    expect(error.code).toBe('INVALID_MACHINE');
    expect(error.message).toMatch(/states\.__proto__/);
    const badLayout = JSON.parse('{"version":1,"nodes":{"__proto__":{"x":1,"y":2}}}');
    const layoutError = await refusal(
      saveMachineFile(dir, {
        name: 'assistant-safety',
        definition: definition(),
        layout: badLayout,
        baseVersion: file.version,
      }),
    );
    expect(layoutError.code).toBe('INVALID_LAYOUT');
    expect(readMachineFile(dir, 'assistant-safety').text).toBe(file.text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('should not follow a symlink in the machines folder, for reading, listing or saving', async () => {
    const dir = machinesDir();
    const outside = join(mkdtempSync(join(tmpdir(), 'outside-')), 'secret.json');
    writeFileSync(outside, '{"secret": "outside the folder"}');
    symlinkSync(outside, join(dir, 'evil.json'));
    expect(() => readMachineFile(dir, 'evil')).toThrow(/not a regular file/);
    expect(listMachineFiles(dir)).toEqual(['assistant-safety']);
    const error = await refusal(
      saveMachineFile(dir, { name: 'evil', definition: definition(), baseVersion: 'absent' }),
    );
    expect(error.code).toBe('NOT_FOUND');
    expect(readFileSync(outside, 'utf8')).toBe('{"secret": "outside the folder"}');
  });

  it('should refuse a NAME.json that is a folder with a clear error, not EISDIR', async () => {
    const dir = machinesDir();
    mkdirSync(join(dir, 'folder.json'));
    const read = (() => {
      try {
        readMachineFile(dir, 'folder');
      } catch (e) {
        return e;
      }
    })();
    expect(read).toBeInstanceOf(MachineFileError);
    expect((read as MachineFileError).code).toBe('NOT_FOUND');
    const save = await refusal(
      saveMachineFile(dir, { name: 'folder', definition: definition(), baseVersion: 'absent' }),
    );
    expect(save.code).toBe('NOT_FOUND');
  });

  it('should finish a save that was committed but interrupted, and clean what an uncommitted one left', () => {
    const dir = machinesDir();
    const old = readFileSync(join(dir, 'assistant-safety.json'), 'utf8');
    // A save killed after its commit record: both new files and the record are there, nothing renamed yet.
    const newMachine = old.replace('"RESOLVING"', '"RESOLVING" ');
    const tmpMachine = join(dir, 'assistant-safety.json.99999999.aa.tmp');
    const tmpLayout = join(dir, 'assistant-safety.layout.json.99999999.bb.tmp');
    writeFileSync(tmpMachine, newMachine);
    writeFileSync(tmpLayout, '{"version":1,"nodes":{}}\n');
    writeFileSync(
      join(dir, 'assistant-safety.json.journal'),
      JSON.stringify({
        renames: [
          ['assistant-safety.json.99999999.aa.tmp', 'assistant-safety.json'],
          ['assistant-safety.layout.json.99999999.bb.tmp', 'assistant-safety.layout.json'],
        ],
      }),
    );
    // And one killed before its commit: a temporary file only.
    writeFileSync(join(dir, 'other.json.99999998.cc.tmp'), 'half');
    recoverMachineFiles(dir);
    expect(readFileSync(join(dir, 'assistant-safety.json'), 'utf8')).toBe(newMachine);
    expect(readFileSync(join(dir, 'assistant-safety.layout.json'), 'utf8')).toBe('{"version":1,"nodes":{}}\n');
    expect(readdirSync(dir).sort()).toEqual(['assistant-safety.json', 'assistant-safety.layout.json']);
    expect(existsSync(tmpMachine)).toBe(false);
  });

  it('should save the machine and its layout as a pair, leaving no temporary or journal file', async () => {
    const dir = machinesDir();
    const file = readMachineFile(dir, 'assistant-safety');
    const saved = await saveMachineFile(dir, {
      name: 'assistant-safety',
      definition: definition(),
      layout: { version: 1, nodes: { READING: { x: 3, y: 4 } } },
      baseVersion: file.version,
    });
    const again = readMachineFile(dir, 'assistant-safety');
    expect(again.version).toBe(saved.version);
    expect(again.layout).toEqual({ version: 1, nodes: { READING: { x: 3, y: 4 } } });
    expect(readdirSync(dir).sort()).toEqual(['assistant-safety.json', 'assistant-safety.layout.json']);
  });
});
