/**
 * Atomic claims (task_claim): taking a task sets its owner and `in_progress` in one transaction
 * of the list, so two agents racing for a task never both believe they hold it. A claim made with
 * `leaseSeconds` lapses when its session does not touch the task within that time: the owner is
 * cleared and the task goes back to pending, so a crashed agent's work is picked up.
 */
import { oneLine } from '@raider/kit/shown-text';
import type { TaskClaim } from '../store/task-store.js';
import type { StoredTask } from './stored-task.js';
import type { TaskList } from './task-list.js';
import { isInternal, openBlockers } from './task-text.js';

/** The arguments of task_claim, validated by its schema. */
export interface ClaimArgs {
  taskId?: string;
  owner: string;
  leaseSeconds?: number;
}

/** What a claim did: the answer text, and the task when it was taken. */
export interface ClaimOutcome {
  text: string;
  task?: StoredTask;
}

const ids = (list: Iterable<string>): string => [...list].map((id) => `#${oneLine(id)}`).join(', ');

/** The lowest-id task that is pending, unowned, not internal and not blocked by an unfinished task. */
function firstFree(list: TaskList): StoredTask | undefined {
  for (const task of list.ordered()) {
    if (
      task.status === 'pending' &&
      task.owner === undefined &&
      !isInternal(task) &&
      !openBlockers(task, list).length
    ) {
      return task;
    }
  }
  return undefined;
}

/** When a lease ends, as a reader is told it (UTC, to the second). */
const leaseEnd = (claim: TaskClaim): string => `${new Date(claim.expiresAt).toISOString().slice(0, 19)}Z`;

/** True when `task` carries a lease that has run out at `now`. */
export function leaseLapsed(task: StoredTask, now: number): boolean {
  return task.claim !== undefined && task.claim.expiresAt <= now;
}

/**
 * `task` as every reader sees it at `now`: once its lease has run out, back to pending (a
 * completed task stays completed) and unowned, whether or not anyone has written that yet.
 */
export function asSeen(task: StoredTask, now: number): StoredTask {
  if (!leaseLapsed(task, now)) return task;
  const seen: StoredTask = { ...task, status: task.status === 'completed' ? 'completed' : 'pending' };
  delete seen.owner;
  delete seen.claim;
  return seen;
}

/** When the first lease of the list ends (ms), or undefined when no task is leased. Looks at leased tasks only. */
export function nextLapse(list: TaskList): number | undefined {
  let first: number | undefined;
  for (const id of list.leased) {
    const expiresAt = list.get(id)?.claim?.expiresAt;
    if (expiresAt !== undefined && (first === undefined || expiresAt < first)) first = expiresAt;
  }
  return first;
}

/** The live lease another session than `session` holds on `task` at `now`, if any. */
function leaseOfAnother(task: StoredTask, session: string, now: number): TaskClaim | undefined {
  const claim = task.claim;
  return claim && claim.session !== session && claim.expiresAt > now ? claim : undefined;
}

/**
 * Claims `args.taskId` (or the first free task) for `args.owner` on behalf of `session`, at time
 * `now` (ms). Answers `Claimed task #3: Write the parser`, `Task #3 is already claimed by alice`,
 * `Task #3 is blocked by #1, #2`, `Task #3 is already completed`, `Task not found` or
 * `No task is free to claim`.
 */
export function claimTask(list: TaskList, args: ClaimArgs, session: string, now: number): ClaimOutcome {
  let task: StoredTask | undefined;
  if (args.taskId !== undefined) {
    task = list.get(args.taskId);
    if (!task) return { text: 'Task not found' };
    if (task.status === 'completed') return { text: `Task #${task.id} is already completed` };
    // A live lease is held by the session that took it, not by the name it gave: another session
    // naming the same owner does not get it.
    const held = leaseOfAnother(task, session, now);
    if (held && held.owner === args.owner) {
      return {
        text: `Task #${task.id} is already claimed by ${oneLine(held.owner)} under another session's lease, until ${leaseEnd(held)}`,
      };
    }
    if (task.owner !== undefined && task.owner !== args.owner) {
      return { text: `Task #${task.id} is already claimed by ${oneLine(task.owner)}` };
    }
    const blockers = openBlockers(task, list);
    if (blockers.length) return { text: `Task #${task.id} is blocked by ${ids(blockers)}` };
  } else {
    task = firstFree(list);
    if (!task) return { text: 'No task is free to claim' };
  }
  const claimed: StoredTask = { ...task, owner: args.owner, status: 'in_progress' };
  if (args.leaseSeconds !== undefined) {
    claimed.claim = {
      owner: args.owner,
      session,
      leaseSeconds: args.leaseSeconds,
      expiresAt: now + args.leaseSeconds * 1000,
    };
  } else delete claimed.claim;
  list.replace(claimed);
  // Owner and subject on one line (issue 36), as in every answer that echoes them.
  return { text: `Claimed task #${claimed.id}: ${oneLine(claimed.subject)}`, task: claimed };
}

/**
 * Lets every lapsed lease go (at time `now`): the owner is cleared and an unfinished task goes
 * back to pending. Looks only at leased tasks. Returns the ids it released.
 */
export function expireLeases(list: TaskList, now: number): string[] {
  const released: string[] = [];
  for (const id of [...list.leased]) {
    const task = list.get(id);
    if (!task || !leaseLapsed(task, now)) continue;
    list.replace(asSeen(task, now));
    released.push(id);
  }
  return released;
}

/**
 * What a task_update of `session` on `task` does to the task's claim: `refuse` (the session's own
 * lease on it lapsed, or another took it since: it must claim again; or another session holds a
 * live lease on it: only that session changes it until the lease ends), `renew` (its lease runs
 * again from `now`), or nothing. `claimedHere` says whether this session claimed the task with a
 * lease before.
 */
export function leaseOnUpdate(
  task: StoredTask,
  session: string,
  claimedHere: boolean,
  now: number,
): { refuse: string } | { renewed: TaskClaim } | undefined {
  const claim = task.claim;
  if (claim && claim.session === session && claim.expiresAt > now) {
    return { renewed: { ...claim, expiresAt: now + claim.leaseSeconds * 1000 } };
  }
  if (claimedHere && (!claim || claim.session !== session || claim.expiresAt <= now)) {
    return {
      refuse: `your claim on task #${task.id} expired (its lease ran out before this session touched it again); claim it again with task_claim`,
    };
  }
  const held = leaseOfAnother(task, session, now);
  if (held) {
    return {
      refuse: `task #${task.id} is claimed by ${oneLine(held.owner)} under another session's lease until ${leaseEnd(held)}; only that session can change it until then (claim it with task_claim once the lease has ended)`,
    };
  }
  return undefined;
}
