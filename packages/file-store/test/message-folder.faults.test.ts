// The message store under faults: a send that cannot be made durable is refused and leaves nothing
// a take can see; an acknowledged send is never lost; a take or a done that fails gives the
// messages back (at once, or once the lease ends).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageStore } from '@raider/tasks-registry';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openTaskFolder, type TaskFolder } from '../src/index.js';

// Every fs function passes through to the real one unless a test makes it fail.
vi.mock('node:fs', async (importOriginal) =>
  (await import('./spied-fs.js')).spiedFs(await importOriginal(), [
    'openSync',
    'writeSync',
    'fsyncSync',
    'renameSync',
    'linkSync',
    'unlinkSync',
  ]),
);

type FsFunction = (...args: unknown[]) => unknown;
const mocked = [
  fs.openSync,
  fs.writeSync,
  fs.fsyncSync,
  fs.renameSync,
  fs.linkSync,
  fs.unlinkSync,
] as unknown as FsFunction[];
const real = new Map(mocked.map((fn) => [fn, vi.mocked(fn).getMockImplementation() as FsFunction]));
/** Every mocked function back to the real one. */
const heal = () => {
  for (const fn of mocked) vi.mocked(fn).mockImplementation(real.get(fn) as FsFunction);
};
const opened: TaskFolder[] = [];
afterEach(() => {
  heal();
  for (const folder of opened.splice(0)) folder.close();
});

const fresh = () => join(fs.mkdtempSync(join(tmpdir(), 'raider-messages-faults-')), 'list');
const storeOn = (path: string): MessageStore => {
  const folder = openTaskFolder(path, { staleMs: 2000 });
  opened.push(folder);
  return folder.messages;
};
const plain = (text: string, to = 'bob') => ({ to, text, notification: false });
const failure = (code: string) => () => {
  throw Object.assign(new Error(`${code}: injected`), { code });
};
/** Makes the calls of `fn` that `when` picks (by their arguments) fail with `code`; the others are real. */
function failWhen(fn: unknown, code: string, when: (...args: unknown[]) => boolean): void {
  const passThrough = real.get(fn as FsFunction) as FsFunction;
  vi.mocked(fn as FsFunction).mockImplementation((...args: unknown[]) =>
    when(...args) ? failure(code)() : passThrough(...args),
  );
}
/** Fails the `nth` call (from 1) of `fn` from now on with `code`. */
function failNth(fn: unknown, nth: number, code: string): void {
  let calls = 0;
  failWhen(fn, code, () => {
    calls += 1;
    return calls === nth;
  });
}
/** Every file of the inbox of `to` (the lock and the temporary files left out: there must be none of these). */
const inboxFiles = (path: string, to = 'bob') => fs.readdirSync(join(path, '.messages', to)).sort();

describe('a send that cannot be made durable', () => {
  it.each([
    ['the message cannot be written (ENOSPC)', () => failNth(fs.writeSync, 1, 'ENOSPC')],
    ['the id cannot be recorded (EIO)', () => failNth(fs.writeSync, 2, 'EIO')],
    [
      'the temporary file cannot be created (EROFS)',
      () => failWhen(fs.openSync, 'EROFS', (path) => String(path).endsWith('.tmp')),
    ],
    ["the message's fsync fails (EIO)", () => failNth(fs.fsyncSync, 1, 'EIO')],
    ['the link fails (EXDEV)', () => failWhen(fs.linkSync, 'EXDEV', (_from, to) => String(to).endsWith('.sending'))],
    // Linked in already: it is removed again before the answer (no take can have seen it: the lock).
    ["the inbox folder's fsync fails after the link (EIO)", () => failNth(fs.fsyncSync, 2, 'EIO')],
  ])('%s: refused, nothing a take can see, no temporary file; the next send goes through', async (_what, inject) => {
    const path = fresh();
    const store = storeOn(path);
    const kept = await store.send(plain('kept'));
    const before = inboxFiles(path);
    inject();
    await expect(store.send(plain('refused'))).rejects.toThrow(/: (EIO|ENOSPC|EROFS|EXDEV).*; nothing was sent$/);
    heal();
    expect(inboxFiles(path)).toEqual(before);
    expect(await storeOn(path).peek('bob')).toEqual([kept]);
    const next = await store.send(plain('next'));
    const delivery = await storeOn(path).take('bob');
    expect(delivery.messages).toEqual([kept, next]);
  });

  it('a first send into a new inbox whose parent cannot be synced is refused too', async () => {
    const path = fresh();
    const store = storeOn(path);
    // The message's fsync, the inbox's, then `.messages`' (the new inbox's own entry).
    failNth(fs.fsyncSync, 3, 'EIO');
    await expect(store.send(plain('refused'))).rejects.toThrow(/EIO; nothing was sent$/);
    expect(inboxFiles(path)).toEqual([]);
    heal();
    const sent = await store.send(plain('sent'));
    expect(await storeOn(path).peek('bob')).toEqual([sent]);
  });
});

