/** The longest delay a Node timer keeps: a longer one prints TimeoutOverflowWarning and fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;
