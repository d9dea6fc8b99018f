/**
 * The wake-ups raider sends by itself (issue 27), as `<task-notification>`s in Claude Code's form
 * (`notificationText` of @raider/tasks-registry), into the inbox of the agent they concern:
 * - a task completes or is deleted: the owner of every task it blocked;
 * - a claim's lease lapses: the claim's owner, and the owners of the open tasks it blocks (the agents waiting on it);
 * - someone else changes a task an agent owns (or makes an agent its owner): that agent.
 *
 * Each kind of wake-up is named in `<task-type>` (WAKE_UP_KINDS), and only one that tells of an
 * end carries a `<status>` in Claude Code's sense (issue 36): a blocker completed is `completed`, a
 * task deleted `killed`, a lapsed claim `failed`; a change, an assignment or an unassignment ended
 * nothing, so it has no `<status>` (a model reads `completed` as "this work is done").
 *
 * A change is announced by the holder that committed it, and only there: the conversation's task
 * store is wrapped (`observe`), and what a transaction of this holder wrote is compared with the
 * list as this holder last saw it (its catch-ups and its own writes). What other processes wrote
 * reaches this holder only as a catch-up, never as a write of its own, so each change is announced
 * once, by the process (and the conversation) that made it.
 */
import { oneLine } from '@raider/kit/shown-text';
import { type EndStatus, type MessageStore, notificationText, type OutgoingMessage } from '@raider/tasks-registry';
import { isSnapshot, type TaskCatchUp, type TaskRecord, type TaskStore, type TaskWrite } from '@raider/todo-tools/v2';
import { currentCall } from '../../conversation/call-pipeline.js';
import type { Logger } from '../../log.js';

/**
 * Every kind of wake-up, its `<task-type>`, and the `<status>` it carries (none for a notice of
 * something that did not end). The server's README has the same table.
 */
export const WAKE_UP_KINDS = {
  /** A task that blocked the recipient's task completed. */
  blocker_completed: 'completed',
  /** A task that blocked the recipient's task was deleted. */
  blocker_deleted: 'killed',
  /** The recipient's claim on a task lapsed. */
  claim_lapsed: 'failed',
  /** Someone's claim on a task that blocks the recipient's task lapsed. */
  blocker_claim_lapsed: 'failed',
  /** Someone else deleted the recipient's task. */
  task_deleted: 'killed',
  /** Someone else changed the recipient's task, which is still the recipient's. */
  task_changed: undefined,
  /** Someone else made the recipient a task's owner. */
  task_assigned: undefined,
  /** Someone else gave the recipient's task to another owner, or to none. */
  task_unassigned: undefined,
} as const satisfies Record<string, EndStatus | undefined>;

/** The name of a kind of wake-up (its `<task-type>`). */
export type WakeUpKind = keyof typeof WAKE_UP_KINDS;

/** A wake-up before it is sent: for whom, its kind (which gives its status), its summary, the ids it is about. */
export interface WakeUp {
  to: string;
  kind: WakeUpKind;
  summary: string;
  about: string[];
}

/** `#3 "Write the parser"`: the subject is someone's text, shown on one line. */
const named = (task: TaskRecord) => `#${task.id} "${oneLine(task.subject)}"`;

/** An agent's name in a summary, on one line. */
const agentNamed = (agent: string) => oneLine(agent);

/** The fields Claude Code's TaskUpdate names in its answer, in its order (what "changed" lists). */
const FIELDS = ['subject', 'description', 'activeForm', 'owner', 'metadata', 'status', 'blocks', 'blockedBy'] as const;

/** What differs between two states of a task, in FIELDS' order; ids of removed tasks leaving blocks/blockedBy don't count. */
function changedFields(before: TaskRecord, after: TaskRecord, removed: ReadonlySet<string>): string[] {
  const kept = (ids: string[]) => JSON.stringify(ids.filter((id) => !removed.has(id)));
  return FIELDS.flatMap((field) => {
    const same =
      field === 'blocks' || field === 'blockedBy'
        ? kept(before[field]) === kept(after[field])
        : JSON.stringify(before[field]) === JSON.stringify(after[field]);
    if (same) return [];
    if (field === 'status') return [`status (now ${after.status})`];
    if (field === 'owner') return [`owner (now ${after.owner === undefined ? 'none' : agentNamed(after.owner)})`];
    return [field];
  });
}

/**
 * To the owners of the tasks `task` blocked (not completed, owned by someone other than `actor`),
 * one wake-up each: `Task #3 "Write the parser" completed; #5 "Ship it" is no longer blocked by it`,
 * with `(still by #4)` after a task some other open task still blocks.
 */
