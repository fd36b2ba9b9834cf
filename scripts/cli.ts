#!/usr/bin/env -S npx tsx
// `npm run cli -- <command>`: thin wrapper around src/cli/main.ts; a bad setting is one line, as for the server.
import { runCli } from '../src/cli/main.ts';
import { ConfigError } from '../src/config.ts';

try {
  process.exitCode = await runCli(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exitCode = 1;
}
