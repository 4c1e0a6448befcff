import type { Cluster, Redis } from 'ioredis';
import { RecordingEntry } from '../index.js';

/** One entry of a session's recording stream. */
export interface StreamRecord {
  /** The stream entry id (`ms-n`), in save order. */
  streamId: string;
  /** The worker whose save appended it. */
  worker: string;
  /** The session version that save produced. */
  version: number;
  entry: RecordingEntry;
}

/** Thrown for a stream entry that is not a recording entry; names the stream id and the bad field. */
export class StreamRecordError extends Error {
  readonly code = 'INVALID_STREAM_ENTRY' as const;
  constructor(
    readonly streamId: string,
    detail: string,
  ) {
    super(`stream entry ${streamId}: ${detail}`);
    this.name = 'StreamRecordError';
  }
}

/** Parses one XRANGE/XREAD row: `[id, [field, value, ...]]`. */
export function parseStreamRow(row: [string, string[]]): StreamRecord {
  const [streamId, flat] = row;
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(flat[i]!, flat[i + 1]!);
  const text = fields.get('entry');
  if (text === undefined) throw new StreamRecordError(streamId, 'entry: missing');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new StreamRecordError(streamId, `entry: not JSON (${(e as Error).message})`);
  }
  const parsed = RecordingEntry.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new StreamRecordError(streamId, `entry.${issue.path.join('.')}: ${issue.message}`);
  }
  return { streamId, worker: fields.get('worker') ?? '', version: Number(fields.get('v') ?? 0), entry: parsed.data };
}

/** Reads a stream's entries after `after` (exclusive; default from the start), at most `count` (default all). */
export async function readStreamRecords(
  client: Redis | Cluster,
  key: string,
  { after, count = Infinity }: { after?: string; count?: number } = {},
): Promise<StreamRecord[]> {
  const out: StreamRecord[] = [];
  let from = after === undefined ? '-' : `(${after}`;
  while (out.length < count) {
    const page = Math.min(1000, count - out.length);
    const rows = (await client.xrange(key, from, '+', 'COUNT', page)) as [string, string[]][];
    for (const row of rows) out.push(parseStreamRow(row));
    if (rows.length < page) break;
    from = `(${rows.at(-1)![0]}`;
  }
  return out;
}

/**
 * A session's stream as JSON Lines text, page by page: what `replayRecordingStream`
 * (and `assistant-safety replay --redis`) reads.
 */
export async function* streamRecordingLines(client: Redis | Cluster, key: string): AsyncGenerator<string> {
  let from = '-';
  for (;;) {
    const rows = (await client.xrange(key, from, '+', 'COUNT', 1000)) as [string, string[]][];
    if (rows.length === 0) return;
    yield rows.map((row) => JSON.stringify(parseStreamRow(row).entry) + '\n').join('');
    if (rows.length < 1000) return;
    from = `(${rows.at(-1)![0]}`;
  }
}
