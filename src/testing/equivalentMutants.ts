/**
 * Mutants of the shipped machine that no test can kill because they do not
 * change its behaviour, by mutant id, with the reason. `mutate` reports them
 * apart; a test checks each one listed still survives, so the list stays honest.
 *
 * Empty for the shipped machine: every single-point mutant is killed. (The one
 * listed before, RESOLVING's discovery guard swapped for `isVerifyingRead`, is
 * no longer equivalent: with target binding an untrusted read establishes no
 * target, which `isVerifyingRead` does not know, and I9 sees it.)
 */
export const EQUIVALENT_MUTANTS: Readonly<Record<string, string>> = {};
