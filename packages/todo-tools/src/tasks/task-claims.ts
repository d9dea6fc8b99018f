/**
 * Atomic claims (task_claim): taking a task sets its owner and `in_progress` in one transaction
 * of the list, so two agents racing for a task never both believe they hold it. A claim made with
 * `leaseSeconds` lapses when its holder does not touch the task within that time: the owner is
 * cleared and the task goes back to pending, so a crashed agent's work is picked up. The holder is
 * the session (the TaskTools) that claimed, or, on a call the host authenticated, the agent that
 * made it (issue 38): then every session of that agent renews the lease, and no other agent does.
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

/**
 * Who takes or renews a lease: a session (`agent` false: the TaskTools' own id), or the agent the
 * host authenticated as the call's caller (`agent` true: its name, which task_claim then claims for).
 */
export interface LeaseHolder {
  readonly name: string;
  readonly agent: boolean;
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

/** The live lease another holder than `holder` holds on `task` at `now`, if any. */
function leaseOfAnother(task: StoredTask, holder: string, now: number): TaskClaim | undefined {
  const claim = task.claim;
  return claim && claim.session !== holder && claim.expiresAt > now ? claim : undefined;
}

/**
 * The lease `held` and its holder as a refusal names them to `asker`: the agent by name when an
 * agent asks and an agent holds it (an agent claims only for itself, so its lease's owner is its
 * holder), else `another session` as without authentication (a session's id means nothing to a
 * model, and a call without a caller is answered exactly as before issue 38).
 */
function heldBy(held: TaskClaim, asker: LeaseHolder): { lease: string; only: string } {
  if (!asker.agent || held.session !== held.owner) return { lease: "another session's lease", only: 'that session' };
  const name = oneLine(held.session);
  return { lease: `${name}'s lease`, only: name };
}

/**
 * Claims `args.taskId` (or the first free task) for `args.owner` on behalf of `holder`, at time
 * `now` (ms). Answers `Claimed task #3: Write the parser`, `Task #3 is already claimed by alice`,
 * `Task #3 is blocked by #1, #2`, `Task #3 is already completed`, `Task not found` or
 * `No task is free to claim`. An agent (whose `args.owner` the caller checked is its own name) is
 * refused any task another holds a live lease on: `Task #3 is already claimed by bob under bob's
 * lease, until 2026-12-02T10:00:00Z`.
 */
export function claimTask(list: TaskList, args: ClaimArgs, holder: LeaseHolder, now: number): ClaimOutcome {
  let task: StoredTask | undefined;
  if (args.taskId !== undefined) {
    task = list.get(args.taskId);
    if (!task) return { text: 'Task not found' };
    if (task.status === 'completed') return { text: `Task #${task.id} is already completed` };
    // A live lease is held by the holder that took it, not by the name it gave: another session
    // naming the same owner does not get it. An agent claims only under its own name, so any live
    // lease of another fences it, whatever owner that lease names.
    const held = leaseOfAnother(task, holder.name, now);
    if (held && (holder.agent || held.owner === args.owner)) {
      return {
        text: `Task #${task.id} is already claimed by ${oneLine(held.owner)} under ${heldBy(held, holder).lease}, until ${leaseEnd(held)}`,
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
      session: holder.name,
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
 * What a task_update of `holder` on `task` does to the task's claim: `refuse` (the holder's own
 * lease on it lapsed, or another took it since: it must claim again; or another holder has a live
 * lease on it: only that holder changes it until the lease ends), `renew` (its lease runs again
 * from `now`), or nothing. `claimedHere` says whether this object claimed the task with a lease for
 * `holder` before.
 */
export function leaseOnUpdate(
  task: StoredTask,
  holder: LeaseHolder,
  claimedHere: boolean,
  now: number,
): { refuse: string } | { renewed: TaskClaim } | undefined {
  const claim = task.claim;
  if (claim && claim.session === holder.name && claim.expiresAt > now) {
    return { renewed: { ...claim, expiresAt: now + claim.leaseSeconds * 1000 } };
  }
  // An agent's claim that another of its sessions ended (it completed the task, or took it again
  // without a lease) leaves the task its own: that is no lapse. A lapse clears the owner.
  const endedByItself = holder.agent && !claim && task.owner === holder.name;
  if (claimedHere && !endedByItself && (!claim || claim.session !== holder.name || claim.expiresAt <= now)) {
    return {
      refuse: `your claim on task #${task.id} expired (its lease ran out before this session touched it again); claim it again with task_claim`,
    };
  }
  const held = leaseOfAnother(task, holder.name, now);
  if (held) {
    const by = heldBy(held, holder);
    return {
      refuse: `task #${task.id} is claimed by ${oneLine(held.owner)} under ${by.lease} until ${leaseEnd(held)}; only ${by.only} can change it until then (claim it with task_claim once the lease has ended)`,
    };
  }
  return undefined;
}
