import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createRecordingReplayer,
  parseRecording,
  replayRecording,
  replayRecordingStream,
  safetyMachine,
} from 'assistant-safety';
import { createFileRecorder, createLiveRecorder } from 'assistant-safety/node';
import { serveApp } from 'assistant-safety/server';
import { createAuditClassifier, createAuditReport } from 'assistant-safety/audit';
import { createCodingAgentClassifier } from 'assistant-safety/hooks';
import { exploreMachine } from 'assistant-safety/testing';

/*
 * Recording, replaying, serving and auditing refuse an option they do not have, naming it and the
 * one it looks like, before they touch anything: a misspelt `fsync` would lose lines on a crash, a
 * misspelt `machine` would replay against the shipped machine instead of the edited one.
 */
const dir = mkdtempSync(join(tmpdir(), 'misspelt-recording-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// One real line: a session's creation, as the shipped recordings begin.
const LINE = readFileSync(join('recordings', 'ai-sdk-agent.jsonl'), 'utf8').split('\n')[0]!;

describe('misspelt options of recording, replay, the app and the audit', () => {
  it('should refuse a misspelt file recorder option before creating its folder or file', () => {
    const path = join(dir, 'not-made', 'session.jsonl');
    expect(() => createFileRecorder(path, { fsnyc: true } as never)).toThrow(
      new TypeError('createFileRecorder: options.fsnyc: unknown field (did you mean fsync?)'),
    );
    expect(existsSync(join(dir, 'not-made'))).toBe(false);
    const recorder = createFileRecorder(path, { fsync: true });
    recorder.close();
    expect(existsSync(path)).toBe(true);
  });

  it('should refuse a live recorder URL that could never connect, naming options.url', () => {
    // Before: a raw "Invalid URL" for an unset variable, and silence for a URL without its token.
    expect(() => createLiveRecorder({ url: undefined as never })).toThrow(
      'createLiveRecorder: options.url: expected the URL `assistant-safety serve` printed (http://127.0.0.1:PORT/?token=…), got undefined',
    );
    expect(() => createLiveRecorder({ url: 'http://127.0.0.1:4400/' })).toThrow(
      /^createLiveRecorder: options\.url: has no token: give the URL `assistant-safety serve` printed/,
    );
    const live = createLiveRecorder({ url: 'http://127.0.0.1:9/', token: 'ab', retryMs: 60_000 });
    expect(live.connected).toBe(false);
    return live.close({ timeoutMs: 10 });
  });

  it('should refuse a misspelt live recorder option before connecting', () => {
    expect(() => createLiveRecorder({ url: 'http://127.0.0.1:9/?token=ab', nmae: 'agent' } as never)).toThrow(
      new TypeError('createLiveRecorder: options.nmae: unknown field (did you mean name?)'),
    );
  });

  it('should refuse a misspelt app server option before listening', async () => {
    await expect(serveApp({ port: 0, recordingDir: dir } as never)).rejects.toThrow(
      new TypeError('serveApp: options.recordingDir: unknown field (did you mean recordingsDir?)'),
    );
  });

  it('should refuse misspelt parse and replay options, and take the right ones', async () => {
    expect(() => parseRecording('', { allowTornTails: true } as never)).toThrow(
      new TypeError('parseRecording: options.allowTornTails: unknown field (did you mean allowTornTail?)'),
    );
    expect(() => replayRecording([], { machin: safetyMachine } as never)).toThrow(
      new TypeError('replayRecording: options.machin: unknown field (did you mean machine?)'),
    );
    expect(() => createRecordingReplayer({ keepDivergence: 5 } as never)).toThrow(
      new TypeError('createRecordingReplayer: options.keepDivergence: unknown field (did you mean keepDivergences?)'),
    );
    await expect(replayRecordingStream([], { onEntyr: () => undefined } as never)).rejects.toThrow(
      new TypeError('replayRecordingStream: options.onEntyr: unknown field (did you mean onEntry?)'),
    );
    // The stream's own options and the replayer's are both its own.
    let seen = 0;
    const streamed = await replayRecordingStream([`${LINE}\n`], {
      machine: safetyMachine,
      keepDivergences: 1,
      allowTornTail: true,
      onEntry: (n) => (seen = n),
    });
    expect(streamed.count).toBe(1);
    expect(seen).toBe(1);
    expect(
      replayRecording(parseRecording(`${LINE}\n`, { maxLineLength: 1000 }), { machine: safetyMachine }).final,
    ).toBe('RESOLVING');
  });

  it('should refuse a misspelt audit option and an escalated code that is no block reason', () => {
    expect(() => createAuditClassifier({ rule: { tools: {} } } as never)).toThrow(
      new TypeError('createAuditClassifier: options.rule: unknown field (did you mean rules?)'),
    );
    expect(() => createAuditReport({ escalte: [] } as never)).toThrow(
      new TypeError('createAuditReport: options.escalte: unknown field (did you mean escalate?)'),
    );
    // Before, a misspelt code counted nothing as an escalation, without a word.
    expect(() => createAuditReport({ escalate: ['TARGET_NOT_VALIDATED', 'UNVERIFIED_WRTE'] })).toThrow(
      /^createAuditReport: options\.escalate\.1: unknown block reason "UNVERIFIED_WRTE" \(did you mean UNVERIFIED_WRITE\?\)/,
    );
    expect(createAuditReport({ escalate: ['UNVERIFIED_WRITE'] }).report().escalations.calls).toBe(0);
  });

  it('should refuse a misspelt coding-agent classifier option and a misspelt exploration option', () => {
    expect(() => createCodingAgentClassifier({ rule: {} } as never)).toThrow(
      new TypeError('createCodingAgentClassifier: options.rule: unknown field (did you mean rules?)'),
    );
    expect(createCodingAgentClassifier({ cwd: '/repo' })('Read', { file_path: 'a.ts' }).kind).toBe('read');
    expect(() => exploreMachine(safetyMachine, { counterCapp: 1 } as never)).toThrow(
      new TypeError('exploreMachine: options.counterCapp: unknown field (did you mean counterCap?)'),
    );
  });
});