describe('the message lock under faults', () => {
  it('taken over before the message is linked in: the send is refused, nothing sent; the new holder keeps its lock', async () => {
    const path = fresh();
    const store = storeOn(path);
    const kept = await store.send(plain('kept'));
    const root = join(path, '.messages');
    // While the id is handed out, another process takes the lock over (as it would once it found it stale).
    failWhen(fs.openSync, 'NONE', (file) => {
      if (!String(file).endsWith('.last-id')) return false;
      fs.unlinkSync(join(root, '.lock'));
      fs.writeFileSync(join(root, '.holder.other'), '');
      fs.linkSync(join(root, '.holder.other'), join(root, '.lock'));
      heal();
      return false;
    });
    await expect(store.send(plain('refused'))).rejects.toThrow(
      /the message lock was lost while the change was being made \(another process holds it now: .*\); nothing was sent$/,
    );
    expect(inboxFiles(path)).toEqual([`${kept.id}.json`]);
    expect(fs.lstatSync(join(root, '.lock')).ino).toBe(fs.lstatSync(join(root, '.holder.other')).ino);
    fs.unlinkSync(join(root, '.lock'));
    const next = await store.send(plain('next'));
    expect((await storeOn(path).take('bob')).messages).toEqual([kept, next]);
  });

  it('a file system without hard links: the lock is a lock folder, and messages are renamed in', async () => {
    const path = fresh();
    failWhen(fs.linkSync, 'EPERM', () => true);
    const store = storeOn(path);
    const sent = [await store.send(plain('one')), await store.send(plain('two'))];
    expect(fs.existsSync(join(path, '.messages', '.lock'))).toBe(false);
    const delivery = await storeOn(path).take('bob');
    expect(delivery.messages).toEqual(sent);
    await delivery.done();
    expect(inboxFiles(path)).toEqual([]);
  });
});

describe('a send stopped once its message is durable', () => {
  it('the rename that shows it fails: the send is acknowledged, and the next call shows the message, in its place', async () => {
    const path = fresh();
    const problems: string[] = [];
    const folder = openTaskFolder(path, { onProblem: (problem) => problems.push(problem) });
    opened.push(folder);
    const first = await folder.messages.send(plain('first'));
    failWhen(fs.renameSync, 'EIO', (from) => String(from).endsWith('.sending'));
    const second = await folder.messages.send(plain('second'));
    heal();
    expect(problems).toEqual([
      expect.stringMatching(/\.json\.sending: EIO; the message was sent, and is shown at the next call$/),
    ]);
    expect(inboxFiles(path)).toEqual([`${first.id}.json`, `${second.id}.json.sending`]);
    const third = await folder.messages.send(plain('third'));
    expect((await storeOn(path).take('bob')).messages).toEqual([first, second, third]);
  });
});

