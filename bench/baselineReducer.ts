/*
 * A hand-written reducer with the safety semantics of the lifecycle and
 * compatible APIs: the yardstick the gate benchmark compares SafetySession
 * against. Not product code: it exists so "how much does XState cost?" has
 * an answer measured in the same run. Immutable updates, like any reducer a
 * team would write by hand.
 */

type Kind = 'resolve' | 'read' | 'write' | 'user_input';
type State = 'RESOLVING' | 'READING' | 'WRITING' | 'VERIFYING';

interface Call {
  kind: Kind;
  tool: string;
  epoch: number;
}

export interface ReducerState {
  state: State;
  wroteThisEpisode: boolean;
  readAfterWrite: boolean;
  consecutiveVerifyBlocks: number;
  lastWriteTool: string | null;
  lastWriteAt: number | null;
  lastReadTool: string | null;
  lastReadAt: number | null;
  writeEpoch: number;
  calls: Record<string, Call>;
  blocked: string | null;
}

export type ReducerEvent =
  | { type: 'BEGIN'; id: string; kind: Kind; tool: string; at: number }
  | { type: 'END'; id: string; ok: boolean; at: number }
  | { type: 'CHECK'; kind: Kind; tool: string }
  | { type: 'SUCCESS'; kind: Kind; tool: string; at: number }
  | { type: 'COMPLETE' };

export const initialReducerState: ReducerState = {
  state: 'RESOLVING',
  wroteThisEpisode: false,
  readAfterWrite: false,
  consecutiveVerifyBlocks: 0,
  lastWriteTool: null,
  lastWriteAt: null,
  lastReadTool: null,
  lastReadAt: null,
  writeEpoch: 0,
  calls: {},
  blocked: null,
};

function blockFor(s: ReducerState, kind: Kind): string | null {
  if (kind !== 'write') return null;
  if (s.state === 'RESOLVING') return 'NO_VALIDATED_TARGET';
  if (s.state === 'WRITING') return 'WRITE_IN_FLIGHT';
  if (s.state === 'VERIFYING') return 'UNVERIFIED_WRITE';
  return null;
}

function without(calls: Record<string, Call>, id: string): Record<string, Call> {
  const rest: Record<string, Call> = {};
  for (const k in calls) if (k !== id) rest[k] = calls[k]!;
  return rest;
}

function success(s: ReducerState, kind: Kind, tool: string, epoch: number, at: number): ReducerState {
  if (kind === 'write') {
    return {
      ...s,
      state: 'VERIFYING',
      wroteThisEpisode: true,
      readAfterWrite: false,
      lastWriteTool: tool,
      lastWriteAt: at,
      writeEpoch: s.writeEpoch + 1,
    };
  }
  if (kind === 'user_input') return s;
  if (s.state === 'RESOLVING') return { ...s, state: 'READING', lastReadTool: tool, lastReadAt: at };
  if (s.state === 'VERIFYING' && epoch === s.writeEpoch) {
    return { ...s, readAfterWrite: true, consecutiveVerifyBlocks: 0, lastReadTool: tool, lastReadAt: at };
  }
  return { ...s, lastReadTool: tool, lastReadAt: at };
}

export function reduce(s: ReducerState, e: ReducerEvent): ReducerState {
  switch (e.type) {
    case 'CHECK': {
      const blocked = blockFor(s, e.kind);
      if (blocked === 'UNVERIFIED_WRITE')
        return { ...s, blocked, consecutiveVerifyBlocks: s.consecutiveVerifyBlocks + 1 };
      return blocked === s.blocked ? s : { ...s, blocked };
    }
    case 'BEGIN': {
      const blocked = blockFor(s, e.kind);
      if (blocked) {
        return {
          ...s,
          blocked,
          consecutiveVerifyBlocks: s.consecutiveVerifyBlocks + (blocked === 'UNVERIFIED_WRITE' ? 1 : 0),
        };
      }
      const calls = { ...s.calls, [e.id]: { kind: e.kind, tool: e.tool, epoch: s.writeEpoch } };
      return { ...s, blocked: null, calls, state: e.kind === 'write' ? 'WRITING' : s.state };
    }
    case 'END': {
      const call = s.calls[e.id];
      if (!call) return s;
      const next = { ...s, calls: without(s.calls, e.id) };
      if (!e.ok) return call.kind === 'write' ? { ...next, state: 'READING' } : next;
      return success(next, call.kind, call.tool, call.epoch, e.at);
    }
    case 'SUCCESS':
      return success(s, e.kind, e.tool, s.writeEpoch, e.at);
    case 'COMPLETE':
      return s.state === 'VERIFYING' && s.readAfterWrite
        ? { ...s, state: 'READING', readAfterWrite: false, consecutiveVerifyBlocks: 0 }
        : s;
  }
}
