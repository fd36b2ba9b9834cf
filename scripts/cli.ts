#!/usr/bin/env -S npx tsx
// `npm run cli -- <command>`: thin wrapper around src/cli/main.ts.
import { runCli } from '../src/cli/main.ts';

process.exitCode = await runCli(process.argv.slice(2));
