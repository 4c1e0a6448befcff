import { open } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { RecordingParseError, replayRecordingStream, type Divergence } from '../index.js';
import type { RecordedCallType } from '../safety/RecordingEntry.js';
import { UsageError, type Command } from './Command.js';
import { loadMachineFile } from './loadMachineFile.js';
import { defaultMachinePath } from '../node/packageRoot.js';
import { openRedisRecording } from '../redis/cliSupport.js';
import { REDIS_TARGET_OPTIONS, redisFlagOf, redisTargetOf, refuseDurability } from './redisTarget.js';
import { isPatrolRecordingText } from '../patrol/PatrolRecording.js';
import { replayPatrolFile } from './replayPatrol.js';

const DEFAULT_MAX_DIVERGENCES = 1000;

/** A failure to read the recording file (as opposed to a bad line in it). */
class ReadFailure extends Error {}

/** The file's chunks, with read errors (EISDIR, EIO...) told apart from bad lines. */
async function* chunksOf(stream: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer | string> {
  try {
    for await (const chunk of stream) yield chunk;
  } catch (e) {
    throw new ReadFailure((e as Error).message);
  }
}

export const replayCommand: Command = {
  name: 'replay',
  summary: 'replay a recording against the machine and list divergences',
  usage: `assistant-safety replay FILE [--machine FILE] [--json] [--max-divergences N]
       assistant-safety replay --redis URL --session ID [--redis-prefix P] [...]
       assistant-safety replay --redis-cluster URL[,URL...] --session ID [--redis-prefix P] [...]

Replays a JSON Lines recording through machines/assistant-safety.json as it is
now (or --machine FILE) and
prints a summary and every divergence: where the recorded decision, state or
context differs from what the machine does now. The file is streamed, so a
recording of any length replays in flat memory; the first N divergences are
listed (default ${DEFAULT_MAX_DIVERGENCES}) and all of them counted. With --redis, the recording is the
session's Redis Stream written by createRedisSessionStore({ streams: true });
with --redis-cluster, the same from a Redis Cluster (some of its nodes, comma-separated).
A Patrol run recording (*.patrol.jsonl) replays on machines/patrol.json (or
--machine FILE), step by step.

Exit codes: 0 no divergence, 1 divergences or a torn last line, 2 a bad file.`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        machine: { type: 'string' },
        json: { type: 'boolean' },
        'max-divergences': { type: 'string' },
        ...REDIS_TARGET_OPTIONS,
        session: { type: 'string' },
        'redis-prefix': { type: 'string' },
      },
    });
    const redis = redisTargetOf(values);
    refuseDurability(values, 'replay');
    const fromRedis = redis !== undefined;
    if (fromRedis && (positionals.length > 0 || values.session === undefined))
      throw new UsageError(
        `replay ${redisFlagOf(redis)} ${redis.url !== undefined ? 'URL' : 'URL[,URL...]'} takes --session ID and no file`,
      );
    if (!fromRedis && positionals.length !== 1) throw new UsageError('replay takes exactly one recording file');
    let file = positionals[0] ?? '';
    const maxText = values['max-divergences'];
    const max = maxText === undefined ? DEFAULT_MAX_DIVERGENCES : Number(maxText);
    if (!Number.isSafeInteger(max) || max < 0)
      throw new UsageError(`--max-divergences takes a whole number ≥ 0, got "${maxText}"`);
    let handle;
    let stream: AsyncIterable<Buffer | string> & { destroy(): void };
    if (fromRedis) {
      const source = await openRedisRecording(redis, values['redis-prefix'], values.session!);
      if (typeof source === 'string') {
        io.err(`replay: ${source}`);
        return 2;
      }
      file = source.label;
      stream = Object.assign(source.chunks, { destroy: () => void source.close() });
    } else {
      try {
        handle = await open(file, 'r');
      } catch (e) {
        io.err(`replay: cannot read ${file}: ${(e as Error).message}`);
        return 2;
      }
      // A Patrol run recording (its first line the patrol-run header) replays on the Patrol machine.
      const head = Buffer.alloc(64);
      const { bytesRead } = await handle.read(head, 0, head.length, 0).catch(() => ({ bytesRead: 0 }));
      if (isPatrolRecordingText(head.subarray(0, bytesRead).toString('utf8'))) {
        await handle.close().catch(() => undefined);
        return replayPatrolFile(file, values.machine, values.json === true, io);
      }
      stream = handle.createReadStream({ highWaterMark: 1 << 20, start: 0 });
    }
    try {
      // The machine file is read now, not the copy built into dist/: an edited machine needs no rebuild.
      const machine = loadMachineFile(values.machine ?? defaultMachinePath(), io);
      if (machine === null) return 2;

      const callTypes: RecordedCallType[] = []; // of the listed divergences: the stream keeps no entry
      let result;
      try {
        result = await replayRecordingStream(chunksOf(stream), {
          machine,
          allowTornTail: true,
          keepDivergences: max,
          onDivergence: (_d: Divergence, entry) => {
            if (callTypes.length < max) callTypes.push(entry.call.type);
          },
        });
      } catch (e) {
        if (e instanceof RecordingParseError) {
          io.err(`replay: ${file}: ${e.message}`);
          return 2;
        }
        if (e instanceof ReadFailure) {
          io.err(`replay: cannot read ${file}: ${e.message}`);
          return 2;
        }
        throw e;
      }
      const { count, tornLine, divergenceCount, ...replay } = result;
      if (values.json) {
        io.out(
          JSON.stringify({ file, entries: count, tornLine: tornLine ?? null, ...replay, divergenceCount }, null, 2),
        );
      } else {
        const sessions = Object.entries(result.sessions);
        io.out(`${file}: ${count} entries, ${sessions.length} session${sessions.length === 1 ? '' : 's'}`);
        for (const [id, state] of sessions) io.out(`  session ${id}: ends in ${state}`);
        if (tornLine !== undefined && count === 0) {
          // Nothing was replayed, so nothing can be said about the machine's decisions.
          io.out(`line ${tornLine}, the file's only line, is torn (cut off mid-write): there is nothing to replay`);
          return 1;
        }
        if (tornLine !== undefined)
          io.out(`warning: line ${tornLine} is torn (cut off mid-write); replayed the complete lines before it`);
        if (divergenceCount === 0) io.out('no divergence: the machine makes every recorded decision the same way');
        else {
          io.out(`${divergenceCount} divergence${divergenceCount === 1 ? '' : 's'}:`);
          result.divergences.forEach((d, i) =>
            io.out(
              `  entry ${d.index + 1} (session ${d.session} #${d.seq}, ${callTypes[i]}): ${d.field} recorded ${JSON.stringify(d.recorded)}, now ${JSON.stringify(d.actual)}`,
            ),
          );
          const unlisted = divergenceCount - result.divergences.length;
          if (unlisted > 0) io.out(`  ... and ${unlisted} more (--max-divergences N lists more)`);
        }
      }
      return divergenceCount > 0 || tornLine !== undefined ? 1 : 0;
    } finally {
      stream.destroy();
      await handle?.close().catch(() => undefined);
    }
  },
};
