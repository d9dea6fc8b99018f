/** Types of the one-tool `todo` family (rpiv-todo's contract, seed 002). */

/** The actions of the `todo` tool. */
export type TodoAction = 'create' | 'update' | 'list' | 'get' | 'delete' | 'clear';

/** The status of a `todo` task; `deleted` marks a tombstone. */
export type TodoTaskStatus = 'pending' | 'in_progress' | 'completed' | 'deleted';

/** A task of the `todo` family as snapshots hold it. Optional fields are absent when unset. */
export interface TodoTask {
  id: number;
  subject: string;
  description?: string;
  activeForm?: string;
  status: TodoTaskStatus;
  /** Ids this task waits on; absent when none. */
  blockedBy?: number[];
  owner?: string;
  metadata?: Record<string, unknown>;
}

/** The state of a `todo` list: every task (tombstones included) in id order, and the next id. */
export interface TodoSnapshot {
  tasks: readonly TodoTask[];
  nextId: number;
}

/** `details` of a `todo` result: the call and the complete state after it (seed 002's envelope). */
export interface TodoDetails extends TodoSnapshot {
  /** The action asked for (as sent, when it was not a valid one). */
  action: string;
  /** The parameters of the call, without `action`. */
  params: Record<string, unknown>;
  /** Present only on a rejected call: the bare message. */
  error?: string;
}

/** What `TodoTool.call` returns: the seed's envelope. */
export interface TodoResult {
  content: [{ type: 'text'; text: string }];
  details: TodoDetails;
}