describe('a take or a done that fails', () => {
  it('a lease that cannot be recorded half way: the take is refused and what it renamed is given back', async () => {
    const path = fresh();
    const store = storeOn(path);
    const sent = [await store.send(plain('one')), await store.send(plain('two'))];
    let leases = 0;
    failWhen(fs.renameSync, 'EROFS', (_from, to) => String(to).endsWith('.lease') && ++leases === 2);
    await expect(store.take('bob')).rejects.toThrow(/EROFS; nothing was taken$/);
    expect(await storeOn(path).peek('bob')).toEqual(sent);
    heal();
    expect((await storeOn(path).take('bob')).messages).toEqual(sent);
  });

  it('a done that cannot remove its files rejects; the messages are taken again once the lease ends', async () => {
    const path = fresh();
    const store = storeOn(path);
    const sent = await store.send(plain('one'));
    const delivery = await store.take('bob', { leaseMs: 300 });
    failWhen(fs.unlinkSync, 'EIO', (file) => String(file).endsWith('.lease'));
    await expect(delivery.done()).rejects.toThrow(
      /1 of the 1 messages taken could not be removed \(EIO\); they are taken again once the lease ends$/,
    );
    heal();
    await expect.poll(async () => (await storeOn(path).peek('bob')).length, { timeout: 20_000 }).toBe(1);
    const again = await storeOn(path).take('bob');
    expect(again.messages).toEqual([sent]);
    // The first taker's done, tried again, leaves what the second holds now alone.
    await delivery.done();
    expect(inboxFiles(path)).toHaveLength(1);
    await again.done();
    expect(inboxFiles(path)).toEqual([]);
  });
});

let mounted: string | undefined;
const root = process.getuid?.() === 0;
afterEach(() => {
  if (mounted) execFileSync('umount', [mounted]);
  mounted = undefined;
});

/** A small tmpfs at a new folder; its list folder's path. */
function smallDisk(size: string): string {
  const dir = fs.mkdtempSync(join(tmpdir(), 'raider-messages-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  mounted = dir;
  return join(dir, 'list');
}

// A real full or read-only file system needs a mount: the tests run as root in CI (and on the project's machines).
describe.runIf(root)('a real full disk, a real read-only file system (a small tmpfs)', () => {
  it('full: every acknowledged send is taken, in order; refused ones never; room again, sends go on', async () => {
    const path = smallDisk('256k');
    const store = storeOn(path);
    const acknowledged: string[] = [];
    const refused: string[] = [];
    for (let index = 0; index < 400 && refused.length < 5; index += 1) {
      const text = `message ${index} ${'x'.repeat(3000)}`;
      try {
        acknowledged.push((await store.send(plain(text))).text);
      } catch (error) {
        expect(String(error)).toMatch(/ENOSPC; nothing was sent$/);
        refused.push(text);
      }
    }
    expect(refused).toHaveLength(5);
    expect(acknowledged.length).toBeGreaterThan(5);
    expect(inboxFiles(path).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const delivery = await storeOn(path).take('bob');
    expect(delivery.messages.map((message) => message.text)).toEqual(acknowledged);
    await delivery.done();
    const after = await store.send(plain('room again'));
    expect(await storeOn(path).peek('bob')).toEqual([after]);
  }, 60_000);

  it('read-only: a send is refused (EROFS); once writable again, every acknowledged message is there', async () => {
    const path = smallDisk('1m');
    const store = storeOn(path);
    const sent = [await store.send(plain('one')), await store.send(plain('two'))];
    execFileSync('mount', ['-o', 'remount,ro', mounted as string]);
    await expect(store.send(plain('refused'))).rejects.toThrow(/EROFS.*; nothing was sent$/);
    await expect(store.take('bob')).rejects.toThrow(/EROFS/);
    execFileSync('mount', ['-o', 'remount,rw', mounted as string]);
    const delivery = await storeOn(path).take('bob');
    expect(delivery.messages).toEqual(sent);
    await delivery.done();
  }, 60_000);
});
