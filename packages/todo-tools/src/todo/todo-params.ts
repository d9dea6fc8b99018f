/**
 * Reading the parameters of a `todo` call: types, numeric-string ids, which parameters an action
 * takes, and limits. Everything here runs before any change, so a rejected call changes nothing.
 */
import type { TaskListLimits } from '../limits.js';
import { nestsDeeperThan } from '../metadata.js';
import { received } from '../received.js';
import { TASK_FIELDS } from '../task-fields.js';
import type { TodoTaskStatus } from '../types.js';
import type { TodoAction } from './todo-types.js';

/** The actions, in rpiv-todo's order. */
export const TODO_ACTIONS: readonly TodoAction[] = ['create', 'update', 'list', 'get', 'delete', 'clear'];
/** Every status a `todo` task can have. */
export const TODO_STATUSES: readonly TodoTaskStatus[] = ['pending', 'in_progress', 'completed', 'deleted'];

/** The parameters each action takes (rpiv-todo's `todo` tool, its "Parameters"). */
const TAKES: Readonly<Record<TodoAction, readonly string[]>> = {
  create: ['subject', 'blockedBy', 'description', 'activeForm', 'owner', 'metadata'],
  update: ['id', ...TASK_FIELDS, 'addBlockedBy', 'removeBlockedBy'],
  list: ['status', 'includeDeleted'],
  get: ['id'],
  delete: ['id'],
  clear: [],
};
const ALL_PARAMS = new Set(['action', ...Object.values(TAKES).flat()]);

/** Parameters after reading: ids are integers, absent fields are undefined. */
export interface TodoParams {
  action: TodoAction;
  id?: number;
  subject?: string;
  description?: string;
  activeForm?: string;
  owner?: string;
  metadata?: Record<string, unknown>;
  status?: TodoTaskStatus;
  blockedBy?: number[];
  addBlockedBy?: number[];
  removeBlockedBy?: number[];
  includeDeleted?: boolean;
}

/** A rejected call: the bare message, and the action as sent (for `details.action`). */
export interface ParamsError {
  error: string;
  action: string;
}

/**
 * An id as models send it: an integer, or a string spelling one (`"2"`, `" 7 "`). Anything else
 * ("two", 1.5, true) is not an id.
 */
export function readId(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) {
    const id = Number(value.trim());
    return Number.isSafeInteger(id) ? id : undefined;
  }
  return undefined;
}

/** True for a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the parameters of one call, or says what is wrong with them. */
export function readParams(raw: unknown, limits: TaskListLimits): TodoParams | ParamsError {
  if (!isRecord(raw)) {
    return { error: `expected an object of parameters with an action, received ${received(raw)}`, action: '' };
  }
  const sentAction = typeof raw.action === 'string' ? raw.action : '';
  const fail = (error: string): ParamsError => ({ error, action: sentAction });
  for (const key of Object.keys(raw)) {
    if (!ALL_PARAMS.has(key)) {
      return fail(`unknown parameter ${received(key)}; expected some of ${[...ALL_PARAMS].join(', ')}`);
    }
  }
  if (!TODO_ACTIONS.includes(raw.action as TodoAction)) {
    return fail(`action: expected one of ${TODO_ACTIONS.join(', ')}, received ${received(raw.action)}`);
  }
  const action = raw.action as TodoAction;
  const params: TodoParams = { action };
  // Models send null for an optional parameter they mean to leave out: treat it so.
  const given = Object.entries(raw).filter(([key, value]) => key !== 'action' && value !== null && value !== undefined);
  for (const [key, value] of given) {
    if (!TAKES[action].includes(key)) {
      const takes = TAKES[action].length ? `it takes ${TAKES[action].join(', ')}` : 'it takes no parameters';
      return fail(`${action} does not take ${key}; ${takes}`);
    }
    const problem = readField(params, key, value, limits);
    if (problem) return fail(problem);
  }
  return params;
}

/** Reads one given parameter into `params`, or says what is wrong with it. */
function readField(params: TodoParams, key: string, value: unknown, limits: TaskListLimits): string | undefined {
  switch (key) {
    case 'id': {
      const id = readId(value);
      if (id === undefined) return `id: expected an integer id such as 3, received ${received(value)}`;
      params.id = id;
      return undefined;
    }
    case 'subject':
      return readText(params, key, value, limits.maxSubjectLength);
    case 'description':
      return readText(params, key, value, limits.maxDescriptionLength);
    case 'activeForm':
      return readText(params, key, value, limits.maxActiveFormLength);
    case 'owner':
      return readText(params, key, value, limits.maxOwnerLength);
    case 'metadata':
      return readMetadata(params, value, limits);
    case 'status':
      if (!TODO_STATUSES.includes(value as TodoTaskStatus)) {
        return `status: expected one of ${TODO_STATUSES.join(', ')}, received ${received(value)}`;
      }
      params.status = value as TodoTaskStatus;
      return undefined;
    case 'includeDeleted':
      if (typeof value !== 'boolean') return `includeDeleted: expected true or false, received ${received(value)}`;
      params.includeDeleted = value;
      return undefined;
    case 'blockedBy':
    case 'addBlockedBy':
    case 'removeBlockedBy':
      return readIds(params, key, value, limits.maxDependencies);
    default:
      return `unknown parameter ${received(key)}`;
  }
}

/** Reads `metadata`: a record no deeper than `maxMetadataDepth` and no larger than `maxMetadataSize` as JSON. */
function readMetadata(params: TodoParams, value: unknown, limits: TaskListLimits): string | undefined {
  if (!isRecord(value)) return `metadata: expected an object of keys and values, received ${received(value)}`;
  // Before anything walks it recursively (JSON, a copy): depth first, without recursion.
  if (nestsDeeperThan(value, limits.maxMetadataDepth)) {
    return `metadata: expected at most ${limits.maxMetadataDepth} levels of nesting, received a value nested deeper`;
  }
  const size = JSON.stringify(value).length;
  if (size > limits.maxMetadataSize) {
    return `metadata: expected at most ${limits.maxMetadataSize} characters as JSON, received ${size} characters`;
  }
  params.metadata = value;
  return undefined;
}

/** Reads a list of ids (`blockedBy`, `addBlockedBy`, `removeBlockedBy`): at most `max`, each once. */
function readIds(
  params: TodoParams,
  key: 'blockedBy' | 'addBlockedBy' | 'removeBlockedBy',
  value: unknown,
  max: number,
): string | undefined {
  if (!Array.isArray(value))
    return `${key}: expected an array of integer ids such as [1, 2], received ${received(value)}`;
  if (value.length > max) return `${key}: expected at most ${max} ids, received ${value.length}`;
  const ids: number[] = [];
  for (const item of value) {
    const id = readId(item);
    if (id === undefined) return `${key}: expected integer ids such as [1, 2], received ${received(item)} in the list`;
    if (!ids.includes(id)) ids.push(id);
  }
  params[key] = ids;
  return undefined;
}

/** Reads one text parameter, at most `max` characters. */
function readText(
  params: TodoParams,
  key: 'subject' | 'description' | 'activeForm' | 'owner',
  value: unknown,
  max: number,
): string | undefined {
  if (typeof value !== 'string') return `${key}: expected a string, received ${received(value)}`;
  if (value.length > max) return `${key}: expected at most ${max} characters, received ${value.length} characters`;
  params[key] = value;
  return undefined;
}
