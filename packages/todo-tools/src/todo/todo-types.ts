/**
 * Types of rpiv-todo's one-tool `todo` family: its actions and its result envelope. The state it
 * keeps (TodoSnapshot, TodoTask) is in ../types.ts, beside the other families' shapes, so a store
 * names it without importing the family.
 */
import type { TodoSnapshot } from '../types.js';

/** The actions of the `todo` tool. */
export type TodoAction = 'create' | 'update' | 'list' | 'get' | 'delete' | 'clear';

/** `details` of a `todo` result: the call and the complete state after it (rpiv-todo's envelope). */
export interface TodoDetails extends TodoSnapshot {
  /** The action asked for (as sent, when it was not a valid one). */
  action: string;
  /** The parameters of the call, without `action`. */
  params: Record<string, unknown>;
  /** Present only on a rejected call: the bare message. */
  error?: string;
}

/** What `TodoTool.call` returns: rpiv-todo's envelope (`content` for the model, `details` for the state). */
export interface TodoResult {
  content: [{ type: 'text'; text: string }];
  details: TodoDetails;
}
