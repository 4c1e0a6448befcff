import type { MachineState } from '../core/MachineRunner.js';
import { SessionShell } from '../core/SessionShell.js';
import type { RecordingEntry } from './RecordingEntry.js';
import { inFlightWriteOf, type PendingRecovery, type SafetyContext } from './SafetyContext.js';
import type { SafetyEvent } from './SafetyEvent.js';
import type { SafetySession } from './SafetySessionTypes.js';
import type { SessionState } from './toolKind.js';

/**
 * What a safety session shows of where its machine is: read-only views of the context, under the
 * names of the session's API. The session's calls are in `SafetySession.ts`, its shell in the core.
 */
export abstract class SafetyReadings extends SessionShell<SafetyContext, SafetyEvent, RecordingEntry, SafetySession> {
  /** Where the machine is now. */
  protected get snap(): MachineState<SafetyContext> {
    return this.runner.state;
  }

  get state(): SessionState {
    return this.snap.value as SessionState;
  }
  get context(): Readonly<SafetyContext> {
    return this.snap.context;
  }
  get wroteThisEpisode() {
    return this.snap.context.wroteThisEpisode;
  }
  get readAfterWrite() {
    return this.snap.context.readAfterWrite;
  }
  get consecutiveVerifyBlocks() {
    return this.snap.context.consecutiveVerifyBlocks;
  }
  get lastWriteTool() {
    return this.snap.context.lastWriteTool ?? undefined;
  }
  get lastWriteAt() {
    return this.snap.context.lastWriteAt ?? undefined;
  }
  get lastReadTool() {
    return this.snap.context.lastReadTool ?? undefined;
  }
  get lastReadAt() {
    return this.snap.context.lastReadAt ?? undefined;
  }
  get pendingRecoveries(): readonly PendingRecovery[] {
    const { pendingRecoveries, config } = this.snap.context;
    if (pendingRecoveries.length === 0) return pendingRecoveries;
    const now = this.clock();
    return pendingRecoveries.filter((r) => now - r.createdAt <= config.recoveryTtlMs);
  }
  get inFlightWrite() {
    return inFlightWriteOf(this.snap.context);
  }
  get validatedTargets(): readonly string[] {
    return this.snap.context.validatedTargets;
  }
}
