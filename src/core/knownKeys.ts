import { didYouMean } from './didYouMean.js';
import { pollutedKey, pollutionMessage } from './Issue.js';

/** Every key of `T`, each `true`: a key `T` gains and the list lacks (or the reverse) fails to compile. */
export type EveryKey<T> = { [K in keyof Required<T>]: true };

/**
 * The keys of an object argument's type, as a set checked against the type.
 *
 * @example
 * const KEYS = keysOf<{ id: string; note?: string }>({ id: true, note: true });
 */
export const keysOf = <T>(keys: EveryKey<T>): ReadonlySet<string> => new Set(Object.keys(keys));

/**
 * The first enumerable key of `value` that `keys` lacks, with the words of its refusal ("unknown
 * field (did you mean targets?)"), or undefined. Reading the keys may throw (a hostile Proxy).
 *
 * @example
 * unknownField({ targts: [] }, keysOf<{ targets?: string[] }>({ targets: true }))?.message; // 'unknown field (did you mean targets?)'
 */
function unknownField(value: object, keys: ReadonlySet<string>): { key: string; message: string } | undefined {
  for (const key in value)
    if (!keys.has(key)) {
      const guess = didYouMean(key, [...keys]);
      return { key, message: `unknown field${guess ? ` (did you mean ${guess}?)` : ''}` };
    }
  return undefined;
}

/** What is wrong with an object argument: where (a path below the argument's), and in what words. */
export interface ArgumentProblem {
  path: string;
  message: string;
  /** The unknown field, when that is the problem. */
  key?: string;
}

/**
 * What stops an object argument from being taken at face value, or undefined: a polluted
 * `Object.prototype` (every object would lend the fields its caller left out), keys that throw when
 * listed (a hostile Proxy), or a field `keys` lacks, named with the one it looks like. Every session
 * and integration checks its object arguments with it and throws its own error.
 *
 * @example
 * argumentProblem('options', { modee: 'shadow' }, keysOf<{ mode?: string }>({ mode: true }));
 * // { path: 'options.modee', message: 'unknown field (did you mean mode?)', key: 'modee' }
 */
export function argumentProblem(path: string, value: object, keys: ReadonlySet<string>): ArgumentProblem | undefined {
  const polluted = pollutedKey();
  if (polluted !== undefined) return { path, message: pollutionMessage(polluted) };
  let unknown: ReturnType<typeof unknownField>;
  try {
    unknown = unknownField(value, keys);
  } catch {
    return { path, message: COULD_NOT_READ };
  }
  return unknown && { path: `${path}.${unknown.key}`, message: unknown.message, key: unknown.key };
}

/** The words for an argument whose fields throw when read. */
export const COULD_NOT_READ = 'could not be read (a getter or Proxy threw)';

/**
 * Throws a `TypeError` for an option `keys` lacks: a misspelt option is an error, never a silent default.
 *
 * @example
 * refuseUnknownOptions('createMcpGateway', { rule: {} }, keys); // TypeError: createMcpGateway: options.rule: unknown field (did you mean rules?)
 */
export function refuseUnknownOptions(
  where: string,
  options: object,
  keys: ReadonlySet<string>,
  path = 'options',
): void {
  const problem = argumentProblem(path, options, keys);
  if (problem !== undefined) throw new TypeError(`${where}: ${problem.path}: ${problem.message}`);
}
