/**
 * The data dir made ready at start (`--data-dir`, or Claude Code's task folder with
 * `--claude-tasks`): made when missing, and refused in one line that says why when it cannot hold
 * the lists (a file where the folder should be, a parent that is a file or not writable), before
 * any client connects, rather than at the first call that writes.
 */
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The nearest of `path` and its parents that exists, with whether it is a folder. */
function nearestExisting(path: string): { path: string; folder: boolean } | undefined {
  for (let at = resolve(path); ; at = dirname(at)) {
    try {
      return { path: at, folder: statSync(at).isDirectory() };
    } catch {
      if (dirname(at) === at) return undefined;
    }
  }
}

/** True when this process may write into the folder `path`. */
function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes the data dir `dir` (and its missing parents); undefined when it is a folder this process
 * can write to, else one line saying what is wrong, naming it as `named` (`--data-dir`):
 * `--data-dir /srv/lists: is a file, not a folder (expected a folder for the lists, made when
 * missing)`. Never throws.
 */
export function dataDirProblem(dir: string, named: string): string | undefined {
  const where = `${named} ${dir}`;
  const found = nearestExisting(dir);
  if (found && found.path === resolve(dir) && !found.folder) {
    return `${where}: is a file, not a folder (expected a folder for the lists, made when missing)`;
  }
  if (found && !found.folder) return `${where}: ${found.path} is a file, not a folder, so ${dir} cannot be made`;
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'an error';
    if ((code === 'EACCES' || code === 'EPERM') && found)
      return `${where}: cannot be made, ${found.path} is not writable by this user (${code})`;
    if (code === 'EROFS') return `${where}: cannot be made on a read-only file system (EROFS)`;
    return `${where}: cannot be made (${(error as Error).message})`;
  }
  if (!writable(dir)) return `${where}: is not writable by this user (expected a folder it can write the lists in)`;
  return undefined;
}
