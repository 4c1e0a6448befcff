import * as z from 'zod/mini';

/**
 * One tool call as a model returned it: the provider's call id, the tool's
 * name and its arguments (already parsed from JSON if the provider sends
 * text). Extra fields a provider adds are dropped.
 */
export const ToolCall = z.object({
  id: z.string().check(z.minLength(1, 'expected a non-empty string')),
  name: z.string().check(z.minLength(1, 'expected a non-empty string')),
  args: z.optional(z.unknown()),
});
export type ToolCall = z.infer<typeof ToolCall>;
