import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMachineFile, saveMachineFile } from '../../src/node/machineFiles.js';
import { previewMachineSave } from '../../src/node/previewMachineSave.js';

describe('saving an unchanged machine outside the repository', () => {
  it('should write the very same text (key order and the repository Prettier style kept), and preview it so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'as-keep-'));
    cpSync('machines/assistant-safety.json', join(dir, 'assistant-safety.json'));
    const file = readMachineFile(dir, 'assistant-safety');
    const request = { name: 'assistant-safety', definition: file.json, baseVersion: file.version };
    const preview = await previewMachineSave(dir, request);
    expect(preview.proposedText).toBe(file.text);
    expect(preview.conflict).toBe(false);
    const saved = await saveMachineFile(dir, request);
    expect(readFileSync(join(dir, 'assistant-safety.json'), 'utf8')).toBe(file.text);
    expect(saved.version).toBe(file.version);
  });
});
