/**
 * The prefix of the target a write gets when its rule names target arguments the call does not
 * give (`?missing:<tool>@<digest of the arguments>`): a placeholder, not a value, so no one's words ever validate it.
 */
export const MISSING_TARGET_PREFIX = '?missing:';
