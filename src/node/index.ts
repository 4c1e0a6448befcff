/*
 * assistant-safety/node: what needs Node: recordings to files, machine files
 * on disk (versioned, atomic saves), and streaming a session to a running
 * `assistant-safety serve`.
 */
export { createFileRecorder } from './fileRecorder.js';
export type { FileRecorder, FileRecorderOptions } from './fileRecorder.js';
export {
  listMachineFiles,
  readMachineFile,
  saveMachineFile,
  contentVersion,
  writeFileAtomic,
  recoverMachineFiles,
  MachineFileError,
  MACHINE_NAME,
} from './machineFiles.js';
export type { MachineFile, SaveMachineRequest, SaveMachineResult, SaveErrorCode } from './machineFiles.js';
export { previewMachineSave } from './previewMachineSave.js';
export { createLiveRecorder } from './createLiveRecorder.js';
export type { LiveRecorder, LiveRecorderOptions } from './createLiveRecorder.js';
export { packageRoot, defaultMachinePath } from './packageRoot.js';
export {
  createFileSessionStore,
  defaultStateDir,
  SessionFileError,
  FileSessionConflictError,
} from './createFileSessionStore.js';
export type {
  FileSessionStore,
  FileSessionStoreOptions,
  StoredFileSession,
  SessionNotes,
} from './createFileSessionStore.js';
export { auditFiles, AuditInputError, AUDIT_MAX_LINE_BYTES } from '../audit/auditFiles.js';
export type { AuditFilesOptions, AuditProgress } from '../audit/auditFiles.js';
