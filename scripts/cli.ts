#!/usr/bin/env -S npx tsx
// `npm run cli -- <command>`: thin wrapper around src/cli/process-entry.ts (the single binary's `church-api cli` runs the same).
import { runCliProcess } from '../src/cli/process-entry.ts';

process.exitCode = await runCliProcess(process.argv.slice(2));
