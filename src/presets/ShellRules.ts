import * as z from 'zod/mini';

/** A command prefix: its words, split on spaces (`just test`, `python -m mypy`); no shell syntax. */
const Prefix = z
  .string()
  .check(
    z.regex(/^[A-Za-z0-9_./:@+=-]+( [A-Za-z0-9_./:@+=-]+)*$/, 'expected command words separated by single spaces'),
  );

/**
 * The `shell` section of a coding-agent rules file: commands the built-in shell table does not
 * know. Each entry is a command prefix; a command line starting with it (any arguments after,
 * none of them expanded by the shell) is judged so.
 *
 * @example
 * ShellRules.parse({ reads: ['bat', 'kubectl get'], fileReads: ['bat'], checks: ['just test'] });
 */
export const ShellRules = z.strictObject({
  /** Commands that only read (no file targets). */
  reads: z.optional(z.array(Prefix)),
  /** Commands that only read the files named by their non-option arguments (`bat src/a.ts`). */
  fileReads: z.optional(z.array(Prefix)),
  /** Project-wide checks: a read that is evidence for every file edited before it began. */
  checks: z.optional(z.array(Prefix)),
});
export type ShellRules = z.infer<typeof ShellRules>;
