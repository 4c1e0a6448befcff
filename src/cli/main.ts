import { commands } from './commands.js';
import { argumentError, UsageError, type CliIO } from './Command.js';
import { didYouMean } from '../core/didYouMean.js';
import { packageVersion } from '../node/packageRoot.js';

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return `assistant-safety ${packageVersion()}: the session safety state machine for tool-using AI agents

Usage: assistant-safety <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Options:
  --help, -h     show this help (or a command's: assistant-safety <command> --help)
  --version, -v  print the version`;
}

/** The longest usage printed after an argument error; a longer one is named, not printed. */
const USAGE_SHOWN_LINES = 20;

/** Runs the CLI; returns the exit code. */
export async function main(
  argv: string[],
  io: CliIO = { out: (t) => console.log(t), err: (t) => console.error(t) },
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(packageVersion());
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    const guess = didYouMean(
      name,
      commands.map((c) => c.name),
    );
    io.err(`assistant-safety: unknown command "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.usage);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    const argument = argumentError(e, command.usage);
    if (e instanceof UsageError || argument !== undefined) {
      // A long usage would scroll the one line that says what is wrong off the screen: point to it instead.
      const usage =
        command.usage.split('\n').length > USAGE_SHOWN_LINES
          ? `(assistant-safety ${name} --help shows every option)`
          : command.usage;
      io.err(`assistant-safety ${name}: ${argument ?? (e as Error).message}\n\n${usage}`);
      return 2;
    }
    throw e;
  }
}
