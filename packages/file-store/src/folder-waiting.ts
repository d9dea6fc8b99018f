/**
 * How a watch waits for a folder it cannot watch yet (the folder is missing, or no watch is left):
 * a watch of a parent for the folder's name, or a poll. The folder's watch (folder-watch.ts) and
 * an inbox's (messages/inbox-watch.ts) both wait so, and stop both ways at once when the folder is
 * watched or nobody listens.
 */
import type { FSWatcher } from 'node:fs';

/** The parent's watch and the poll of one folder waited for; either, both or neither may run. */
export class FolderWaiting {
  /** The watch of a parent, until the folder exists. */
  parent: FSWatcher | undefined;
  /** The poll, while no parent can be watched either (or the folder cannot be). */
  poll: NodeJS.Timeout | undefined;

  /** Closes the parent's watch (the poll, if any, goes on). */
  closeParent(): void {
    this.parent?.close();
    this.parent = undefined;
  }

  /** Stops the poll (the parent's watch, if any, goes on). */
  stopPolling(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
  }

  /** Stops waiting: the parent's watch closed, the poll stopped. */
  stop(): void {
    this.closeParent();
    this.stopPolling();
  }
}
