/**
 * The contract every TaskStore keeps, as a test suite any store runs against itself: the memory
 * store here, the file store, the PostgreSQL store. A new store is an adapter plus this suite.
 * The test functions are passed in (vitest's, or another runner's of the same shape), so the
 * package does not depend on a test runner.
 */

import { isSnapshot, type TaskCatchUp, type TaskRecord, type TaskStore, type TaskWrite } from '../store/task-store.js';
import { TaskToolsCore } from '../tasks/task-tools-core.js';

/** The test functions the suite registers its tests with (vitest's `describe`, `it`, `expect`). */
export interface ConformanceRunner {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void>, timeout?: number): void;
  // biome-ignore lint/suspicious/noExplicitAny: the runner's own expect, whatever its typing.
  expect: (actual: unknown) => any;
}

/**
 * Opens a fresh, empty list for one test: `handle()` returns a holder of that list (each call may
 * return a new one, as another process would hold it); `close` cleans up after the test.
 */
export type OpenTestList = () => Promise<{ handle: () => TaskStore; close?: () => Promise<void> }>;

/** A record with the given id and fields. */
function task(id: string, fields: Partial<TaskRecord> = {}): TaskRecord {
  return { id, subject: `Task ${id}`, description: '', status: 'pending', blocks: [], blockedBy: [], ...fields };
}

/** A write of `put` records (and `removed` ids) with the high-water mark above them. */
function write(put: TaskRecord[], removed: string[] = [], highWaterMark?: number): TaskWrite {
  const highest = Math.max(0, ...put.map((record) => Number(record.id)), ...removed.map(Number));
  return { put, removed, highWaterMark: highWaterMark ?? highest };
}

/** What a holder keeps in memory in these tests: records by id and the sequence reached. */
class Holder {
  readonly records = new Map<string, TaskRecord>();
  seq = -1;
  constructor(readonly store: TaskStore) {}
  apply(catchUp: TaskCatchUp): void {
    if (isSnapshot(catchUp)) {
      this.records.clear();
      for (const record of catchUp.tasks) this.records.set(record.id, record);
    } else {
      for (const id of catchUp.removed) this.records.delete(id);
      for (const record of catchUp.put) this.records.set(record.id, record);
    }
    this.seq = catchUp.seq;
  }
  /** Adds 1 to the counter in task 1's metadata, in one transaction. */
  async increment(): Promise<void> {
    const { seq } = await this.store.transact(this.seq, async (catchUp) => {
      this.apply(catchUp);
      const current = this.records.get('1') as TaskRecord;
      const next = { ...current, metadata: { count: Number(current.metadata?.count ?? 0) + 1 } };
      this.records.set('1', next);
      return { write: write([next]), result: undefined };
    });
    this.seq = seq;
  }
}

/** Runs a test body on a fresh list, cleaned up after. */
type WithList = (body: (handle: () => TaskStore) => Promise<void>) => () => Promise<void>;

/** Records and the change feed: what a write commits, what another holder sees. */
function recordsAndFeed({ it, expect }: ConformanceRunner, withList: WithList): void {
  it(
    'a new list is empty at sequence 0, and nothing changed since 0',
    withList(async (handle) => {
      const store = handle();
      expect(await store.load()).toEqual({ tasks: [], highWaterMark: 0, seq: 0 });
      expect(await store.changesSince(0)).toEqual({ seq: 0, put: [], removed: [], highWaterMark: 0 });
    }),
  );

  it(
    'a committed write gets the next sequence; load and the feed show its records exactly',
    withList(async (handle) => {
      const store = handle();
      const one = task('1', {
        activeForm: 'Doing 1',
        owner: 'alice',
        metadata: { deep: { list: [1, 'two', null] } },
      });
      const two = task('2', { subject: 'Zwei ✓ "quoted"', status: 'in_progress', blockedBy: ['1'] });
      const first = await store.transact(0, async (catchUp) => {
        expect(catchUp).toEqual({ seq: 0, put: [], removed: [], highWaterMark: 0 });
        return { write: write([{ ...one, blocks: ['2'] }, two]), result: 'done' };
      });
      expect(first).toEqual({ result: 'done', seq: 1 });
      const loaded = await store.load();
      expect(loaded.seq).toBe(1);
      expect(loaded.highWaterMark).toBe(2);
      expect(loaded.tasks).toEqual([{ ...one, blocks: ['2'] }, two]);
      expect(Object.keys(loaded.tasks[1] as object)).not.toContain('owner');
      const delta = await store.changesSince(0);
      expect(delta?.seq).toBe(1);
      expect(delta?.removed).toEqual([]);
      expect([...(delta?.put ?? [])].sort((a, b) => Number(a.id) - Number(b.id))).toEqual([
        { ...one, blocks: ['2'] },
        two,
      ]);
      expect(await store.changesSince(1)).toEqual({ seq: 1, put: [], removed: [], highWaterMark: 2 });
    }),
  );
}

