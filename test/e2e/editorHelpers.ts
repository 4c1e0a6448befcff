import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { root } from './helpers.js';

// `node --import tsx`, not the tsx CLI, whose signal relay turns a slow child's Ctrl-C into exit 130.
const TSX = ['--import', 'tsx'];

/** A copy of the repository's machines/ in a temp folder: e2e tests save there, never into the repository. */
export function copyMachines(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'editor-e2e-')), 'machines');
  cpSync(join(root, 'machines'), dir, { recursive: true });
  return dir;
}

/** Runs the real CLI (`assistant-safety <args>`) and returns its exit code and output. */
export function cli(args: string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [...TSX, join(root, 'src', 'cli', 'bin.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Waits until the editor's invariant check has answered for the machine as it is now. */
export async function checked(page: Page): Promise<string> {
  const status = page.locator('[data-testid="check-status"]:not([aria-busy])');
  await page.locator('[data-testid="invariant-report"][aria-busy="false"]').waitFor({ timeout: 30_000 });
  return (await status.textContent()) ?? '';
}

/** Selects a transition in the inspector: its state from the list, then the transition. */
export async function selectTransition(page: Page, state: string, id: string): Promise<void> {
  if (await page.locator('[data-action="deselect"]').count()) await page.locator('[data-action="deselect"]').click();
  await page.locator(`[data-edit-state-pick="${state}"]`).click();
  await page.locator(`[data-edit-transition="${id}"]`).click();
}
