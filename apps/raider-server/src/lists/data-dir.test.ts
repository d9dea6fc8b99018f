// The data dir at start: made when missing, refused in one line when it cannot hold the lists.
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDirProblem } from './data-dir.js';

describe('the data dir at start', () => {
  const root = mkdtempSync(join(tmpdir(), 'raider-data-dir-'));
  const file = join(root, 'a-file');
  writeFileSync(file, 'not a folder');

  it('is made with its missing parents, and then is fine', () => {
    const dir = join(root, 'new', 'lists');
    expect(dataDirProblem(dir, '--data-dir')).toBeUndefined();
    expect(statSync(dir).isDirectory()).toBe(true);
    expect(dataDirProblem(dir, '--data-dir')).toBeUndefined();
  });

  it('a file where the folder should be, or as one of its parents, is named', () => {
    expect(dataDirProblem(file, '--data-dir')).toBe(
      `--data-dir ${file}: is a file, not a folder (expected a folder for the lists, made when missing)`,
    );
    expect(dataDirProblem(join(file, 'lists'), "Claude Code's task folder")).toBe(
      `Claude Code's task folder ${join(file, 'lists')}: ${file} is a file, not a folder, so ${join(file, 'lists')} cannot be made`,
    );
    // Nothing was written in its place.
    expect(statSync(file).isFile()).toBe(true);
  });
});
