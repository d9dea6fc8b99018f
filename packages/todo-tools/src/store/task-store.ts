/**
 * Where a task list lives between calls, kept by record: each task is one record, and every
 * committed change gets the next sequence number of its list (the change feed). A holder keeps the
 * list in memory and, before each call, applies only what changed since the sequence it last saw;
 * a write commits only on top of the latest sequence. So no call reads or writes the whole list,
 * and two holders (or processes) never lose each other's change.
 */
import type { TaskStatus } from '../types.js';

/**
 * A claim with a lease (task_claim): the owner it named, who holds the lease, and when it lapses
 * unless that holder touches the task again (ms since the epoch).
 */
export interface TaskClaim {
  owner: string;
  /**
   * The session, or the agent the host authenticated, that holds the lease: the claiming
   * TaskTools' session id for a call without a caller, else the caller's name (ToolCallContext's
   * `caller`, which is then also `owner`), so every session of that agent renews it.
   */
  session: string;
  leaseSeconds: number;
  expiresAt: number;
}

/**
 * A task as Claude Code stores it (one `<id>.json` of its task folder), and, for a task claimed
 * with a lease, raider's `claim` (a key Claude Code's reader passes by).
 */
export interface TaskRecord {
  /** Decimal id, "1", "2", …; never reused. */
  id: string;
  subject: string;
  description: string;
  activeForm?: string;
  owner?: string;
  status: TaskStatus;
  /** Ids of the tasks that wait for this one. */
  blocks: string[];
  /** Ids of the tasks this one waits for. */
  blockedBy: string[];
  metadata?: Record<string, unknown>;
  /** The lease of a claim made with `leaseSeconds`. */
  claim?: TaskClaim;
}

/** The whole list as a store holds it. */
export interface TaskListSnapshot {
  tasks: TaskRecord[];
  /** The highest id ever handed out (0: none); a new id is above it and above every stored id. */
  highWaterMark: number;
  /** The sequence number of the last committed change (0: none). */
  seq: number;
}

/** What a call writes: the records it put (created or changed), the ids it removed, the high-water mark. */
export interface TaskWrite {
  put: TaskRecord[];
  removed: string[];
  highWaterMark: number;
}

/** What changed after a sequence: the records put as they are now, the ids removed, and the sequence reached. */
export interface TaskDelta extends TaskWrite {
  seq: number;
}

/** How a holder catches up: a delta when the feed reaches back to its sequence, else the whole list. */
export type TaskCatchUp = TaskDelta | TaskListSnapshot;

/** What a transaction's function returns: what to write (none: nothing changed) and its result. */
export interface TaskTransaction<R> {
  write?: TaskWrite;
  result: R;
}

/**
 * A task list's storage, by record, with a change feed. Every method rejects (with a message a
 * person can act on) when the storage cannot be used, and then nothing is written, with one
 * exception a store must say: when it cannot tell whether a write was committed (the connection
 * broke during COMMIT, a file was renamed in and could not be taken back), it rejects with an
 * error whose `mayHaveBeenSaved` property is `true`, and the tools answer that the change may
 * have been saved (never "nothing was changed", which a model would retry into a duplicate).
 *
 * - `load()`: the whole list and the sequence it is at (a holder's first call; a reload).
 * - `changesSince(seq)`: what changed after `seq` (an empty delta at the same `seq` when nothing
 *   did), or `undefined` when the feed no longer reaches back that far: then `load()`.
 * - `transact(seq, fn)`: with exclusive access to the list (across processes, for a shared store),
 *   calls `fn` with what changed after `seq` (or the whole list), then commits `fn`'s write at the
 *   next sequence; resolves with `fn`'s result and the sequence the caller is at now, once the
 *   write is durable. When `fn` throws, nothing is written.
 * - `watch(onChange)` (optional): calls `onChange` (any number of times, perhaps spuriously) after
 *   another holder may have committed; the feed is the truth, the call only a wake-up.
 */
export interface TaskStore {
  load(): Promise<TaskListSnapshot>;
  changesSince(seq: number): Promise<TaskDelta | undefined>;
  transact<R>(
    seq: number,
    fn: (catchUp: TaskCatchUp) => Promise<TaskTransaction<R>>,
  ): Promise<{ result: R; seq: number }>;
  watch?(onChange: () => void): () => void;
}