function blockedOwners(
  task: TaskRecord,
  how: 'completed' | 'was deleted',
  after: ReadonlyMap<string, TaskRecord>,
  actor: string | undefined,
): WakeUp[] {
  const byOwner = new Map<string, TaskRecord[]>();
  for (const id of task.blocks) {
    const blocked = after.get(id);
    if (!blocked || blocked.status === 'completed' || !blocked.owner || blocked.owner === actor) continue;
    byOwner.set(blocked.owner, [...(byOwner.get(blocked.owner) ?? []), blocked]);
  }
  return [...byOwner].map(([owner, tasks]) => {
    const lines = tasks.map((blocked) => {
      const still = blocked.blockedBy.filter((id) => {
        const blocker = after.get(id);
        return id !== task.id && blocker !== undefined && blocker.status !== 'completed';
      });
      return `${named(blocked)} is no longer blocked by it${still.length ? ` (still by ${still.map((id) => `#${id}`).join(', ')})` : ''}`;
    });
    return {
      to: owner,
      kind: how === 'completed' ? 'blocker_completed' : 'blocker_deleted',
      summary: `Task ${named(task)} ${how}; ${lines.join('; ')}`,
      about: [task.id, ...tasks.map((blocked) => blocked.id)],
    };
  });
}

/**
 * To the owners of the open tasks `task` blocks (the agents waiting on it), when the claim of
 * `lapsedOwner` on it lapsed, one wake-up each: `The claim of alice on task #1 "Write the parser",
 * which blocks your task #2 "Ship it", lapsed; it is pending and unowned again`. Not to the lapsed
 * owner (told already), nor to `actor`, nor to whoever holds the task now.
 */
function waitingOwners(
  task: TaskRecord,
  lapsedOwner: string,
  now: string,
  all: ReadonlyMap<string, TaskRecord>,
  actor: string | undefined,
): WakeUp[] {
  const byOwner = new Map<string, TaskRecord[]>();
  for (const id of task.blocks) {
    const blocked = all.get(id);
    const owner = blocked?.owner;
    if (!blocked || blocked.status === 'completed' || !owner) continue;
    if (owner === lapsedOwner || owner === actor || owner === task.owner) continue;
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), blocked]);
  }
  return [...byOwner].map(([owner, tasks]) => ({
    to: owner,
    kind: 'blocker_claim_lapsed',
    summary: `The claim of ${agentNamed(lapsedOwner)} on task ${named(task)}, which blocks your ${tasks.length === 1 ? 'task' : 'tasks'} ${tasks.map(named).join(', ')}, lapsed; ${now}`,
    about: [task.id, ...tasks.map((blocked) => blocked.id)],
  }));
}

/** True when `before`'s claim ran out by `now` and `after` no longer holds that same claim. */
function claimLapsed(before: TaskRecord, after: TaskRecord, now: number): boolean {
  const claim = before.claim;
  if (!claim || claim.expiresAt > now) return false;
  return !(after.claim && after.claim.session === claim.session && after.claim.expiresAt === claim.expiresAt);
}

/** The wake-ups of one task this holder changed (it was `before`, it is `after`). */
function changedTask(
  before: TaskRecord,
  after: TaskRecord,
  context: {
    all: ReadonlyMap<string, TaskRecord>;
    removed: ReadonlySet<string>;
    actor: string | undefined;
    now: number;
  },
): WakeUp[] {
  const { actor } = context;
  const wakeUps: WakeUp[] = [];
  const lapsedOwner = claimLapsed(before, after, context.now) ? before.claim?.owner : undefined;
  // The claim's owner, unless it claimed the task again itself.
  if (lapsedOwner !== undefined && !(lapsedOwner === actor && after.owner === lapsedOwner)) {
    const lease = before.claim?.leaseSeconds;
    const now =
      after.owner && after.owner !== lapsedOwner
        ? `${agentNamed(after.owner)} has claimed it`
        : 'it is pending and unowned again';
    wakeUps.push({
      to: lapsedOwner,
      kind: 'claim_lapsed',
      summary: `Your claim on task ${named(after)} lapsed: no update within its ${lease}-second lease; ${now}`,
      about: [after.id],
    });
    wakeUps.push(...waitingOwners(after, lapsedOwner, now, context.all, actor));
  }
  if (before.status !== 'completed' && after.status === 'completed') {
    wakeUps.push(...blockedOwners(after, 'completed', context.all, actor));
  }
  const who = actor === undefined ? 'Someone' : agentNamed(actor);
  const fields = changedFields(before, after, context.removed);
  if (fields.length > 0 && before.owner && before.owner !== actor && before.owner !== lapsedOwner) {
    const still = after.owner === before.owner;
    wakeUps.push({
      to: before.owner,
      kind: still ? 'task_changed' : 'task_unassigned',
      summary: `${who} changed your task ${named(after)}: ${fields.join(', ')}${still ? '' : '; you are no longer its owner'}`,
      about: [after.id],
    });
  }
  if (after.owner && after.owner !== before.owner && after.owner !== actor) {
    wakeUps.push({
      to: after.owner,
      kind: 'task_assigned',
      summary: `${who} made you the owner of task ${named(after)}`,
      about: [after.id],
    });
  }
  return wakeUps;
}

