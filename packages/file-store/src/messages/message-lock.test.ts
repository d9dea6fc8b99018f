import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/cleanup.js';
import { isLockLost } from '../list-lock.js';
import { MessageLock } from './message-lock.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A `.messages` folder whose `.lock` is the file of a holder that died, untouched for `ageMs`. */
function heldElsewhere(ageMs: number): string {
  const root = join(tempDir(), '.messages');
  mkdirSync(root, { recursive: true });
  // No process has pid 2^22 + 1 (above Linux's pid_max default).
  const holder = join(root, `.holder.${2 ** 22 + 1}.1.tmp`);
  writeFileSync(holder, '');
  const then = (Date.now() - ageMs) / 1000;
  utimesSync(holder, then, then);
  linkSync(holder, join(root, '.lock'));
  return root;
}

describe('MessageLock', () => {
  it('is a link of the holder’s own file as .lock while held, gone once released; the holder’s file stays until close', async () => {
    const root = join(tempDir(), '.messages');
    mkdirSync(root);
    const lock = new MessageLock(root, 2000);
    const held = await lock.take();
    const [own] = readdirSync(root).filter((name) => name.startsWith('.holder.'));
    expect(own).toMatch(new RegExp(`^\\.holder\\.${process.pid}\\.\\d+\\.tmp$`));
    expect(lstatSync(join(root, '.lock')).ino).toBe(lstatSync(join(root, own as string)).ino);
    await held.check();
    await held.release();
    expect(existsSync(join(root, '.lock'))).toBe(false);
    lock.close();
    expect(readdirSync(root)).toEqual([]);
  });

  it('a lock a killed process left goes stale and is taken over (its holder file removed); a live one is waited for', async () => {
    const root = heldElsewhere(60_000);
    const lock = new MessageLock(root, 2000);
    const held = await lock.take();
    await held.check();
    expect(readdirSync(root).filter((name) => name.includes(`${2 ** 22 + 1}`))).toEqual([]);
    await held.release();
    // Held by someone alive (a fresh mtime): the take waits until it is released.
    const other = join(root, '.holder.other');
    writeFileSync(other, '');
    linkSync(other, join(root, '.lock'));
    let taken = false;
    const waiting = lock.take().then((lockHeld) => {
      taken = true;
      return lockHeld;
    });
    await sleep(300);
    expect(taken).toBe(false);
    unlinkSync(join(root, '.lock'));
    await (await waiting).release();
    expect(taken).toBe(true);
    lock.close();
  });

  it('the fence: once another holder has .lock, check() throws a lock-lost error and release() leaves its lock alone', async () => {
    const root = join(tempDir(), '.messages');
    mkdirSync(root);
    const lock = new MessageLock(root, 2000);
    const held = await lock.take();
    unlinkSync(join(root, '.lock'));
    const other = join(root, '.holder.other');
    writeFileSync(other, '');
    linkSync(other, join(root, '.lock'));
    let error: unknown;
    try {
      await held.check();
    } catch (thrown) {
      error = thrown;
    }
    expect(isLockLost(error)).toBe(true);
    expect(String(error)).toMatch(
      /the message lock was lost while the change was being made \(another process holds it now/,
    );
    await held.release();
    expect(lstatSync(join(root, '.lock')).ino).toBe(lstatSync(other).ino);
    unlinkSync(join(root, '.lock'));
    await expect(held.check()).rejects.toThrow(/it was removed/);
    lock.close();
  });
});
