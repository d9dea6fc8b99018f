// Types of claude-code-writer.mjs (plain JavaScript, so that the tests can run it as a child process with node alone).

/** A record as Claude Code 2.1.332 keeps it. */
export interface ClaudeRecord {
  id: string;
  subject: string;
  description: string;
  activeForm?: string;
  owner?: string;
  status: 'pending' | 'in_progress' | 'completed';
  blocks: string[];
  blockedBy: string[];
  metadata?: Record<string, unknown>;
}

/** A change found under a task's lock: another writer wrote through it. */
export interface Violation {
  op: 'violation';
  id: string;
  what: string;
  at: number;
}

/** Claude Code's lock retries. */
export const RETRIES: { retries: number; minTimeout: number; maxTimeout: number };

/** A record as Claude Code's reader returns it, or undefined when it does not parse or fit. */
export function readBack(text: string, id: string): ClaudeRecord | undefined;

/** The text Claude Code creates a task with. */
export function createdText(fields: {
  id: string;
  subject: string;
  description: string;
  activeForm?: string;
  metadata?: Record<string, unknown>;
}): string;

/** The text Claude Code writes for an update: the record read back with the changes spread over it. */
export function updatedText(readBack: ClaudeRecord, changes: Partial<ClaudeRecord>): string;

/** Claude Code 2.1.332 on one task folder, instrumented. */
export class ClaudeCodeWriter {
  constructor(dir: string, options?: { holdMs?: number; log?: (entry: object) => void });
  readonly violations: Violation[];
  list(): ClaudeRecord[];
  withListLock<T>(fn: () => Promise<T>): Promise<T>;
  withTaskLock<T>(id: string, fn: (check: (what: string) => void) => Promise<T>): Promise<T>;
  create(fields: {
    subject: string;
    description?: string;
    activeForm?: string;
    metadata?: Record<string, unknown>;
  }): Promise<string>;
  update(id: string, changes: Partial<ClaudeRecord>): Promise<boolean>;
  delete(id: string): Promise<boolean>;
  resetIfAllCompleted(): Promise<string[]>;
  autoClear(clearAfterMs: number): Promise<string[]>;
}

/** Random work on `dir` for `durationMs` (or until `stop.stopped`), one JSON line per thing done on stdout. */
export function runRandomWork(
  dir: string,
  options: { durationMs?: number; clearAfterMs?: number; holdMs?: number; panelMs?: number; pauseMs?: number },
  stop?: { stopped: boolean },
): Promise<void>;
