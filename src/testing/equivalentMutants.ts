/**
 * Mutants of the shipped machine that no test can kill because they do not
 * change its behaviour, by mutant id, with the reason. `mutate` reports them
 * apart; a test checks each one listed still survives, so the list stays honest.
 */
export const EQUIVALENT_MUTANTS: Readonly<Record<string, string>> = {
  'swap-guard states.RESOLVING.on.TOOL_SUCCEEDED[0] isDiscovery→isVerifyingRead':
    'In RESOLVING every call in flight began at the current write epoch: RESOLVING is entered only at the start or by reset(), which clears the calls, and a write that lands leaves RESOLVING. So "a resolve or read that began after the last write" is "a resolve or read" there.',
};
