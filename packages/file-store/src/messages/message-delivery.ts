/**
 * What a take hands back (a MessageDelivery): the messages it reserved, `done`, which removes
 * their files, and `release`, which renames them back to waiting. A lease that ends first settles
 * nothing: its messages are taken again, at least once.
 */
import { join } from 'node:path';
import type { MessageDelivery, StoredMessage } from '@raider/tasks-registry';
import { disk } from '../disk.js';
import { codeOf, syncFolder } from '../durable-write.js';
import { ListFileError } from '../errors.js';
import { oneAtATime } from '../one-at-a-time.js';
import { waitingName } from './message-file.js';

/** A message a take reserved: the message, and its file's name while the lease is this take's. */
export interface Taken {
  readonly message: StoredMessage;
  readonly file: string;
}

/** What a delivery needs of its message store. */
export interface DeliveryHooks {
  /** Runs `fn` holding the message lock; rejects with a ListFileError ending in `outcome` when it cannot be had. */
  locked<T>(outcome: string, fn: () => Promise<T>): Promise<T>;
  /** Wakes the inbox's watchers (the messages released are waiting again). */
  wake(): void;
  /** Told of a removal that may not survive a crash. */
  report(message: string): void;
}

/**
 * Renames reserved messages of `inbox` back to waiting (a take that failed half way, a release).
 * One gone (done, or taken again after the lease) is passed by. @throws the file system's error
 * for one that cannot be renamed (it is back once the lease ends).
 */
export async function giveBack(inbox: string, taken: readonly Taken[]): Promise<void> {
  for (const { message, file } of taken) {
    try {
      await disk.rename(join(inbox, file), join(inbox, waitingName(Number(message.id))));
    } catch (error) {
      // Gone (done), or taken again after the lease; or it cannot be renamed: back once the lease ends.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * The delivery of the messages `taken` from `inbox`: settled once by `done` or `release` (a second
 * call, even one made before the first ended, does nothing; a delivery of no message is settled
 * already).
 * `done` rejects with a ListFileError when a file cannot be removed (that message is taken again
 * once the lease ends); `release` rejects when the lock cannot be had or a file cannot be renamed.
 */
export function deliveryOf(inbox: string, taken: readonly Taken[], hooks: DeliveryHooks): MessageDelivery {
  let settled = taken.length === 0;
  // One settling at a time: a call waits for the one before it, then finds the delivery settled.
  const inTurn = oneAtATime();
  return {
    messages: Object.freeze(taken.map(({ message }) => message)),
    done: () =>
      inTurn(async () => {
        if (settled) return;
        const failures: string[] = [];
        for (const { file } of taken) {
          try {
            await disk.unlink(join(inbox, file));
          } catch (error) {
            // Gone: done before, or taken again by another take after the lease (its message now).
            if ((error as NodeJS.ErrnoException).code !== 'ENOENT') failures.push(codeOf(error));
          }
        }
        if (failures.length) {
          throw new ListFileError(
            `${inbox}: ${failures.length} of the ${taken.length} messages taken could not be removed (${failures[0]}); they are taken again once the lease ends`,
          );
        }
        settled = true;
        try {
          await syncFolder(inbox);
        } catch (error) {
          hooks.report(
            `${inbox}: the removal of ${taken.length} messages done may not survive a crash (${codeOf(error)}): they may be taken again`,
          );
        }
      }),
    release: () =>
      inTurn(async () => {
        if (settled) return;
        await hooks.locked('the messages are given back once the lease ends', () => giveBack(inbox, taken));
        settled = true;
        hooks.wake();
      }),
  };
}