/** Transactions: what a record keeps, a transaction that writes nothing or throws, and another holder's change. */
function transactions({ it, expect }: ConformanceRunner, withList: WithList): void {
  it(
    'every metadata key is kept through the store, "__proto__" included',
    withList(async (handle) => {
      const tools = new TaskToolsCore({ store: handle() });
      const args = JSON.parse('{"subject":"A","description":"","metadata":{"__proto__":{"x":1},"k":2}}');
      expect((await tools.createTask(args)).text).toBe('Task #1 created successfully: A');
      const [stored] = (await handle().load()).tasks;
      expect(JSON.stringify(stored?.metadata)).toBe('{"__proto__":{"x":1},"k":2}');
      const reader = new TaskToolsCore({ store: handle() });
      await reader.syncTasks();
      expect(JSON.stringify(reader.tasks()[0]?.metadata)).toBe('{"__proto__":{"x":1},"k":2}');
    }),
  );

  it(
    'a transaction that writes nothing keeps the sequence; one whose function throws writes nothing',
    withList(async (handle) => {
      const store = handle();
      await store.transact(0, async () => ({ write: write([task('1')]), result: undefined }));
      expect(await store.transact(1, async () => ({ result: 7 }))).toEqual({ result: 7, seq: 1 });
      const failure = store.transact(1, async () => {
        throw new Error('the hook said no');
      });
      await expect(failure).rejects.toThrow('the hook said no');
      expect(await store.load()).toEqual({ tasks: [task('1')], highWaterMark: 1, seq: 1 });
    }),
  );

  it(
    "another holder's change reaches this one through the feed and through the transaction's catch-up",
    withList(async (handle) => {
      const a = handle();
      const b = handle();
      await a.transact(0, async () => ({ write: write([task('1'), task('2'), task('3')]), result: undefined }));
      await b.transact(1, async () => ({
        write: write([task('1', { status: 'completed' })], ['3'], 3),
        result: undefined,
      }));
      const delta = await a.changesSince(1);
      expect(delta).toEqual({ seq: 2, put: [task('1', { status: 'completed' })], removed: ['3'], highWaterMark: 3 });
      let seen: TaskCatchUp | undefined;
      const { seq } = await a.transact(1, async (catchUp) => {
        seen = catchUp;
        return { write: write([task('4')]), result: undefined };
      });
      expect(seq).toBe(3);
      expect(seen).toEqual(delta);
      const loaded = await b.load();
      expect(loaded.tasks.map((record) => record.id)).toEqual(['1', '2', '4']);
      expect(loaded.highWaterMark).toBe(4);
    }),
  );
}

