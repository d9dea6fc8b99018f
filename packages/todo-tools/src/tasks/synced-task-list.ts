/**
 * The task list of one TaskTools object, kept in step with its store: calls that change it run
 * one at a time and, with a store, each inside one transaction of the store, on top of what
 * changed elsewhere (its change feed); a call the store refuses is undone in memory. After every
 * change the observers are told (`onUpdate` the whole list, `onChange` only what changed), and a
 * lease that runs out is released at its deadline, so a board hears of it then.
 */
import { type Answer, storeProblem } from '../answer.js';
import { InvalidListError } from '../errors.js';
import { serial } from '../serial.js';
import { isSnapshot, type TaskCatchUp, type TaskStore } from '../store/task-store.js';
import type { TaskItem, TaskListChange } from '../types.js';
import { toItem } from './stored-task.js';
import { type Changed, mergeChanged, partialChange } from './task-changes.js';
import { asSeen, expireLeases, leaseLapsed, nextLapse } from './task-claims.js';
import { TaskList } from './task-list.js';
import { validTaskItems, validTaskRecords } from './task-validation.js';

/** What a SyncedTaskList is built from (TaskCalls hands its options on). */
export interface SyncedTaskListOptions {
  /** Where the list lives by record; without one it lives in memory only. */
  store: TaskStore | undefined;
  /** Told the whole list after every change (TaskToolsOptions' `onUpdate`). */
  onUpdate: ((list: TaskItem[]) => void) | undefined;
  /** Told only what changed (TaskToolsOptions' `onChange`). */
  onChange: ((change: TaskListChange) => void) | undefined;
  /** The clock leases are measured with (ms since the epoch). */
  now: () => number;
  /** How deep metadata may nest in a list taken over whole (a restore, a stored list). */
  maxMetadataDepth: number;
}

/** One task list in memory, in step with its store (see the module's comment). */
export class SyncedTaskList {
  /** The list in memory; change it only inside `mutate`. */
  readonly list = new TaskList();
  /** Runs mutating calls (and reads of a store) one after another. */
  private readonly exclusive = serial();
  /** Bumped by clear and restore, so a call waiting on a hook sees the list was replaced. */
  private replacements = 0;
  /**
   * With a store: the sequence of the store's change feed the list in memory reflects; -1 when
   * the list must be loaded whole (before the first call, after clear, restore or a failure).
   */
  private seq = -1;
  /** Wakes this object when the first lease of the list ends (so observers hear of the lapse at its deadline). */
  private lapseTimer: { at: number; timer: NodeJS.Timeout } | undefined;

  constructor(private readonly options: SyncedTaskListOptions) {}

  /** How many times the list was cleared or replaced: a call compares it before and after a hook. */
  get generation(): number {
    return this.replacements;
  }

  /** The list in `onUpdate`'s shape, in id order (a task whose lease ran out shown pending and unowned). */
  items(): TaskItem[] {
    const now = this.options.now();
    return Array.from(this.list.ordered(), (task) => toItem(asSeen(task, now)));
  }

  /** Empties the list in memory; ids go on counting; the next call reads the store whole. */
  clear(): void {
    this.list.clear();
    this.replacements += 1;
    this.seq = -1;
  }

  /** Takes over a list in `onUpdate`'s shape. @throws InvalidListError (a TypeError) naming what is wrong; nothing changes then. */
  restore(items: readonly TaskItem[]): void {
    this.list.restore(validTaskItems('restoreTasks', items, this.options.maxMetadataDepth));
    this.replacements += 1;
    this.seq = -1;
  }

  /**
   * With a store: applies what changed elsewhere since the last call (the store's change feed)
   * and tells the observers when anything did. Resolves to whether anything changed; rejects when
   * the store cannot be read (the list in memory is then loaded whole at the next call).
   */
  sync(): Promise<boolean> {
    const store = this.options.store;
    if (!store) return Promise.resolve(false);
    return this.exclusive(async () => {
      const changed = await this.catchUp(store);
      this.notify(changed);
      return (await this.releaseLapsed()) || changed !== undefined;
    });
  }

  /**
   * Runs a call that may change the list: one at a time and, with a store, inside one
   * transaction of the store: what changed elsewhere is applied first, then the call, and what it
   * wrote is committed on top of the latest sequence. The observers hear of a change only once it
   * is saved. When the store fails, the call is undone and the list is loaded whole at the next call.
   */
  mutate(call: () => Promise<Answer>): Promise<Answer> {
    return this.exclusive(() => this.mutateNow(call));
  }

  /** Runs a read, after applying what changed in the store since the last call. */
  read(call: () => Answer): Promise<Answer> {
    const store = this.options.store;
    if (!store) return Promise.resolve(call());
    return this.exclusive(async () => {
      let changed: Changed;
      try {
        changed = await this.catchUp(store);
      } catch (error) {
        return storeProblem('task', error);
      }
      this.notify(changed);
      await this.releaseLapsed();
      return call();
    });
  }

