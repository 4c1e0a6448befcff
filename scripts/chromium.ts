import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/*
 * The one way the end-to-end tests and the app benchmark start a browser:
 * Debian's Chromium (never a downloaded one), headless, with the flags that
 * keep it off the network and quiet on a shared CI box.
 */

/** Debian's Chromium, or `CHROMIUM_PATH`. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches headless Chromium (playwright-core gives each launch a fresh profile directory). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does), never a downloaded browser`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}
