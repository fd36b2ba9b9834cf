// Entry point of the single binary (dist/church-api): serve as `npm start` does, run the operator CLI, or say which version it is.
import { versionLine } from './version.ts';

const USAGE = `Usage:
  church-api                    serve (settings from the environment, as for npm start)
  church-api cli <command> ...  the operator CLI (church-api cli help lists the commands)
  church-api --version          the version, the commit it was built from and the Node.js inside`;

/** Each branch loads only what it runs, so `--version` opens nothing. */
async function main(args: string[]): Promise<void> {
  const [first, ...rest] = args;
  if (first === undefined) {
    // The same start, signals and exit codes as `npm start`: src/server.ts runs its main when loaded.
    await import('../server.ts');
    return;
  }
  if (first === 'cli') {
    const { runCliProcess } = await import('../cli/process-entry.ts');
    process.exitCode = await runCliProcess(rest, 'church-api cli');
    return;
  }
  if (first === '--version' || first === '-v') {
    console.log(versionLine());
    return;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    console.log(USAGE);
    return;
  }
  console.error(`Unknown argument: ${first}\n\n${USAGE}`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
