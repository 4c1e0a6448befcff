import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateMachineFile } from './validateMachineFile.js';
import type { SavePreviewResponse } from '../editor/MachineFileApi.js';
import { MachineLayout } from '../editor/MachineLayout.js';
import {
  contentVersion,
  formatMachineJson,
  MACHINE_NAME,
  quoteName,
  MachineFileError,
  type SaveMachineRequest,
} from './machineFiles.js';

const readIfExists = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);

/**
 * What {@link saveMachineFile} would write, beside what is on disk now, so the
 * editor can show the diff before saving. Writes nothing.
 *
 * @throws {MachineFileError} `INVALID_NAME`, `INVALID_MACHINE` (with the issues), `INVALID_LAYOUT`.
 * @example
 * const p = await previewMachineSave('machines', { name: 'assistant-safety', definition, baseVersion });
 * lineDiff(p.currentText ?? '', p.proposedText);
 */
export async function previewMachineSave(dir: string, request: SaveMachineRequest): Promise<SavePreviewResponse> {
  if (!MACHINE_NAME.test(request.name)) {
    throw new MachineFileError(
      'INVALID_NAME',
      `invalid machine name ${quoteName(request.name)}: letters, digits, _ and - only, at most 100 characters`,
    );
  }
  const parsed = validateMachineFile(request.name, request.definition);
  if (!parsed.success) throw new MachineFileError('INVALID_MACHINE', parsed.message, parsed.issues);
  const path = join(dir, `${request.name}.json`);
  const layoutPath = join(dir, `${request.name}.layout.json`);
  let proposedLayoutText: string | null = null;
  if (request.layout !== undefined) {
    const layout = MachineLayout.safeParse(request.layout);
    if (!layout.success) {
      throw new MachineFileError(
        'INVALID_LAYOUT',
        `invalid layout: ${layout.error.issues.map((i) => i.message).join('; ')}`,
      );
    }
    proposedLayoutText = formatMachineJson(layout.data);
  }
  const currentText = readIfExists(path) ?? null;
  const currentVersion = contentVersion(currentText ?? undefined);
  return {
    currentText,
    currentVersion,
    proposedText: formatMachineJson(request.definition),
    currentLayoutText: readIfExists(layoutPath) ?? null,
    proposedLayoutText,
    conflict:
      currentVersion !== request.baseVersion ||
      (proposedLayoutText !== null &&
        request.baseLayoutVersion !== undefined &&
        contentVersion(readIfExists(layoutPath)) !== request.baseLayoutVersion),
  };
}
