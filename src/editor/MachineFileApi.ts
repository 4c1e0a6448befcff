import { z } from 'zod';
import { MachineLayout } from './MachineLayout.js';

/*
 * The wire format of the editor's machine endpoints, shared by the server
 * (src/server/machineRoutes.ts) and the app: browser-safe, no node imports.
 *
 *   GET  /api/machines/:name          -> MachineFileResponse
 *   POST /api/machines/:name/preview  SaveMachineBody -> SavePreviewResponse (writes nothing)
 *   PUT  /api/machines/:name          SaveMachineBody -> SaveMachineResponse
 *
 * Errors are MachineApiError bodies: 400 a bad name or body, 404 no such
 * machine, 409 the file changed since it was loaded, 422 a malformed machine
 * or layout (with the issues).
 */

/** What a save (or its preview) sends. */
export const SaveMachineBody = z.strictObject({
  /** The machine JSON; validated by the server with the loader's own schema and registries. */
  definition: z.unknown().refine((v) => v !== undefined, 'a machine definition is required'),
  /** The layout sidecar to write beside it (optional). */
  layout: z.unknown().optional(),
  /** The version of the file the editor loaded (`absent` for a new machine). */
  baseVersion: z.string().min(1).max(64),
  /** The version of the layout file the editor loaded: a layout saved over a changed one is a conflict too. */
  baseLayoutVersion: z.string().min(1).max(64).optional(),
});
export type SaveMachineBody = z.infer<typeof SaveMachineBody>;

/** One machine file as the editor loads it. */
export const MachineFileResponse = z.strictObject({
  name: z.string(),
  /** The file's text, for the diff shown before a save. */
  text: z.string(),
  /** The parsed JSON (null when the file is not JSON). */
  json: z.unknown(),
  /** Why the file is not JSON, at its line and column (`not JSON at line 3, column 7: …`); only when `json` is null. */
  error: z.string().optional(),
  version: z.string(),
  layout: MachineLayout.nullable(),
  layoutVersion: z.string(),
});
export type MachineFileResponse = z.infer<typeof MachineFileResponse>;

/** What a save would write, against what is on disk now. */
export const SavePreviewResponse = z.strictObject({
  /** The file on disk now (null when there is none yet). */
  currentText: z.string().nullable(),
  currentVersion: z.string(),
  /** The text the save would write: formatted like the repository. */
  proposedText: z.string(),
  currentLayoutText: z.string().nullable(),
  proposedLayoutText: z.string().nullable(),
  /** The file changed since the editor loaded it: a save would be refused. */
  conflict: z.boolean(),
});
export type SavePreviewResponse = z.infer<typeof SavePreviewResponse>;

export const SaveMachineResponse = z.strictObject({
  version: z.string(),
  layoutVersion: z.string(),
  /** The text written. */
  text: z.string(),
});
export type SaveMachineResponse = z.infer<typeof SaveMachineResponse>;

/** A refused request: `code` says why, `issues` lists a malformed machine's problems. */
export const MachineApiError = z.object({
  error: z.string(),
  code: z.enum(['BAD_REQUEST', 'INVALID_NAME', 'NOT_FOUND', 'CONFLICT', 'INVALID_MACHINE', 'INVALID_LAYOUT']),
  issues: z
    .array(z.strictObject({ code: z.string(), path: z.array(z.union([z.string(), z.number()])), message: z.string() }))
    .optional(),
});
export type MachineApiError = z.infer<typeof MachineApiError>;
