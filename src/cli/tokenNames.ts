/*
 * The environment variables the CLI takes tokens from (tokenEnv.ts reads them), apart so that the
 * hook's small entry (hookFast.ts) can name one without loading anything.
 */

/** The live hub's token, for `--live` (`mcp-gateway`, the hook commands, `mcp-config`). */
export const LIVE_TOKEN_ENV = 'ASSISTANT_SAFETY_LIVE_TOKEN';
/** The bearer token of `mcp-gateway --listen`. */
export const GATEWAY_TOKEN_ENV = 'ASSISTANT_SAFETY_GATEWAY_TOKEN';
