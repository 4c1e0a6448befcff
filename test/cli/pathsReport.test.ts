import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { main } from '../../src/cli/main.js';
import { launchChromium } from '../../scripts/chromium.js';
import { RESULTS } from '../e2e/helpers.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('the QA report of the generated paths', () => {
  // docs/app-diagram.md's block gives these two commands; this file runs them (the page's block is a
  // fragment so the mutation run, a minute of CPU, is not made twice in one test run).
  it('should be the commands docs/app-diagram.md gives', () => {
    const page = readFileSync(new URL('../../docs/app-diagram.md', import.meta.url), 'utf8');
    const block = /## The QA report[^\n]*\n\n```sh fragment\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
    expect(
      block
        .split('\n')
        .map((l) => l.replace(/\s+#.*$/, '').trim())
        .filter(Boolean),
    ).toEqual([
      'npx assistant-safety paths --format html --out reports',
      'npx assistant-safety paths --format md --skip-mutants',
    ]);
  });

  it('should open in Chromium with the network blocked and show the coverage test-paths reports, the invariants and the mutation score', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paths-html-'));
    const written = await run(['paths', '--format', 'html', '--out', dir]);
    expect(written.code).toBe(0);
    const html = readFileSync(join(dir, 'paths-shortest.html'), 'utf8');

    const page = await browser.newPage();
    const requests: string[] = [];
    await page.route('**/*', (route) => {
      requests.push(route.request().url());
      return route.abort();
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.setContent(html);
    const figure = (key: string) => page.locator(`[data-figure="${key}"] .figure-value`).textContent();

    // Coverage exactly as test-paths prints it ("states: 4/4 (100%)").
    const testPaths = await run(['test-paths']);
    for (const [key, name] of [
      ['states', 'states'],
      ['transitions', 'transitions'],
      ['guard-outcomes', 'guard outcomes'],
    ] as const) {
      const line = testPaths.out.split('\n').find((l) => l.startsWith(`${name}: `))!;
      expect(line, name).toBeDefined();
      expect((await figure(key))!.trim()).toBe(line.slice(name.length + 2));
    }
    expect(await figure('invariants')).toMatch(/^(\d+)\/\1 hold$/);
    expect(await figure('mutation')).toBe('100%');

    // Grouped by state and transition; a path opens and is drawn inline.
    const groups = page.locator('details.transition');
    expect(await groups.count()).toBeGreaterThan(20);
    await groups.first().locator('summary').first().click();
    const path = groups.first().locator('details.path').first();
    await path.locator('summary').click();
    await expect.poll(() => path.locator('.drawing svg rect').count()).toBeGreaterThan(1);
    expect(await path.locator('.drawing svg text').first().textContent()).toMatch(
      /RESOLVING|READING|WRITING|VERIFYING/,
    );

    await page.setViewportSize({ width: 1280, height: 720 });
    mkdirSync(join(RESULTS, 'screenshots'), { recursive: true });
    await page.screenshot({ path: join(RESULTS, 'screenshots', 'qa-report.png') });
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  it('should give the Markdown the same summary, a table of contents and the grouping', async () => {
    const { code, out } = await run(['paths', '--format', 'md', '--skip-mutants']);
    expect(code).toBe(0);
    const [summary] = out.split('## Contents');
    expect(summary).toMatch(/\*\*States\*\*: 4\/4 \(100%\)/);
    expect(summary).toMatch(/\*\*Transitions\*\*: \d+\/\d+ \(100%\)/);
    expect(summary).toMatch(/\*\*Guard outcomes\*\*: \d+\/\d+ \(100%\)/);
    expect(summary).toMatch(/\*\*Invariants\*\*: all \d+ hold/);
    expect(summary).toContain('**Mutation score**: not run (--skip-mutants)');
    expect(out).toContain('- [RESOLVING](#state-RESOLVING)');
    expect(out).toMatch(
      /\n## VERIFYING\n\n<a id="VERIFYING-VERIFYING-CHECK_TOOL-0-"><\/a>\n\n### CHECK_TOOL \[isWrite\] → stays\n/,
    );
  });
});
