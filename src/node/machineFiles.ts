import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './packageRoot.js';
import { safeParseMachineDefinition, type MachineDefinition } from '../MachineDefinition.js';
import { MachineLayout } from '../editor/MachineLayout.js';

/*
 * Reading and writing `machines/<name>.json` and its layout sidecar, for the
 * editor's save. A save is refused unless the file still has the version the
 * editor loaded, the machine is well formed, and then it is written whole
 * (a temporary file renamed over the old one), so nothing is half-written.
 */

/** Machine names are file names without `.json`: letters, digits, `.`, `_`, `-`, no paths. */
export const MACHINE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * The version of a file's content: what a save must match to overwrite it.
 *
 * @example
 * contentVersion(readFileSync(path, 'utf8')); // 16 hex digits of its SHA-256
 * contentVersion(undefined); // 'absent': no file yet
 */
export function contentVersion(text: string | undefined): string {
  return text === undefined ? 'absent' : createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export type SaveErrorCode = 'INVALID_NAME' | 'NOT_FOUND' | 'CONFLICT' | 'INVALID_MACHINE' | 'INVALID_LAYOUT';

/** A refused save or load; nothing was written. */
export class MachineFileError extends Error {
  constructor(
    readonly code: SaveErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'MachineFileError';
  }
}

function checkName(name: string) {
  if (!MACHINE_NAME.test(name)) {
    throw new MachineFileError(
      'INVALID_NAME',
      `invalid machine name ${JSON.stringify(name)}: letters, digits, _ and - only`,
    );
  }
}

const machinePath = (dir: string, name: string) => join(dir, `${name}.json`);
const layoutPath = (dir: string, name: string) => join(dir, `${name}.layout.json`);
const readIfExists = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);

/** A machine file as the editor loads it. */
export interface MachineFile {
  name: string;
  /** The raw text, for diffs. */
  text: string;
  /** Parsed JSON (may be malformed: the editor shows why). */
  json: unknown;
  version: string;
  layout: MachineLayout | null;
  layoutVersion: string;
}

/**
 * Names of the machines in `dir`, the safety machine first.
 *
 * @example
 * listMachineFiles('machines'); // ['assistant-safety', ...]
 */
export function listMachineFiles(dir: string): string[] {
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.layout.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .filter((n) => MACHINE_NAME.test(n))
    .sort();
  return [...names.filter((n) => n === 'assistant-safety'), ...names.filter((n) => n !== 'assistant-safety')];
}

/**
 * Reads a machine file and its layout sidecar, with the versions a save must match.
 *
 * @throws {MachineFileError} `NOT_FOUND`, `INVALID_NAME`.
 * @example
 * const file = readMachineFile('machines', 'assistant-safety');
 * file.version; // what saveMachineFile's baseVersion must be
 */
export function readMachineFile(dir: string, name: string): MachineFile {
  checkName(name);
  const text = readIfExists(machinePath(dir, name));
  if (text === undefined) throw new MachineFileError('NOT_FOUND', `no machine named "${name}"`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    json = undefined;
    void e;
  }
  const layoutText = readIfExists(layoutPath(dir, name));
  let layout: MachineLayout | null = null;
  if (layoutText !== undefined) {
    try {
      const parsed = MachineLayout.safeParse(JSON.parse(layoutText));
      layout = parsed.success ? parsed.data : null;
    } catch {
      layout = null;
    }
  }
  return { name, text, json, version: contentVersion(text), layout, layoutVersion: contentVersion(layoutText) };
}

/**
 * Writes `text` to `path` whole: a temporary file in the same folder, then a rename.
 *
 * @example
 * writeFileAtomic('machines/my.layout.json', JSON.stringify(layout)); // never half a file
 */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, text, { flag: 'wx' });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** The text a machine is saved as: formatted like the repository (Prettier) when available, else 2-space JSON. */
