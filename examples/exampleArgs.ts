import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * `parseArgs` for the examples and scripts: a wrong option is one line naming it and the options
 * there are, exit 2, not Node's stack trace.
 *
 * @example
 * const { values } = exampleArgs('demo-agent', { options: { out: { type: 'string' } } });
 */
export function exampleArgs<T extends ParseArgsConfig>(name: string, config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    const known = Object.keys(config.options ?? {}).map((o) => `--${o}`);
    const first = String((e as Error).message).split('. ')[0];
    console.error(`${name}: ${first} (its options: ${known.join(', ') || 'none'})`);
    process.exit(2);
  }
}