/**
 * The highest id a task list hands out: the largest integer a JavaScript number holds exactly.
 * Past it a create is refused (an id one higher could not be told from it); a store reports a
 * record or high-water mark beyond it instead of handing it in.
 */
export const MAX_TASK_ID = Number.MAX_SAFE_INTEGER;

/** True when `catchUp` is the whole list rather than a delta. */
export function isSnapshot(catchUp: TaskCatchUp): catchUp is TaskListSnapshot {
  return 'tasks' in catchUp;
}

/** How many changes a memory store remembers for `changesSince` (older holders reload). */
const MEMORY_FEED_LENGTH = 1000;

/** The state of a memory task store: its records, high-water mark and sequence, and its recent changes. */
class MemoryTaskList {
  private readonly records = new Map<string, TaskRecord>();
  private highWaterMark: number;
  /** The sequence of the last committed change. */
  seq: number;
  /** The feed: which ids each recent change touched, oldest first. */
  private readonly feed: { seq: number; ids: string[] }[] = [];

  constructor(initial: Partial<TaskListSnapshot> | undefined) {
    for (const task of initial?.tasks ?? []) this.records.set(task.id, structuredClone(task));
    this.highWaterMark = initial?.highWaterMark ?? 0;
    this.seq = initial?.seq ?? 0;
  }

  /** The whole list, copied, in id order. */
  snapshot(): TaskListSnapshot {
    const tasks = [...this.records.values()].sort((a, b) => Number(a.id) - Number(b.id));
    return { tasks: tasks.map((task) => structuredClone(task)), highWaterMark: this.highWaterMark, seq: this.seq };
  }

  /** What changed after `since`, copied; undefined when the feed no longer reaches back that far. */
  deltaSince(since: number): TaskDelta | undefined {
    const { seq, highWaterMark } = this;
    if (since === seq) return { seq, put: [], removed: [], highWaterMark };
    if (since > seq || since < seq - this.feed.length) return undefined;
    const ids = new Set<string>();
    for (const change of this.feed) if (change.seq > since) for (const id of change.ids) ids.add(id);
    const put: TaskRecord[] = [];
    const removed: string[] = [];
    for (const id of ids) {
      const record = this.records.get(id);
      if (record) put.push(structuredClone(record));
      else removed.push(id);
    }
    return { seq, put, removed, highWaterMark };
  }

  /** Commits `write` at the next sequence; false (and nothing written) when it changes nothing. */
  commit(write: TaskWrite): boolean {
    if (write.put.length === 0 && write.removed.length === 0 && write.highWaterMark <= this.highWaterMark) return false;
    for (const record of write.put) this.records.set(record.id, structuredClone(record));
    for (const id of write.removed) this.records.delete(id);
    this.highWaterMark = Math.max(this.highWaterMark, write.highWaterMark);
    this.seq += 1;
    this.feed.push({ seq: this.seq, ids: [...write.put.map((record) => record.id), ...write.removed] });
    if (this.feed.length > MEMORY_FEED_LENGTH) this.feed.shift();
    return true;
  }
}

/**
 * A task store in memory, shared by whoever holds it (several conversations of one process,
 * tests). Transactions run one at a time; records are copied in and out, so no holder shares
 * objects with another. It remembers the last 1 000 changes for `changesSince`.
 */
export function memoryTaskStore(initial?: Partial<TaskListSnapshot>): TaskStore {
  const list = new MemoryTaskList(initial);
  const listeners = new Set<() => void>();
  let tail: Promise<unknown> = Promise.resolve();
  return {
    async load() {
      return list.snapshot();
    },
    async changesSince(since) {
      return list.deltaSince(since);
    },
    transact<R>(since: number, fn: (catchUp: TaskCatchUp) => Promise<TaskTransaction<R>>) {
      const run = tail.then(async () => {
        const { write, result } = await fn(list.deltaSince(since) ?? list.snapshot());
        if (write && list.commit(write)) for (const listener of listeners) queueMicrotask(listener);
        return { result, seq: list.seq };
      });
      tail = run.catch(() => undefined);
      return run;
    },
    watch(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
}
