// Whether a process still runs: what the cleanups of files left by killed runs (backups, the binary's addon folders) ask.

/** Signal 0 checks that a process exists without sending anything: ESRCH means gone; EPERM means alive under another user. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
