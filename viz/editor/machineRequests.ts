import {
  MachineApiError,
  SaveMachineResponse,
  SavePreviewResponse,
  type SaveMachineBody,
} from 'assistant-safety/editor';
import { TOKEN_HEADER } from 'assistant-safety/live';
import { pageToken } from '../model/api.js';

/** A request's answer, or why the server refused it (status and body). */
export type Answer<T> = { ok: true; value: T } | { ok: false; status: number; error: MachineApiError };

async function send<T>(
  method: 'POST' | 'PUT',
  path: string,
  body: SaveMachineBody,
  schema: { parse(v: unknown): T },
): Promise<Answer<T>> {
  const response = await fetch(path, {
    method,
    headers: { [TOKEN_HEADER]: pageToken(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json: unknown = await response.json().catch(() => ({}));
  if (response.ok) return { ok: true, value: schema.parse(json) };
  const error = MachineApiError.safeParse(json);
  return {
    ok: false,
    status: response.status,
    error: error.success ? error.data : { code: 'BAD_REQUEST', error: `HTTP ${response.status}` },
  };
}

/**
 * What saving would write, beside the file on disk now (the server formats it; nothing is written).
 *
 * @example
 * const answer = await previewSave('assistant-safety', { definition, layout, baseVersion });
 * if (answer.ok) lineDiff(answer.value.currentText ?? '', answer.value.proposedText);
 */
export const previewSave = (name: string, body: SaveMachineBody) =>
  send('POST', `/api/machines/${encodeURIComponent(name)}/preview`, body, SavePreviewResponse);

/** Saves through the server: refused with 409 when the file changed since `baseVersion`, 422 when malformed. */
export const saveMachine = (name: string, body: SaveMachineBody) =>
  send('PUT', `/api/machines/${encodeURIComponent(name)}`, body, SaveMachineResponse);
