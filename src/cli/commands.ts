import type { Command } from './Command.js';
import { replayCommand } from './replay.js';
import { checkCommand } from './check.js';
import { pathsCommand } from './paths.js';
import { testPathsCommand } from './testPaths.js';
import { mutateCommand } from './mutate.js';
import { serveCommand } from './serve.js';
import { exportCommand } from './export.js';
import { mcpGatewayCommand } from './mcpGateway.js';
import { mcpConfigCommand } from './mcpConfig.js';
import { classifyCommand } from './classify.js';
import { statsCommand } from './stats.js';
import { hookCommand } from './hook.js';
import { auditCommand } from './audit.js';

/** Every CLI command, in `--help` order. Add a command: one file in src/cli, one line here. */
export const commands: Command[] = [
  replayCommand,
  checkCommand,
  pathsCommand,
  testPathsCommand,
  mutateCommand,
  serveCommand,
  exportCommand,
  mcpGatewayCommand,
  mcpConfigCommand,
  classifyCommand,
  statsCommand,
  hookCommand,
  auditCommand,
];
