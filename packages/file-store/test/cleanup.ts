// What the tests of this package make: temporary folders and open list folders, all gone after
// each test (registered with vitest's afterEach when imported).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { TaskFolder } from '../src/index.js';

const made: string[] = [];
const opened: TaskFolder[] = [];
afterEach(() => {
  for (const folder of opened.splice(0)) folder.close();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new empty temporary folder, removed after the test. */
export function tempDir(prefix = 'raider-file-store-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** `folder`, closed after the test. */
export function closedAfter(folder: TaskFolder): TaskFolder {
  opened.push(folder);
  return folder;
}
