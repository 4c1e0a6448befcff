import { z } from 'zod';

/**
 * One tool call as a model returned it: the provider's call id, the tool's
 * name and its arguments (already parsed from JSON if the provider sends
 * text). Extra fields a provider adds are dropped.
 */
export const ToolCall = z.object({
  id: z.string().min(1, 'expected a non-empty string'),
  name: z.string().min(1, 'expected a non-empty string'),
  args: z.unknown().optional(),
});
export type ToolCall = z.infer<typeof ToolCall>;