/**
 * The wake-ups of one committed write: `before` holds the tasks it touched as they were,
 * `after` the whole list once it was applied, `actor` the agent whose call made it (undefined: no
 * agent, e.g. the board or a lease's timer), `now` the time it was committed.
 */
export function wakeUpsOf(
  write: TaskWrite,
  before: ReadonlyMap<string, TaskRecord>,
  after: ReadonlyMap<string, TaskRecord>,
  actor: string | undefined,
  now: number,
): WakeUp[] {
  const removed = new Set(write.removed);
  const wakeUps: WakeUp[] = [];
  for (const record of write.put) {
    const was = before.get(record.id);
    if (was) wakeUps.push(...changedTask(was, record, { all: after, removed, actor, now }));
  }
  for (const id of write.removed) {
    const was = before.get(id);
    if (!was) continue;
    wakeUps.push(...blockedOwners(was, 'was deleted', after, actor));
    if (was.owner && was.owner !== actor) {
      wakeUps.push({
        to: was.owner,
        kind: 'task_deleted',
        summary: `${actor === undefined ? 'Someone' : agentNamed(actor)} deleted your task ${named(was)}`,
        about: [id],
      });
    }
  }
  return wakeUps;
}

/** A wake-up as the message its recipient's inbox gets: its kind as `<task-type>`, and the kind's `<status>` if it has one. */
export function wakeUpMessage(wakeUp: WakeUp): OutgoingMessage {
  const status: EndStatus | undefined = WAKE_UP_KINDS[wakeUp.kind];
  return {
    to: wakeUp.to,
    text: notificationText({
      taskId: wakeUp.about[0] as string,
      taskType: wakeUp.kind,
      ...(status === undefined ? {} : { status }),
      summary: wakeUp.summary,
    }),
    notification: true,
    about: wakeUp.about.join(','),
    label: wakeUp.summary,
  };
}

/** What `observeTasks` needs: where wake-ups go, whether to send them now, and a log for sends that fail. */
export interface WakeUpOptions {
  messages: () => MessageStore;
  /** False while the conversation serves no team: then nothing is sent. */
  enabled: () => boolean;
  log: Logger;
}

/**
 * `store` (one conversation's) announcing what its own transactions change: see the module's
 * comment. The agent of a change is the agent of the tool call that made it, read from the call's
 * context (`currentCall`: TaskTools, not our code, calls the transaction), and that call answers
 * once the wake-ups of every write committed so far were sent (or failed, logged).
 */
export function observeTasks(store: TaskStore, options: WakeUpOptions): TaskStore {
  // The list as this holder last saw it: reset by a whole read, moved on by deltas and own writes.
  const seen = new Map<string, TaskRecord>();
  const apply = (catchUp: TaskCatchUp) => {
    if (isSnapshot(catchUp)) {
      seen.clear();
      for (const task of catchUp.tasks) seen.set(task.id, structuredClone(task));
      return;
    }
    for (const task of catchUp.put) seen.set(task.id, structuredClone(task));
    for (const id of catchUp.removed) seen.delete(id);
  };
  let sending: Promise<void> = Promise.resolve();
  const announce = (wakeUps: WakeUp[]) => {
    for (const wakeUp of wakeUps) {
      sending = sending.then(async () => {
        try {
          await options.messages().send(wakeUpMessage(wakeUp));
        } catch (error) {
          options.log.warn(`a wake-up for ${wakeUp.to} was not sent: ${(error as Error).message}`);
        }
      });
    }
  };
  const observed: TaskStore = {
    load: async () => {
      const snapshot = await store.load();
      apply(snapshot);
      return snapshot;
    },
    changesSince: async (seq) => {
      const delta = await store.changesSince(seq);
      if (delta) apply(delta);
      return delta;
    },
    transact: async (seq, fn) => {
      // Read as the call begins: inside a shared store's transaction the context may be another's.
      const call = currentCall();
      const actor = call?.agent;
      let write: TaskWrite | undefined;
      const before = new Map<string, TaskRecord>();
      const committed = await store.transact(seq, async (catchUp) => {
        apply(catchUp);
        const result = await fn(catchUp);
        write = result.write;
        before.clear();
        for (const id of [...(write?.put.map((task) => task.id) ?? []), ...(write?.removed ?? [])]) {
          const task = seen.get(id);
          if (task) before.set(id, task);
        }
        return result;
      });
      if (write) {
        apply({ ...write, seq: committed.seq });
        if (options.enabled()) announce(wakeUpsOf(write, before, seen, actor, Date.now()));
      }
      // The wake-ups the call caused are in their inboxes before it answers.
      call?.answerAfter(sending);
      return committed;
    },
  };
  if (store.watch) observed.watch = (onChange) => (store.watch as NonNullable<TaskStore['watch']>)(onChange);
  return observed;
}
