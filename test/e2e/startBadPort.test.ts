import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { root } from './helpers.js';

/*
 * `PORT=abc npm start` says what is wrong with PORT and exits 2 before building or serving anything,
 * instead of Node's ERR_SOCKET_BAD_PORT stack from deep inside the server.
 */
describe('npm start with a PORT that is no port', () => {
  for (const port of ['abc', '99999', '-1', '4400.5']) {
    it(`should refuse PORT=${port} in one line and exit 2`, () => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
        cwd: root,
        env: { ...process.env, PORT: port },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toBe(`start: PORT must be a port number from 0 to 65535 (0: a free one), got "${port}"`);
      expect(r.stdout).not.toMatch(/http:\/\/127\.0\.0\.1/);
    });
  }
});
