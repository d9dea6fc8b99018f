/**
 * The table of agents from a file (JSON, or TOML for a `.toml` path) or from inline JSON (a value
 * that starts with `{` or `[`, as `RAIDER_AGENTS` may carry it), and a source that re-reads the
 * file when it changes, so agents can be added or revoked without restarting the server.
 */
import { type Stats, unwatchFile, watchFile } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { received } from '@raider/kit/received';
import type { AgentSource, AgentSourceOptions } from './agent-source.js';
import { AgentTable, CredentialsError } from './agent-table.js';

/** How often a watched file is looked at, in ms. */
const FILE_POLL_MS = 1000;

/** Whether `spec` is the table itself (inline JSON) rather than a path. */
export function isInlineTable(spec: string): boolean {
  const start = spec.trimStart()[0];
  return start === '{' || start === '[';
}

/** The format of the file at `path`: TOML for `.toml`, JSON for anything else. */
function formatOf(path: string): 'json' | 'toml' {
  return path.toLowerCase().endsWith('.toml') ? 'toml' : 'json';
}

/** Why the file at `path` could not be read, as one line. */
function readProblem(error: unknown, path: string, label: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const shown = received(path);
  if (code === 'ENOENT') {
    return `${label}: expected an agent table (a JSON or TOML file, or inline JSON starting with { or [), received the path ${shown}, where there is no file`;
  }
  if (code === 'EISDIR') return `${label}: expected an agent table file, received the path ${shown} of a folder`;
  if (code === 'EACCES' || code === 'EPERM') {
    return `${label}: expected an agent table file this server may read, received the path ${shown}, which it may not (${code})`;
  }
  const why = code ?? (error instanceof Error ? error.message.split('\n')[0] : String(error));
  return `${label}: expected an agent table file, received the path ${shown}, which cannot be read (${why})`;
}

/**
 * Reads the table of `spec` (a path, or inline JSON as above), `source` for errors (default: the
 * path, or `inline agent table`; with both, `<source> (<path>)`).
 * @throws CredentialsError when the file cannot be read, does not parse or breaks a rule
 */
export async function readAgentTable(spec: string, source?: string): Promise<AgentTable> {
  if (isInlineTable(spec)) return AgentTable.parse(spec.trim(), 'json', source ?? 'inline agent table');
  const label = source === undefined ? spec : `${source} (${spec})`;
  if (spec.trim() === '') {
    throw new CredentialsError(
      `${source ?? 'agent table'}: expected the path of a JSON or TOML file, or inline JSON starting with { or [, received an empty value`,
    );
  }
  let text: string;
  try {
    text = await readFile(spec, 'utf8');
  } catch (error) {
    throw new CredentialsError(readProblem(error, spec, label));
  }
  return AgentTable.parse(text, formatOf(spec), label);
}

/** Whether a stat of the watched path tells of new content (a write, or another file renamed over it). */
function changed(current: Stats, previous: Stats): boolean {
  return (
    current.mtimeMs !== previous.mtimeMs ||
    current.ino !== previous.ino ||
    current.dev !== previous.dev ||
    current.size !== previous.size
  );
}

/** The message of a failed read, with what happens next. */
function kept(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `${message} (the agent table read before stays in force)`;
}

/**
 * A source for `spec`: the table it holds now, re-read when the file changes. The file is polled
 * by `fs.watchFile` (every `pollMs`, default 1000): a stat of the path, so a file replaced by a
 * rename (as editors and `mv` do) is seen like one written in place, and one that goes away and
 * comes back is read again. A change that does not parse or cannot be read keeps the table in
 * force and calls `onProblem(message)`; a good one calls `onReload(table)`. Inline JSON is read
 * once and never reloads. `source` names the table in errors as in `readAgentTable`.
 * @throws CredentialsError (the promise rejects) when the first read fails
 */
export async function fileAgentSource(
  spec: string,
  options: AgentSourceOptions & { source?: string },
): Promise<AgentSource> {
  if (isInlineTable(spec)) {
    const table = await readAgentTable(spec, options.source);
    return { current: () => table, close: async () => {} };
  }
  let table: AgentTable | undefined;
  let closed = false;
  const reload = async (): Promise<void> => {
    try {
      const next = await readAgentTable(spec, options.source);
      if (closed) return;
      table = next;
      options.onReload?.(next);
    } catch (error) {
      if (!closed) options.onProblem(kept(error));
    }
  };
  // Watching starts before the first read, so a change made while it runs is read after it.
  let reads: Promise<void> = Promise.resolve();
  const listener = (current: Stats, previous: Stats): void => {
    if (changed(current, previous)) reads = reads.then(reload);
  };
  watchFile(spec, { interval: options.pollMs ?? FILE_POLL_MS, persistent: false }, listener);
  const first = readAgentTable(spec, options.source).then((read) => {
    table = read;
  });
  reads = first.catch(() => {});
  try {
    await first;
  } catch (error) {
    unwatchFile(spec, listener);
    throw error;
  }
  return {
    current: () => table as AgentTable,
    close: async () => {
      closed = true;
      unwatchFile(spec, listener);
      await reads;
    },
  };
}
