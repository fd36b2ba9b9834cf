// The service's log on stdout is written in batches, and what a batch holds still reaches stdout when the process ends: on SIGTERM, on a fatal error.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Runs `code` (an ES module importing src/) in a process of its own; its stdout and exit code once it ends. */
function run(code: string, onStderr?: (text: string, kill: (signal: NodeJS.Signals) => void) => void) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += String(chunk);
  });
  child.stderr.on('data', (chunk) => onStderr?.(String(chunk), (signal) => child.kill(signal)));
  return new Promise<{ stdout: string; code: number | null }>((resolve) => child.on('close', (code) => resolve({ stdout, code })));
}

const LOGGER = `import { createLogger } from './src/http/logger.ts'; const logger = createLogger('info');`;

describe('the batched stdout log', () => {
  it('writes the last line logged before a SIGTERM, when the process exits as the server does on it', async () => {
    const code = `${LOGGER}
      process.on('SIGTERM', () => process.exit(0));
      for (let i = 0; i < 3; i++) logger.info({ i }, 'line');
      logger.info('the last line before SIGTERM');
      process.stderr.write('logged\\n');
      setInterval(() => {}, 1000);`;
    let sent = false;
    const { stdout, code: exitCode } = await run(code, (text, kill) => {
      if (!sent && text.includes('logged')) {
        sent = true;
        kill('SIGTERM');
      }
    });
    expect(exitCode).toBe(0);
    const messages = stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { message: string }).message);
    expect(messages).toEqual(['line', 'line', 'line', 'the last line before SIGTERM']);
  });

  it('writes the last line logged before an uncaught error ends the process', async () => {
    const code = `${LOGGER}
      logger.info('the last line before the error');
      setTimeout(() => { throw new Error('fatal'); }, 1);`;
    const { stdout, code: exitCode } = await run(code);
    expect(exitCode).toBe(1);
    expect(stdout).toContain('"message":"the last line before the error"');
  });

  it('writes a line that does not fill a batch while the process goes on, without being asked', async () => {
    const code = `${LOGGER}
      logger.info('a lone line');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const written = await new Promise<string>((resolve) => {
      let stdout = '';
      child.stdout.on('data', (chunk) => {
        stdout += String(chunk);
        if (stdout.endsWith('\n')) resolve(stdout);
      });
      // Bounds a line that never comes (the test then fails); no assumption about the machine's speed.
      setTimeout(() => resolve(stdout), 20_000);
    });
    // Killed: only what was written while it ran is there, nothing an exit hook wrote.
    child.kill('SIGKILL');
    expect(written).toContain('"message":"a lone line"');
  });
});
