import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { MachineDefinition } from '../core/MachineDefinition.js';
import { MachineLayout } from '../editor/MachineLayout.js';
import { formatJson } from '../editor/formatJson.js';
import { validateMachineFile } from './validateMachineFile.js';
import { jsonSyntaxError } from './jsonSyntaxError.js';

/*
 * Reading and writing `machines/<name>.json` and its layout sidecar, for the
 * editor's save. A save is refused unless the file still has the version the
 * editor loaded, the machine is well formed, and then the machine and its
 * layout are written as a pair: both to temporary files (fsynced), then a
 * journal naming the renames (the commit point, fsynced), then the renames,
 * then the journal is removed. A reader (and the next start) first finishes a
 * committed save and removes what an uncommitted one left, so it always sees
 * the old pair or the new pair. Only regular files are read or replaced:
 * symlinks are not followed, folders are not machines.
 */

/**
 * Machine names are file names without `.json`: letters, digits, `_`, `-`, no paths, at most 100
 * characters (the longest file a save writes, `NAME.layout.json.tmp-…`, stays far under the 255
 * bytes a file name may have).
 */
export const MACHINE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

/** How a refused machine name is quoted in a message: never more than 40 characters of it. */
export const quoteName = (name: string) =>
  name.length > 40 ? `${JSON.stringify(name.slice(0, 40))}… (${name.length} characters)` : JSON.stringify(name);

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
      `invalid machine name ${quoteName(name)}: letters, digits, _ and - only, at most 100 characters`,
    );
  }
}

const machinePath = (dir: string, name: string) => join(dir, `${name}.json`);
const layoutPath = (dir: string, name: string) => join(dir, `${name}.layout.json`);
const journalPath = (dir: string, name: string) => join(dir, `${name}.json.journal`);

/** What is at `path`: nothing, a regular file, or something else (a symlink, a folder...), never followed. */
function kindAt(path: string): 'absent' | 'file' | 'other' {
  try {
    return lstatSync(path).isFile() ? 'file' : 'other';
  } catch {
    return 'absent';
  }
}

/** A regular file's text, undefined when absent; a symlink or folder is refused (O_NOFOLLOW: no race either). */
function readIfExists(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw notRegular(path);
    throw e;
  }
  try {
    if (!lstatSync(path).isFile()) throw notRegular(path);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

const notRegular = (path: string) =>
  new MachineFileError('NOT_FOUND', `${basename(path)} is not a regular file (symlinks and folders are not machines)`);

/**
 * The first `__proto__` key in a JSON value (depth first, in key order), as a path, or undefined:
 * such a key would skip validation. Iterative: a value nested a million levels deep is walked,
 * not a stack overflow.
 */
export function findProtoKey(value: unknown, path: (string | number)[] = []): (string | number)[] | undefined {
  interface Frame {
    value: unknown;
    key: string | number | undefined;
    parent: Frame | undefined;
  }
  const pathOf = (frame: Frame, last: string | number) => {
    const out: (string | number)[] = [last];
    for (let f: Frame | undefined = frame; f?.parent !== undefined; f = f.parent) out.push(f.key!);
    return [...path, ...out.reverse()];
  };
  const stack: Frame[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: frame });
      continue;
    }
    const keys = Object.keys(v);
    if (keys.includes('__proto__')) return pathOf(frame, '__proto__');
    for (let i = keys.length - 1; i >= 0; i--)
      stack.push({ value: (v as Record<string, unknown>)[keys[i]!], key: keys[i]!, parent: frame });
  }
  return undefined;
}

function fsyncPath(path: string, flags: number = constants.O_RDONLY): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A temporary file beside `path`, written whole and fsynced; its name records our pid. */
function writeTemp(path: string, text: string): string {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx');
  try {
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return tmp;
}

const pidAlive = (pid: number) => {
  if (pid === process.pid) return false; // our own saves never leave a temporary file between two calls
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Finishes the saves a crash interrupted after their commit and removes what
 * uncommitted ones left (temporary files of processes that are gone), so the
 * folder holds the old pair or the new pair of every machine. Readers and
 * saves call it; `serve` calls it at start.
 *
 * @example
 * recoverMachineFiles('machines');
 */
export function recoverMachineFiles(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names.filter((n) => n.endsWith('.json.journal'))) {
    const journal = join(dir, name);
    let renames: [string, string][] = [];
    try {
      const parsed = JSON.parse(readFileSync(journal, 'utf8')) as { renames?: unknown };
      if (Array.isArray(parsed.renames)) renames = parsed.renames as [string, string][];
    } catch {
      // A journal is written whole to a temporary file and renamed: a torn one is never committed.
    }
    for (const [tmp, target] of renames) {
      // Only plain names in this folder: a journal never points elsewhere.
      if (typeof tmp !== 'string' || typeof target !== 'string' || /[/\\]/.test(tmp + target)) continue;
      if (kindAt(join(dir, tmp)) === 'file') renameSync(join(dir, tmp), join(dir, target));
    }
    rmSync(journal, { force: true });
    fsyncPath(dir);
  }
  for (const name of names) {
    const m = /\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name);
    if (m && !pidAlive(Number(m[1])) && kindAt(join(dir, name)) === 'file') rmSync(join(dir, name), { force: true });
  }
}