/** The high-water mark, a whole-list catch-up, and concurrent holders. */
function marksAndConcurrency({ it, expect }: ConformanceRunner, withList: WithList): void {
  it(
    'the high-water mark never goes down, and a removed id stays counted',
    withList(async (handle) => {
      const store = handle();
      await store.transact(0, async () => ({ write: write([task('1'), task('5')]), result: undefined }));
      await store.transact(1, async () => ({ write: write([], ['5'], 5), result: undefined }));
      await store.transact(2, async () => ({
        write: write([task('1', { owner: 'bob' })], [], 1),
        result: undefined,
      }));
      const loaded = await store.load();
      expect(loaded.highWaterMark).toBe(5);
      expect(loaded.tasks).toEqual([task('1', { owner: 'bob' })]);
    }),
  );

  it(
    'a negative sequence asks for the whole list',
    withList(async (handle) => {
      const store = handle();
      await store.transact(0, async () => ({ write: write([task('1')]), result: undefined }));
      let seen: TaskCatchUp | undefined;
      await store.transact(-1, async (catchUp) => {
        seen = catchUp;
        return { result: undefined };
      });
      expect(seen).toEqual({ tasks: [task('1')], highWaterMark: 1, seq: 1 });
    }),
  );

  it(
    'concurrent transactions of two holders never lose a change (50 increments)',
    withList(async (handle) => {
      const setup = handle();
      await setup.transact(0, async () => ({ write: write([task('1')]), result: undefined }));
      const holders = [new Holder(handle()), new Holder(handle())];
      await Promise.all(Array.from({ length: 50 }, (_, i) => (holders[i % 2] as Holder).increment()));
      const loaded = await setup.load();
      expect(loaded.tasks[0]?.metadata).toEqual({ count: 50 });
      expect(loaded.seq).toBe(51);
    }),
    120_000,
  );
}

/** Claims kept with their records, and atomic claims. */
function claims({ it, expect }: ConformanceRunner, withList: WithList): void {
  it(
    "a task's claim (its lease) is kept with its record",
    withList(async (handle) => {
      const store = handle();
      const claimed = task('1', {
        owner: 'alice',
        status: 'in_progress',
        claim: { owner: 'alice', session: 's-1', leaseSeconds: 30, expiresAt: 1_700_000_030_000 },
      });
      await store.transact(0, async () => ({ write: write([claimed]), result: undefined }));
      expect((await handle().load()).tasks).toEqual([claimed]);
      expect((await handle().changesSince(0))?.put).toEqual([claimed]);
      const released = task('1');
      await store.transact(1, async () => ({ write: write([released]), result: undefined }));
      expect((await handle().load()).tasks).toEqual([released]);
    }),
  );

  it(
    'claims are atomic: 3 holders x 8 agents racing for 12 tasks, each task claimed exactly once',
    withList(async (handle) => {
      const setup = new TaskToolsCore({ store: handle() });
      for (let i = 1; i <= 12; i += 1) await setup.createTask({ subject: `T${i}`, description: '' });
      const holders = [handle(), handle(), handle()];
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          new TaskToolsCore({ store: holders[i % 3] as TaskStore, session: `agent-${i}` }).claimTask({
            owner: `agent-${i}`,
            leaseSeconds: 600,
          }),
        ),
      );
      const claimed = answers.flatMap((answer) => /^Claimed task #(\d+): /.exec(answer.text)?.[1] ?? []);
      expect(claimed.sort()).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1)).sort());
      expect(answers.filter((answer) => answer.text === 'No task is free to claim')).toHaveLength(12);
      const owners = (await handle().load()).tasks.map((record) => record.owner);
      expect(new Set(owners).size).toBe(12);
    }),
    120_000,
  );
}

