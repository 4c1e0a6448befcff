import { MAX_VALIDATED_TARGETS } from '../safety/SafetyContext.js';
import {
  describeChange,
  endsDelegation,
  fileEditEnd,
  isDiscovery,
  list,
  moved,
  stateOf,
  subject,
  success,
  type Invariant,
} from './stepFacts.js';

/*
 * The coding profile's rules (docs/coding-profile.md), each a predicate over one step, stated from
 * the call a step is about and the edited-file list (file and write epoch of its last edit): how
 * an edit enters the list, and the only ways a file leaves it. I3 says the final answer waits
 * while the list is not empty.
 */

const targetsOf = (files: readonly { target: string }[]) => files.map((f) => f.target);

export const codingInvariants: readonly Invariant[] = [
  {
    id: 'I28',
    name: 'Under the coding profile, edits in a row, each file remembered',
    sentence:
      'Under the coding profile a file edit that lands goes to READING, keeps each of its files as edited at the next write epoch (others stay as they were), sets wroteThisEpisode and lastWriteTool and leaves readAfterWrite alone (one that fails follows I11); no other step adds an edited file, and no other profile keeps any.',
    check: (step) => {
      const b = step.before.context;
      const a = step.after.context;
      if (a.config.profile !== 'coding')
        return a.editedFiles.length ? `a session under ${a.config.profile ?? 'no'} profile keeps edited files` : null;
      const added = a.editedFiles.filter(
        (f) => !b.editedFiles.some((g) => g.target === f.target && g.epoch === f.epoch),
      );
      if (!fileEditEnd(step))
        return added.length ? `${step.event.type} added ${list(targetsOf(added))} to the edited files` : null;
      const s = subject(step)!;
      if (stateOf(step.after) !== 'READING') return `a landed file edit went ${moved(step)}, not to READING`;
      const epoch = b.writeEpoch + 1;
      if (a.writeEpoch !== epoch) return `a file edit moved the write epoch ${b.writeEpoch} → ${a.writeEpoch}, not +1`;
      if (!a.wroteThisEpisode || a.lastWriteTool !== s.tool)
        return `a file edit was not recorded as a write (${describeChange(step, ['wroteThisEpisode', 'lastWriteTool'])})`;
      if (a.readAfterWrite !== b.readAfterWrite) return 'a file edit changed readAfterWrite';
      const expected = [
        ...b.editedFiles.filter((f) => !(s.targets ?? []).includes(f.target)),
        ...(s.targets ?? []).map((target) => ({ target, epoch })),
      ];
      const same =
        expected.length === a.editedFiles.length &&
        expected.every((f) => a.editedFiles.some((g) => g.target === f.target && g.epoch === f.epoch));
      return same
        ? null
        : `after an edit of ${list(s.targets ?? [])} the edited files are ${JSON.stringify(a.editedFiles)}, not ${JSON.stringify(expected)}`;
    },
  },
  {
    id: 'I29',
    name: 'An edited file is covered only by evidence begun after its last edit',
    sentence:
      'Under the coding profile a read or resolve that ends ok covers each edited file it read, and a project-wide check every edited file, exactly when the call began after the file’s last edit landed; nothing else takes a file off the list but reset() and a person’s verification for the final answer, which takes them all off in READING and VERIFYING.',
    check: (step) => {
      const b = step.before.context;
      const a = step.after.context;
      if (b.editedFiles.length === 0 || step.event.type === 'RESET') return null;
      if (
        step.event.type === 'ATTEST' &&
        step.event.evidence === 'verification' &&
        step.event.reasonCode === 'FINAL_ANSWER_UNVERIFIED'
      )
        return a.editedFiles.length && ['READING', 'VERIFYING'].includes(stateOf(step.before))
          ? `a person’s verification for the final answer left edited files in ${stateOf(step.before)}`
          : null;
      const s = success(step);
      const evidence = s?.ended === true && !s.ungated && isDiscovery(s.kind) ? s : undefined;
      const edit = fileEditEnd(step) ? (subject(step)!.targets ?? []) : [];
      for (const f of b.editedFiles) {
        if (edit.includes(f.target)) continue; // edited again: I28
        const covers =
          evidence !== undefined &&
          f.epoch <= evidence.epoch &&
          (evidence.check === true || (evidence.targets ?? []).includes(f.target));
        const kept = a.editedFiles.some((g) => g.target === f.target);
        if (covers && kept) return `${step.event.type} began after the last edit of ${f.target} and did not cover it`;
        if (!covers && !kept)
          return `${step.event.type} took ${f.target} off the edited files without evidence begun after its edit`;
      }
      return null;
    },
  },
  {
    id: 'I30',
    name: 'After a subagent, every file is read again before an edit',
    sentence:
      'Under the coding profile, when a subagent’s call ends (ok or not), no file stays validated, so each must be read (or created) again before an edit, while the edited files stay to be checked; no other step but reset() (and the cap on validated targets) takes a file’s validation away.',
    check: (step) => {
      const b = step.before.context;
      const a = step.after.context;
      const files = (targets: readonly string[]) => targets.filter((t) => t.startsWith('file:'));
      if (endsDelegation(step)) {
        if (files(a.validatedTargets).length)
          return `a subagent ended and ${list(files(a.validatedTargets))} stayed validated`;
        if (a.editedFiles.length !== b.editedFiles.length) return 'a subagent’s end changed the edited files';
        return null;
      }
      if (step.event.type === 'RESET' || a.validatedTargets.length >= MAX_VALIDATED_TARGETS) return null;
      const lost = files(b.validatedTargets).filter((t) => !a.validatedTargets.includes(t));
      return lost.length ? `${step.event.type} took the validation of ${list(lost)} away` : null;
    },
  },
];