/** A machine file as the editor loads it. */
export interface MachineFile {
  name: string;
  /** The raw text, for diffs. */
  text: string;
  /** Parsed JSON (may be malformed: the editor shows why); `undefined` when the text is not JSON. */
  json: unknown;
  /** Why the text is not JSON, with its line and column (see {@link jsonSyntaxError}); absent when it is. */
  error?: string;
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
  recoverMachineFiles(dir);
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.layout.json') && kindAt(join(dir, f)) === 'file')
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
  recoverMachineFiles(dir);
  const text = readIfExists(machinePath(dir, name));
  if (text === undefined) throw new MachineFileError('NOT_FOUND', `no machine named "${name}"`);
  let json: unknown;
  let error: string | undefined;
  try {
    json = JSON.parse(text);
  } catch (e) {
    json = undefined;
    error = jsonSyntaxError(text, e);
  }
  let layoutText: string | undefined;
  try {
    layoutText = readIfExists(layoutPath(dir, name));
  } catch {
    layoutText = undefined; // a layout that is not a regular file is no layout
  }
  let layout: MachineLayout | null = null;
  if (layoutText !== undefined) {
    try {
      const parsed = MachineLayout.safeParse(JSON.parse(layoutText));
      layout = parsed.success ? parsed.data : null;
    } catch {
      layout = null;
    }
  }
  return {
    name,
    text,
    json,
    ...(error !== undefined && { error }),
    version: contentVersion(text),
    layout,
    layoutVersion: contentVersion(layoutText),
  };
}

/**
 * Writes `text` to `path` whole and durably: a temporary file in the same folder (fsynced), a rename, the folder fsynced.
 *
 * @example
 * writeFileAtomic('machines/my.layout.json', JSON.stringify(layout)); // never half a file
 */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = writeTemp(path, text);
  try {
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  fsyncPath(dirname(path));
}

/**
 * Replaces several files of one folder as one change: temporary files
 * (fsynced), a journal of the renames (the commit point), the renames, then
 * the journal goes. A crash before the journal leaves the old files (and
 * temporary ones {@link recoverMachineFiles} removes); after it, recovery
 * finishes the renames.
 */
function replaceTogether(dir: string, journal: string, files: { path: string; text: string }[]): void {
  const temps: string[] = [];
  try {
    for (const f of files) temps.push(writeTemp(f.path, f.text));
    const renames = files.map((f, i) => [basename(temps[i]!), basename(f.path)]);
    // The journal itself is written whole (temporary + rename): a torn journal never exists.
    const journalTemp = writeTemp(journal, JSON.stringify({ renames }));
    renameSync(journalTemp, journal);
    fsyncPath(dir);
  } catch (e) {
    for (const t of temps) rmSync(t, { force: true });
    throw e;
  }
  files.forEach((f, i) => renameSync(temps[i]!, f.path));
  fsyncPath(dir);
  rmSync(journal, { force: true });
  fsyncPath(dir);
}

/**
 * The text a machine (or its layout) is saved as: the repository's own layout
 * (Prettier's, width 120) from `formatJson`, with no formatter installed, so an
 * unchanged machine saved from an installed copy keeps its bytes.
 *
 * @example
 * formatMachineJson({ initial: 'RESOLVING' }); // '{ "initial": "RESOLVING" }\n'
 */
export function formatMachineJson(value: unknown): string {
  return formatJson(value);
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
  recoverMachineFiles(dir);
  const protoInMachine = findProtoKey(request.definition);
  if (protoInMachine) {
    const where = protoInMachine.join('.');
    throw new MachineFileError('INVALID_MACHINE', `${where}: a "__proto__" key is not allowed`, [
      { code: 'custom', path: protoInMachine, message: 'a "__proto__" key is not allowed' },
    ]);
  }
  const protoInLayout = findProtoKey(request.layout);
  if (protoInLayout) {
    throw new MachineFileError(
      'INVALID_LAYOUT',
      `invalid layout: ${protoInLayout.join('.')}: a "__proto__" key is not allowed`,
    );
  }
  for (const p of [path, layoutPath(dir, request.name)]) {
    if (kindAt(p) === 'other') throw notRegular(p);
  }
  const parsed = validateMachineFile(request.name, request.definition);
  if (!parsed.success) {
    throw new MachineFileError('INVALID_MACHINE', parsed.message, parsed.issues);
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
  const text = formatMachineJson(request.definition);
  let layoutText = readIfExists(layoutPath(dir, request.name));
  if (layout) layoutText = formatMachineJson(layout);
  // Again right before writing (formatting awaited): a write in between is a conflict too. From here on all is
  // synchronous, so no other save of this process interleaves.
  if (contentVersion(readIfExists(path)) !== current) {
    throw new MachineFileError(
      'CONFLICT',
      `machines/${request.name}.json changed on disk while saving; nothing was saved`,
    );
  }
  replaceTogether(dir, journalPath(dir, request.name), [
    { path, text },
    ...(layout && layoutText !== undefined ? [{ path: layoutPath(dir, request.name), text: layoutText }] : []),
  ]);
  return { version: contentVersion(text), text, layoutVersion: contentVersion(layoutText), definition: parsed.data };
}
