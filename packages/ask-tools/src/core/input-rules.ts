/**
 * The pieces the question tools' input schemas are built from, each worded `expected …, received
 * …` as in every raider tool.
 */
import { z } from 'zod';
import { received } from './tool-input.js';

/** A text that is not blank and at most `max` characters long. */
export const nonEmptyText = (what: string, max: number) =>
  z
    .string({ error: (issue) => `expected ${what}, received ${received(issue.input)}` })
    .refine((s) => s.trim() !== '', { error: (issue) => `expected ${what}, received ${received(issue.input)}` })
    .refine((s) => s.length <= max, {
      error: (issue) => `expected at most ${max} characters, received ${(issue.input as string).length} characters`,
    });

/** A refinement that the items of a list are unique by `key`, naming the first one found twice. */
export const unique = <T>(key: (item: T) => string, what: string) => ({
  check: (items: T[]) => new Set(items.map(key)).size === items.length,
  error: (issue: { input?: unknown }) => {
    const keys = (issue.input as T[]).map(key);
    const twice = keys.find((k, i) => keys.indexOf(k) !== i);
    return `expected ${what} to be unique, received ${received(twice)} twice`;
  },
});

/** The error of a strict object: an unknown key by name, or a value that is no object. */
export const strictError = (issue: { code?: string; keys?: string[]; input?: unknown }) =>
  issue.code === 'unrecognized_keys'
    ? `unknown key ${issue.keys?.map((k) => JSON.stringify(k)).join(', ')}`
    : `expected an object, received ${received(issue.input)}`;
