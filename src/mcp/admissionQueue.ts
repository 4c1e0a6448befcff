/*
 * The admission queue: tool calls are admitted (decided, then sent on or answered) in the order
 * they arrived. A call with nothing before it waiting is admitted at once, in the same turn
 * (a local session decides synchronously, so the common case costs no promise); a call that
 * arrives while another still waits (a listing, a shared session's save, an escalation) is
 * admitted after it.
 */

/** See {@link createAdmissionQueue}. */
export interface AdmissionQueue {
  /**
   * Runs `admit` now when nothing waits, otherwise after what waits. `admit` returns the
   * promise of the rest of its work (never rejecting), or nothing when it finished at once.
   */
  run(admit: () => Promise<void> | undefined): void;
  /** Whether an admission is still under way. */
  readonly busy: boolean;
}

/**
 * @example
 * const queue = createAdmissionQueue();
 * queue.run(() => admitOne(request)); // at once
 * queue.run(() => admitOne(next)); // after the first, if it is still waiting
 */
export function createAdmissionQueue(): AdmissionQueue {
  /** The admissions not finished yet (the last of them), or undefined when none is. */
  let admitting: Promise<void> | undefined;
  const queue = (next: Promise<void>) => {
    const tail: Promise<void> = next.then(() => {
      if (admitting === tail) admitting = undefined;
    });
    admitting = tail;
  };
  return {
    run(admit) {
      if (admitting) return queue(admitting.then(admit));
      const admitted = admit();
      if (admitted) queue(admitted);
    },
    get busy() {
      return admitting !== undefined;
    },
  };
}
