/** The list a project gets by default over stdio with a data dir: one per project folder. */
import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';

/** The default list of a project: its folder's name and a hash of its path (`my-app-1a2b3c4d`). */
export function projectListId(projectDir: string): string {
  const abs = resolve(projectDir);
  const name = basename(abs).replace(/[^A-Za-z0-9_-]/g, '_') || 'root';
  return `${name}-${createHash('sha256').update(abs).digest('hex').slice(0, 8)}`;
}

/**
 * The server's default list: the project's (`CLAUDE_PROJECT_DIR`, else the working directory),
 * the one a 2026-era request that names none works on, and stdio's with a data dir.
 */
export function defaultListId(env: NodeJS.ProcessEnv = process.env): string {
  return projectListId(env.CLAUDE_PROJECT_DIR ?? process.cwd());
}
