/** Where a command writes; tests pass their own. */
export interface CliIO {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** One `assistant-safety <name>` command. Exit codes: 0 ok, 1 a finding (divergence, violation), 2 bad input. */
export interface Command {
  name: string;
  /** One line for `--help`. */
  summary: string;
  /** Full usage text for `<name> --help`. */
  usage: string;
  run(argv: string[], io: CliIO): Promise<number>;
}

/** A usage error: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
