// Node's single-executable-application steps: the preparation blob from a bundle and assets, then a copy of Node with the blob injected.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface SeaInput {
  /** The Node.js executable to copy, the same version that writes the blob. */
  node: string;
  /** The CommonJS main script. */
  mainFile: string;
  /** Node flags the executable starts with (SEA `execArgv`): npm start's, so both run alike. */
  execArgv: string[];
  /** Asset name → file, read at run time with node:sea's getRawAsset. */
  assets: Record<string, string>;
  /** Folder for the configuration and the blob. */
  workDir: string;
  /** The executable to write (replaced only once complete). */
  out: string;
}

/** The fuse Node's SEA support looks for (nodejs.org/api/single-executable-applications.html). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * Writes the executable: `node --experimental-sea-config` makes the blob (Node 24 has no
 * --build-sea yet), postject injects it into a copy of that node, which is renamed into place.
 * The blob carries V8's code cache of the main script, so the binary does not compile the
 * bundle from scratch at every start.
 *
 * @example writeSingleExecutable({ node, mainFile: 'bundle.cjs', execArgv: [], assets: {}, workDir, out: 'dist/church-api' });
 */
export function writeSingleExecutable(input: SeaInput): void {
  const blob = path.join(input.workDir, 'sea-prep.blob');
  const config = path.join(input.workDir, 'sea-config.json');
  const seaConfig = {
    main: input.mainFile,
    output: blob,
    disableExperimentalSEAWarning: true,
    useCodeCache: true,
    execArgv: input.execArgv,
    assets: input.assets,
  };
  fs.writeFileSync(config, `${JSON.stringify(seaConfig, null, 2)}\n`);
  execFileSync(input.node, ['--experimental-sea-config', config], { stdio: 'pipe' });

  fs.mkdirSync(path.dirname(input.out), { recursive: true });
  const partial = `${input.out}.partial`;
  fs.copyFileSync(input.node, partial);
  fs.chmodSync(partial, 0o755);
  inject(partial, blob);
  fs.renameSync(partial, input.out);
}

/**
 * postject's command, run as a child: its ELF library prints "Can't find string offset for
 * section name" for Node's note sections, harmless and many, so its output is shown only when
 * it fails.
 */
function inject(executable: string, blob: string): void {
  const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('postject')), 'cli.js');
  try {
    execFileSync(process.execPath, [cli, executable, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE], { stdio: 'pipe' });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`postject failed:\n${String(stdout)}${String(stderr)}`);
  }
}