/** Leases: one that lapses is let go for every holder, one that is live fences every other holder. */
function leases({ it, expect }: ConformanceRunner, withList: WithList): void {
  it(
    'a lapsed lease shows as pending and unowned to every holder at its deadline, and is written through',
    withList(async (handle) => {
      let now = Date.UTC(2026, 11, 1, 10, 0, 0);
      const clock = () => now;
      const holder = new TaskToolsCore({ store: handle(), session: 'holder', now: clock });
      await holder.createTask({ subject: 'Parse', description: '' });
      expect((await holder.claimTask({ taskId: '1', owner: 'alice', leaseSeconds: 30 })).text).toBe(
        'Claimed task #1: Parse',
      );
      const reader = new TaskToolsCore({ store: handle(), session: 'reader', now: clock });
      await reader.syncTasks();
      expect(reader.listTasks()).toBe('#1 [in_progress] Parse (alice)');
      now += 30_000;
      // At the deadline, before anything else changed the list: every reader sees it let go.
      expect(reader.listTasks()).toBe('#1 [pending] Parse');
      expect(reader.getTask('1')).toContain('Status: pending');
      expect(holder.tasks()[0]?.owner).toBeUndefined();
      // A catch-up writes the release through, so a holder that loads the store sees it stored.
      await reader.syncTasks();
      const stored = (await handle().load()).tasks[0] as TaskRecord;
      expect(stored.status).toBe('pending');
      expect(stored.owner).toBeUndefined();
      expect(stored.claim).toBeUndefined();
      const late = new TaskToolsCore({ store: handle(), session: 'late', now: clock });
      expect((await late.claimTask({ owner: 'bob' })).text).toBe('Claimed task #1: Parse');
    }),
  );

  it(
    'a live lease fences every other holder: no claim under the same name, no update, completion or delete',
    withList(async (handle) => {
      const now = Date.UTC(2026, 11, 1, 10, 0, 0);
      const holder = new TaskToolsCore({ store: handle(), session: 'holder', now: () => now });
      await holder.createTask({ subject: 'Parse', description: '' });
      await holder.claimTask({ taskId: '1', owner: 'alice', leaseSeconds: 600 });
      const other = new TaskToolsCore({ store: handle(), session: 'other', now: () => now });
      expect((await other.claimTask({ taskId: '1', owner: 'alice', leaseSeconds: 600 })).text).toBe(
        "Task #1 is already claimed by alice under another session's lease, until 2026-12-01T10:10:00Z",
      );
      for (const update of [{ status: 'completed' }, { subject: 'Mine' }, { status: 'deleted' }]) {
        expect((await other.updateTask({ taskId: '1', ...update })).text).toBe(
          "Error: task #1 is claimed by alice under another session's lease until 2026-12-01T10:10:00Z; only that session can change it until then (claim it with task_claim once the lease has ended)",
        );
      }
      const [stored] = (await handle().load()).tasks;
      expect([stored?.subject, stored?.owner, stored?.status]).toEqual(['Parse', 'alice', 'in_progress']);
      expect((await holder.updateTask({ taskId: '1', status: 'completed' })).text).toBe('Updated task #1 status');
    }),
  );
}

/** The watch, where a store has one. */
function watch({ it, expect }: ConformanceRunner, withList: WithList): void {
  it(
    "watch, where a store has it, wakes a holder after another holder's commit",
    withList(async (handle) => {
      const a = handle();
      const b = handle();
      if (!a.watch) return;
      await a.load();
      let woken = 0;
      const woke = new Promise<void>((resolve) => {
        const stop = a.watch?.(() => {
          woken += 1;
          stop?.();
          resolve();
        });
      });
      await b.transact(0, async () => ({ write: write([task('1')]), result: undefined }));
      await woke;
      expect(woken).toBeGreaterThan(0);
      expect((await a.changesSince(0))?.put).toEqual([task('1')]);
    }),
  );
}

/** Registers the store conformance suite for the store `name`, opened by `open`, with `runner`'s test functions. */
export function describeTaskStoreConformance(name: string, open: OpenTestList, runner: ConformanceRunner): void {
  const withList: WithList = (body) => async () => {
    const list = await open();
    try {
      await body(list.handle);
    } finally {
      await list.close?.();
    }
  };
  runner.describe(`${name}: the TaskStore contract`, () => {
    recordsAndFeed(runner, withList);
    transactions(runner, withList);
    marksAndConcurrency(runner, withList);
    claims(runner, withList);
    leases(runner, withList);
    watch(runner, withList);
  });
}