  /**
   * Applies a store's catch-up (a delta, or the whole list) to the list in memory. Returns what
   * changed: the ids (`true`: the whole list was read), or undefined for nothing.
   */
  private apply(catchUp: TaskCatchUp): Changed {
    const maxDepth = this.options.maxMetadataDepth;
    if (isSnapshot(catchUp)) {
      if (!Number.isSafeInteger(catchUp.highWaterMark) || catchUp.highWaterMark < 0) {
        throw new InvalidListError(
          `the stored high-water mark is not a whole number: ${JSON.stringify(catchUp.highWaterMark)}`,
        );
      }
      this.list.load(validTaskRecords(catchUp.tasks, maxDepth), catchUp.highWaterMark);
      this.seq = catchUp.seq;
      return true;
    }
    this.list.merge(validTaskRecords(catchUp.put, maxDepth), catchUp.removed, catchUp.highWaterMark);
    this.seq = catchUp.seq;
    const ids = [...catchUp.put.map((record) => record.id), ...catchUp.removed];
    return ids.length ? new Set(ids) : undefined;
  }

  /** Tells the observers what changed: onUpdate the whole list (its contract), onChange only the tasks that changed. */
  private notify(changed: Changed): void {
    if (changed === undefined) return;
    this.armLapse();
    this.options.onUpdate?.(this.items());
    const onChange = this.options.onChange;
    if (!onChange) return;
    if (changed === true) onChange({ put: this.items(), removed: [], whole: true });
    else onChange(partialChange(this.list, changed, this.options.now()));
  }

  /** Brings the list in memory up to the store's latest sequence; returns what changed. */
  private async catchUp(store: TaskStore): Promise<Changed> {
    try {
      const delta = this.seq < 0 ? undefined : await store.changesSince(this.seq);
      return this.apply(delta ?? (await store.load()));
    } catch (error) {
      this.seq = -1;
      throw error;
    }
  }

  /** What `mutate` does, for a caller already running exclusively. */
  private async mutateNow(call: () => Promise<Answer>): Promise<Answer> {
    const store = this.options.store;
    let answer: Answer;
    let changed: Changed;
    // Runs the call recording what it touched; true when it (or a lapsed lease) changed the list.
    const run = async (undoable: boolean) => {
      this.list.track(undoable);
      const lapsed = expireLeases(this.list, this.options.now()).length > 0;
      const result = await call();
      return { result, wrote: result.changed === true || lapsed };
    };
    try {
      if (!store) {
        const { result, wrote } = await run(false);
        answer = result;
        if (wrote) changed = mergeChanged(undefined, this.list.trackedIds());
      } else {
        const committed = await store.transact(this.seq, async (catchUp) => {
          changed = this.apply(catchUp);
          const { result, wrote } = await run(true);
          if (!wrote) return { result };
          const write = this.list.trackedWrite();
          changed = mergeChanged(changed, { put: write.put.map((record) => record.id), removed: write.removed });
          return { write, result };
        });
        answer = committed.result;
        this.seq = committed.seq;
      }
      this.list.settle();
    } catch (error) {
      // What the call changed is undone; the next call loads the stored list whole.
      this.list.rollback();
      this.seq = -1;
      return storeProblem('task', error);
    }
    this.notify(changed);
    return answer;
  }

  /**
   * Writes the release of every lease that has run out (a transaction with no call of its own:
   * `mutateNow` lets lapsed leases go first), so the store and every observer see it. Resolves to
   * whether one was released. For a caller running exclusively.
   */
  private async releaseLapsed(): Promise<boolean> {
    const now = this.options.now();
    let lapsed = false;
    for (const id of this.list.leased) {
      const task = this.list.get(id);
      if (task && leaseLapsed(task, now)) lapsed = true;
    }
    if (!lapsed) return false;
    // A store that cannot be written now is no harm: every reader sees the lapse anyway, and the
    // next change (or the next wake-up) writes it.
    const answer = await this.mutateNow(async () => ({ text: '', isError: false }));
    return !answer.isError;
  }

  /**
   * Wakes this object when the first lease of the list ends, to release it (and tell the
   * observers: a board redraws at the deadline, not at the next change). One timer per object,
   * unref'd, holding the object only weakly (a conversation that ended is not kept by it).
   */
  private armLapse(minimumMs = 0): void {
    const at = nextLapse(this.list);
    if (this.lapseTimer && this.lapseTimer.at === at) return;
    this.clearLapseTimer();
    if (at === undefined) return;
    const self = new WeakRef(this);
    // A lease already run out (its release could not be written) waits `minimumMs`.
    const due = at - this.options.now();
    const delay = Math.min((due > 0 ? due : minimumMs) + 5, 2 ** 31 - 1);
    const timer = setTimeout(() => void self.deref()?.lapseDue(), delay);
    timer.unref();
    this.lapseTimer = { at, timer };
  }

  /** Stops the lapse timer, if one is set. */
  private clearLapseTimer(): void {
    if (this.lapseTimer) clearTimeout(this.lapseTimer.timer);
    this.lapseTimer = undefined;
  }

  /** The timer's call: catches up (with a store), releases what lapsed, and sets the timer for the next lease. */
  private lapseDue(): Promise<void> {
    return this.exclusive(async () => {
      this.lapseTimer = undefined;
      const store = this.options.store;
      try {
        if (store) this.notify(await this.catchUp(store));
        await this.releaseLapsed();
      } catch {
        // The store cannot be read now: readers still see the lapse; the next call catches up.
      }
      // A lapse still due here could not be written (the store is down): tried again in a second,
      // not in a loop (the catch-up above may have set a timer for it already: replaced).
      this.clearLapseTimer();
      this.armLapse(1000);
    });
  }
}
