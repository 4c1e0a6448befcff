import type { BlockReasonCode } from '../safety/toolKind.js';

/*
 * A block in words a model and a person can act on: one sentence each, built only from the
 * block's details (no session, no I/O), so it fits every profile whose blocks carry the same
 * details, including one where evidence is kept per file.
 */

/** What {@link explainBlock} needs of a block: its envelope's details, and what the call was. */
export interface BlockFacts {
  reasonCode: BlockReasonCode;
  /** The tool refused (`Edit`, `Bash`...). Absent for a final answer (Stop). */
  toolName?: string;
  /** The targets the refused call touches (`file:/repo/a.ts`). */
  targets?: readonly string[];
  /**
   * The targets whose last write still needs evidence (a read of the file, or a project-wide
   * check begun after the edit). When absent, the sentence speaks of "the last change".
   */
  pending?: readonly string[];
  /** The shell command refused, for a Bash call: named instead of its targets. */
  command?: string;
  /** The project folder: files inside it are named relative to it. */
  cwd?: string;
  /**
   * The tool of the last change, named when no file of it is pending (a shell command that changed
   * no known file, a tool the hook does not know); `undeclared` when neither the hook's table nor
   * its rules know it, so it counts as a change.
   */
  lastChange?: { tool: string; undeclared?: boolean };
  /** The refused tool is known to neither the hook's table nor its rules, so it counts as a change. */
  undeclared?: boolean;
  /**
   * The agent has no tool that reads a file (the Codex CLI reads with its shell): the model's
   * sentence names the commands that do (`cat`, `sed -n`, `ls`), which the hook counts as reads.
   */
  readsWithShell?: boolean;
}

/** The two sentences of a block. */
export interface BlockSentences {
  /** For the model (a deny reason, a Stop block): what clears the block. */
  model: string;
  /** For the person asked to approve the call: what the call is and why it is asked. */
  person: string;
}

const MAX_COMMAND = 80;

/** A target as a person reads it: a path relative to the project, else the key itself. */
function nameOf(target: string, cwd: string | undefined): string {
  if (!target.startsWith('file:')) return target;
  const path = target.slice('file:'.length);
  const base = cwd?.replace(/\\/g, '/').replace(/\/+$/, '');
  if (base && path.startsWith(`${base}/`)) return path.slice(base.length + 1);
  return path;
}

/** `a`, `a and b`, `a, b and 2 more files`. */
function list(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  if (names.length <= 3) return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${names.slice(0, 2).join(', ')} and ${names.length - 2} more files`;
}

function oneLine(command: string): string {
  const flat = command.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_COMMAND ? `${flat.slice(0, MAX_COMMAND - 1)}…` : flat;
}

/**
 * Words a model and a person can act on for one block: the model's sentence says what clears
 * it (which file to read, or which check to run), the person's names the file or command. Pure:
 * it reads only `facts`.
 *
 * @example
 * explainBlock({
 *   reasonCode: 'UNVERIFIED_WRITE', toolName: 'Edit', cwd: '/repo',
 *   targets: ['file:/repo/src/b.ts'], pending: ['file:/repo/src/a.ts'],
 * }).model;
 * // 'Read src/a.ts again, or run the tests or the type check, to check the last change to it before editing src/b.ts.'
 * // with `readsWithShell: true`: 'Read src/a.ts again with a shell command (`cat` or `sed -n`), or run ...'
 */
export function explainBlock(facts: BlockFacts): BlockSentences {
  const names = (facts.targets ?? []).map((t) => nameOf(t, facts.cwd));
  const pending = (facts.pending ?? []).map((t) => nameOf(t, facts.cwd));
  const tool = facts.toolName ?? 'the call';
  const what =
    facts.command !== undefined
      ? `\`${oneLine(facts.command)}\``
      : names.length > 0
        ? `${tool} of ${list(names)}`
        : tool;
  const verb = facts.command !== undefined ? 'running' : names.length > 0 ? 'editing' : 'running';
  const object = facts.command !== undefined ? `\`${oneLine(facts.command)}\`` : names.length > 0 ? list(names) : tool;
  const last = pending.length === 0 ? facts.lastChange : undefined;
  // How the agent reads: a tool (Claude Code's Read), or its shell (Codex): then the commands are named.
  const readFile = facts.readsWithShell ? ' with a shell command (`cat` or `sed -n`)' : '';
  const readOrList = facts.readsWithShell ? ' with `cat`, `sed -n` or `ls`' : '';
  const check =
    pending.length > 0
      ? `Read ${list(pending)} again${readFile}, or run the tests or the type check, to check the last change to ${pending.length > 1 ? 'them' : 'it'}`
      : `Check the last change${last === undefined ? '' : `, made by ${last.tool}${last.undeclared ? ' (a tool the hook does not know counts as a change)' : ''}`} (read or list what it changed${readOrList}, or run the tests or the type check)`;
  // The way out for a tool that only reads is the hook's rules: the person who installed the hook can use it.
  const unknownTool = facts.undeclared ? tool : last?.undeclared ? last.tool : undefined;
  const undeclared =
    unknownTool === undefined
      ? ''
      : ` (${unknownTool} is in neither the hook's table nor its rules, so it counts as a change; a tool that only reads can be declared in the rules file given with --rules.)`;

  switch (facts.reasonCode) {
    case 'NO_VALIDATED_TARGET':
    case 'TARGET_NOT_VALIDATED':
      return names.length > 0
        ? {
            model: `Read ${list(names)} first${readFile}: this session has not read ${names.length > 1 ? 'them' : 'it'}, and a change needs its file read (or created) in this session.`,
            person: `Allow ${what}, which this session has not read?`,
          }
        : {
            model: `Read or list what ${object} changes first${readOrList}: nothing has been read in this session, and a change needs what it touches read first.${facts.undeclared ? ` (${tool} is a tool the hook does not know, so it counts as a change.)` : ''}`,
            person: `Allow ${what}, although nothing it changes was read in this session?${undeclared}`,
          };
    case 'UNVERIFIED_WRITE':
      return {
        model: `${check} before ${verb} ${object}.`,
        person:
          (pending.length > 0
            ? `Allow ${what}, although the last change to ${list(pending)} has not been checked?`
            : `Allow ${what}, although the last change${last === undefined ? '' : `, made by ${last.tool},`} has not been checked?`) +
          undeclared,
      };
    case 'WRITE_IN_FLIGHT':
      return {
        model: `Wait for the change still running to finish, then check it, before ${verb} ${object}.`,
        person: `Allow ${what} while another change is still running?`,
      };
    case 'FINAL_ANSWER_UNVERIFIED':
      return {
        model: `${check} before stopping.`,
        person:
          pending.length > 0
            ? `Let the agent stop although its last change to ${list(pending)} has not been checked?`
            : 'Let the agent stop although its last change has not been checked?',
      };
    case 'EGRESS_NOT_VALIDATED':
      return {
        model: `${what} sends data to ${names.length > 0 ? list(names) : 'a destination'} that neither the user nor a read in this session named; use an address the user gave or a read found.`,
        person: `Allow ${what}, which sends data to ${names.length > 0 ? list(names) : 'a destination'} nobody named in this session?`,
      };
    case 'POLICY_DENIED':
      return {
        model: `This session's profile does not allow ${what}; nothing read or run clears it.`,
        person: `Allow ${what}, which this session's profile does not allow?`,
      };
  }
}