export async function formatMachineJson(value: unknown, filePath: string): Promise<string> {
  const compact = JSON.stringify(value);
  const plain = JSON.stringify(value, null, 2) + '\n';
  try {
    const prettier = await import('prettier');
    // A machines folder outside the repository (a copy, `serve --machines DIR`) gets the package's own style.
    const options =
      (await prettier.resolveConfig(filePath)) ??
      (await prettier.resolveConfig(join(packageRoot(), 'machines', 'x.json'))) ??
      {};
    // From compact JSON Prettier breaks only what does not fit: the same layout for the same machine.
    return await prettier.format(compact, { ...options, filepath: filePath });
  } catch {
    return plain;
  }
}

export interface SaveMachineRequest {
  name: string;
  definition: unknown;
  layout?: unknown;
  /** The version the editor loaded (`contentVersion` of the file then; `absent` for a new file). */
  baseVersion: string;
  /** The layout file's version the editor loaded; when given with a layout, a changed layout file is a conflict too. */
  baseLayoutVersion?: string;
}

export interface SaveMachineResult {
  version: string;
  /** The text written. */
  text: string;
  layoutVersion: string;
  definition: MachineDefinition;
}

/**
 * Saves a machine (and its layout) if the file on disk is still at
 * `baseVersion` and the machine is well formed.
 *
 * @throws {MachineFileError} `CONFLICT` when the file changed since it was loaded, `INVALID_MACHINE` with the
 * issues, `INVALID_LAYOUT`, `INVALID_NAME`. Nothing is written then.
 * @example
 * const file = readMachineFile('machines', 'assistant-safety');
 * await saveMachineFile('machines', { name: file.name, definition: edited, baseVersion: file.version });
 */
export async function saveMachineFile(dir: string, request: SaveMachineRequest): Promise<SaveMachineResult> {
  checkName(request.name);
  const path = machinePath(dir, request.name);
  const parsed = safeParseMachineDefinition(request.definition);
  if (!parsed.success) {
    throw new MachineFileError('INVALID_MACHINE', parsed.error.message, parsed.error.issues);
  }
  let layout: MachineLayout | undefined;
  if (request.layout !== undefined) {
    const l = MachineLayout.safeParse(request.layout);
    if (!l.success) {
      throw new MachineFileError(
        'INVALID_LAYOUT',
        `invalid layout: ${l.error.issues.map((i) => i.message).join('; ')}`,
      );
    }
    layout = l.data;
  }
  const current = contentVersion(readIfExists(path));
  if (current !== request.baseVersion) {
    throw new MachineFileError(
      'CONFLICT',
      `machines/${request.name}.json changed on disk since it was loaded (loaded version ${request.baseVersion}, now ${current}); nothing was saved`,
      { current },
    );
  }
  // The JSON as sent, not as parsed: zod would reorder keys to the schema's order and the diff would show it.
  if (layout && request.baseLayoutVersion !== undefined) {
    const currentLayout = contentVersion(readIfExists(layoutPath(dir, request.name)));
    if (currentLayout !== request.baseLayoutVersion) {
      throw new MachineFileError(
        'CONFLICT',
        `machines/${request.name}.layout.json changed on disk since it was loaded (loaded version ${request.baseLayoutVersion}, now ${currentLayout}); nothing was saved`,
        { current, currentLayout },
      );
    }
  }
  const text = await formatMachineJson(request.definition, path);
  // Check again right before the rename: a write in between is a conflict too.
  if (contentVersion(readIfExists(path)) !== current) {
    throw new MachineFileError(
      'CONFLICT',
      `machines/${request.name}.json changed on disk while saving; nothing was saved`,
    );
  }
  writeFileAtomic(path, text);
  let layoutText = readIfExists(layoutPath(dir, request.name));
  if (layout) {
    layoutText = await formatMachineJson(layout, layoutPath(dir, request.name));
    writeFileAtomic(layoutPath(dir, request.name), layoutText);
  }
  return { version: contentVersion(text), text, layoutVersion: contentVersion(layoutText), definition: parsed.data };
}
