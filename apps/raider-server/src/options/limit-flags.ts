/** The list limits as flags of the command line: `--max-tasks N` / RAIDER_MAX_TASKS, and so on. */
import { DEFAULT_LIMITS, type TaskListLimits } from '@raider/todo-tools/v2';
import { MAX_MESSAGE_DEPTH } from '../message-depth.js';
import type { Flag, FlagParser } from './flag-row.js';

/** The list limits as flags: `--max-tasks N` / RAIDER_MAX_TASKS sets `maxTasks`, and so on. */
export const LIMIT_FLAGS: Readonly<Record<keyof TaskListLimits, { flag: string; what: string }>> = {
  maxTasks: { flag: 'max-tasks', what: 'most tasks a list holds' },
  maxSubjectLength: { flag: 'max-subject-length', what: 'longest subject (and todo_write content), characters' },
  maxDescriptionLength: { flag: 'max-description-length', what: 'longest description, characters' },
  maxActiveFormLength: { flag: 'max-active-form-length', what: 'longest activeForm, characters' },
  maxOwnerLength: { flag: 'max-owner-length', what: 'longest owner, characters' },
  maxMetadataSize: { flag: 'max-metadata-size', what: 'largest metadata record, characters of JSON' },
  maxMetadataDepth: { flag: 'max-metadata-depth', what: 'deepest nesting of metadata, levels' },
  maxDependencies: { flag: 'max-dependencies', what: 'most ids in one addBlocks/addBlockedBy/blockedBy' },
  maxTodoItems: { flag: 'max-todo-items', what: 'most items in one todo_write list' },
};

/** The environment twin of a flag: `max-tasks` -> RAIDER_MAX_TASKS. */
export const envOf = (flag: string) => `RAIDER_${flag.toUpperCase().replaceAll('-', '_')}`;

/**
 * The deepest metadata a call can carry: a whole message nests at most MAX_MESSAGE_DEPTH levels,
 * and a tool call's metadata sits three below its top (the message, `params`, `arguments`), so a
 * larger --max-metadata-depth could never be reached and would only mislead.
 */
export const MAX_METADATA_DEPTH_LIMIT = MAX_MESSAGE_DEPTH - 3;

/** The rows of the list limits (`whole(min, max)` makes a parser of whole numbers from min to max). */
export function limitFlags(whole: (min: number, max: number) => FlagParser): Flag[] {
  return Object.entries(LIMIT_FLAGS).map(([key, { flag, what }]) => ({
    flag,
    env: envOf(flag),
    type: 'string' as const,
    value: 'N',
    help: `${what} (default ${DEFAULT_LIMITS[key as keyof TaskListLimits]})`,
    key: `limits.${key as keyof TaskListLimits}` as const,
    parse: whole(1, key === 'maxMetadataDepth' ? MAX_METADATA_DEPTH_LIMIT : 1_000_000_000),
  }));
}
