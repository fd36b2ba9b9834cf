// A backup's temporary copy holds password hashes: owner-only from the start, and removed by the next run when a killed one left it behind.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupDatabase } from '../../src/db/backup.ts';
import { openDatabase } from '../../src/db/open.ts';

const children: { kill(signal: NodeJS.Signals): boolean }[] = [];
const folders: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-backup-tmp-'));
  folders.push(dir);
  return dir;
}

/** A migrated database at `file` holding one developer's password hash. */
function databaseWithSecrets(file: string): void {
  const db = openDatabase(file);
  db.prepare("INSERT INTO developers (name, email, created_at) VALUES ('Ana', 'ana@example.org', '2025-01-01T00:00:00Z')").run();
  db.prepare(
    "INSERT INTO developer_passwords (developer_id, password_hash, updated_at) VALUES (1, 'scrypt$secret', '2025-01-01T00:00:00Z')",
  ).run();
  db.close();
}

/** Runs killed-backup-process.ts; resolves with the temporary file once the copy is written, then kills it with SIGKILL. */
async function backupKilledAfterTheCopy(source: string, target: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/db/killed-backup-process.ts', source, target], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const temporary = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const copied = /copied (.+)\n/.exec(stdout);
      if (copied) resolve(copied[1]);
    });
    exited.then(() => reject(new Error(`the backup ended before its copy was written: ${stderr}`)));
  });
  child.kill('SIGKILL');
  await exited;
  return temporary;
}

describe('the temporary copy of a backup', () => {
  it('is owner-only from the start, so a run killed before the rename leaves no readable copy; the next run removes it', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'church.sqlite');
    databaseWithSecrets(source);
    const backups = path.join(dir, 'backups');
    fs.mkdirSync(backups);
    // The child inherits a umask that leaves new files readable by everyone, as most systems' 022 does.
    const previousUmask = process.umask(0o022);
    try {
      const leftover = await backupKilledAfterTheCopy(source, path.join(backups, 'monday.sqlite'));
      expect(path.dirname(leftover)).toBe(backups);
      expect(fs.statSync(leftover).size).toBeGreaterThan(0);
      expect(fs.readFileSync(leftover).includes('scrypt$secret')).toBe(true);
      expect(fs.statSync(leftover).mode & 0o777).toBe(0o600);

      // A temporary file of a run still going on (its process is alive) and a file of someone else's stay.
      const running = spawn('sleep', ['60'], { stdio: 'ignore' });
      children.push(running);
      const ongoing = path.join(backups, `.tuesday.sqlite.${running.pid}.0123abcd.tmp`);
      const unrelated = path.join(backups, '.notes.tmp');
      fs.writeFileSync(ongoing, '');
      fs.writeFileSync(unrelated, 'keep me');

      // The next backup into that folder, of whatever name, removes what the killed run left.
      await backupDatabase(source, path.join(backups, 'tuesday.sqlite'));
      expect(fs.readdirSync(backups).sort()).toEqual(['.notes.tmp', path.basename(ongoing), 'tuesday.sqlite'].sort());
      expect(fs.statSync(path.join(backups, 'tuesday.sqlite')).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(unrelated, 'utf8')).toBe('keep me');
    } finally {
      process.umask(previousUmask);
    }
  });
});
