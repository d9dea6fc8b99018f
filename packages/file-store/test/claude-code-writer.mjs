// A writer that changes a task folder as Claude Code 2.1.332 does, for the tests (see
// /work/shared/reference/claude-code-behaviour.md, "Where Claude Code keeps a task list"):
//
// - create: under the list lock (proper-lockfile on `.lock`, made with `wx` if missing), the id one
//   above the highest file name and `.highwatermark`, then a plain writeFile of `<id>.json`;
// - update: the record read without a lock, then under the task's lock (proper-lockfile on
//   `<id>.json` with `lockfilePath: <id>.json.lock`, `realpath: false`) read again, the changes
//   spread over the record as read back, written to `<id>.json.tmp.<8 hex>` (`wx`) and renamed in;
// - delete: the mark raised under the list lock when the id is above it, the file unlinked under
//   the task's lock (unlinked anyway when that lock cannot be had), the id stripped from the other
//   tasks' links, each a locked update;
// - auto-clear: a non-empty list whose tasks are all completed is reset `clearAfterMs` after it
//   became so (5 s in Claude Code), under the list lock and re-checked there: the mark raised to
//   the highest id, every `*.json` not starting with a dot deleted.
//
// It is instrumented: when it takes a task's lock it notes the file (inode, size, mtime, bytes)
// and, right before it writes or unlinks, checks that nobody changed it meanwhile; a change is a
// violation (another writer wrote through the lock). Used in-process (the class) or as a child
// process: `node claude-code-writer.mjs <folder> '<options as JSON>'`, which runs random work
// for `durationMs` or until its stdin ends, and prints one JSON line per thing it did.
import { randomBytes, randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import lockfile from 'proper-lockfile';

/** Claude Code's lock retries: 30 of 5 to 100 ms (proper-lockfile's stale time, 10 s, otherwise). */
export const RETRIES = { retries: 30, minTimeout: 5, maxTimeout: 100 };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const STATUSES = new Set(['pending', 'in_progress', 'completed']);
const isStrings = (value) => Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * A record as Claude Code's reader returns it: the shape checked, its keys in the schema's order,
 * unknown keys (raider's `claim`) dropped; undefined when the text does not parse or fit.
 */
export function readBack(text, id) {
  let raw;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || raw.id !== id) return undefined;
  if (typeof raw.subject !== 'string' || typeof raw.description !== 'string') return undefined;
  if (!STATUSES.has(raw.status) || !isStrings(raw.blocks) || !isStrings(raw.blockedBy)) return undefined;
  const record = { id, subject: raw.subject, description: raw.description };
  if (typeof raw.activeForm === 'string') record.activeForm = raw.activeForm;
  if (typeof raw.owner === 'string') record.owner = raw.owner;
  record.status = raw.status;
  record.blocks = raw.blocks;
  record.blockedBy = raw.blockedBy;
  if (typeof raw.metadata === 'object' && raw.metadata !== null) record.metadata = raw.metadata;
  return record;
}

/** The text Claude Code creates a task with (`activeForm`, `metadata` only when given; no owner). */
export function createdText({ id, subject, description, activeForm, metadata }) {
  const record = { id, subject, description };
  if (activeForm !== undefined) record.activeForm = activeForm;
  Object.assign(record, { status: 'pending', blocks: [], blockedBy: [] });
  if (metadata !== undefined) record.metadata = metadata;
  return JSON.stringify(record, null, 2);
}

/** The text Claude Code writes for an update: the record read back with the changes spread over it. */
export function updatedText(readBackRecord, changes) {
  return JSON.stringify({ ...readBackRecord, ...changes }, null, 2);
}

/** What a file is right now (inode, size, mtime, bytes), to tell whether anybody changed it. */
function fingerprint(path) {
  try {
    const stat = fs.lstatSync(path, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${fs.readFileSync(path).toString('base64')}`;
  } catch (error) {
    if (error.code === 'ENOENT') return 'missing';
    throw error;
  }
}

/** Claude Code 2.1.332 on one task folder. */
export class ClaudeCodeWriter {
  /**
   * @param {string} dir the list folder
   * @param {{ holdMs?: number, log?: (entry: object) => void }} options `holdMs`: how long, at
   *   most, a task's lock is held before the write (a random part of it), to give another writer
   *   the chance to write through it; `log`: told of each thing done
   */
  constructor(dir, { holdMs = 0, log = () => {} } = {}) {
    this.dir = dir;
    this.holdMs = holdMs;
    this.log = log;
    /** Changes found under a task's lock: another writer wrote through it. */
    this.violations = [];
    this.allCompletedSince = undefined;
  }

  /** The task files as Claude Code's reader lists them: every `*.json` not starting with a dot that reads back. */
  list() {
    let names;
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    const tasks = [];
    for (const name of names) {
      if (!name.endsWith('.json') || name.startsWith('.')) continue;
      const id = name.slice(0, -'.json'.length);
      let text;
      try {
        text = fs.readFileSync(join(this.dir, name), 'utf8');
      } catch {
        continue;
      }
      const record = readBack(text, id);
      if (record) tasks.push(record);
    }
    return tasks.sort((a, b) => Number(a.id) - Number(b.id));
  }

  file(id) {
    return join(this.dir, `${id}.json`);
  }

  highWaterMark() {
    try {
      const value = Number(fs.readFileSync(join(this.dir, '.highwatermark'), 'utf8').trim());
      return Number.isSafeInteger(value) ? value : 0;
    } catch {
      return 0;
    }
  }

  /** Runs `fn` under the list lock, as Claude Code takes it. */
  async withListLock(fn) {
    fs.mkdirSync(this.dir, { recursive: true });
    try {
      fs.writeFileSync(join(this.dir, '.lock'), '', { flag: 'wx' });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    const release = await lockfile.lock(join(this.dir, '.lock'), { retries: RETRIES });
    try {
      return await fn();
    } finally {
      await release();
    }
  }

  /** Runs `fn(check)` under task `id`'s lock, as 2.1.332 takes it; `check()` throws nothing, it records a violation. */
  async withTaskLock(id, fn) {
    const path = this.file(id);
    const release = await lockfile.lock(path, {
      lockfilePath: join(this.dir, `${id}.json.lock`),
      realpath: false,
      retries: RETRIES,
    });
    const seen = fingerprint(path);
    const check = (what) => {
      const now = fingerprint(path);
      if (now !== seen) {
        const violation = { op: 'violation', id, what, at: Date.now() };
        this.violations.push(violation);
        this.log(violation);
      }
    };
    try {
      if (this.holdMs > 0) await sleep(randomInt(this.holdMs + 1));
      return await fn(check);
    } finally {
      await release();
    }
  }

  /** TaskCreate: resolves to the new id. */
  async create({ subject, description = '', activeForm, metadata }) {
    return this.withListLock(async () => {
      const highest = Math.max(this.highWaterMark(), ...this.fileIds());
      const id = String(highest + 1);
      fs.writeFileSync(this.file(id), createdText({ id, subject, description, activeForm, metadata }));
      this.log({ op: 'create', id, subject, description, at: Date.now() });
      return id;
    });
  }

  /** The ids every numeric `*.json` names. */
  fileIds() {
    let names;
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    return names.filter((name) => /^[1-9][0-9]*\.json$/.test(name)).map((name) => Number(name.slice(0, -5)));
  }

  /** TaskUpdate: false when the task is not found (before or under its lock). */
  async update(id, changes) {
    if (!this.readTask(id)) return false;
    return this.withTaskLock(id, async (check) => {
      const record = this.readTask(id);
      if (!record) return false;
      const temporary = join(this.dir, `${id}.json.tmp.${randomBytes(4).toString('hex')}`);
      check('before its write');
      fs.writeFileSync(temporary, updatedText(record, changes), { flag: 'wx' });
      fs.renameSync(temporary, this.file(id));
      this.log({ op: 'update', id, changes, at: Date.now() });
      return true;
    });
  }

  readTask(id) {
    try {
      return readBack(fs.readFileSync(this.file(id), 'utf8'), id);
    } catch {
      return undefined;
    }
  }

  /** TaskUpdate with status deleted, as 2.1.332 makes it. */
  async delete(id) {
    if (Number(id) > this.highWaterMark()) {
      await this.withListLock(async () => {
        if (Number(id) > this.highWaterMark()) fs.writeFileSync(join(this.dir, '.highwatermark'), id);
      });
    }
    const unlink = () => {
      try {
        fs.unlinkSync(this.file(id));
        return true;
      } catch {
        return false;
      }
    };
    // What the file held when it went (for the tests: what was deleted is what was last written).
    let record;
    let deleted;
    try {
      deleted = await this.withTaskLock(id, async (check) => {
        record = this.readTask(id);
        check('before its unlink');
        return unlink();
      });
    } catch (error) {
      if (error.code !== 'ELOCKED') throw error;
      // Claude Code deletes it anyway when the lock cannot be had (and logs it).
      deleted = unlink();
      this.log({ op: 'delete-without-lock', id, at: Date.now() });
    }
    if (deleted) this.log({ op: 'delete', id, record, at: Date.now() });
    for (const task of this.list()) {
      if (task.blocks.includes(id) || task.blockedBy.includes(id)) {
        await this.update(task.id, {
          blocks: task.blocks.filter((other) => other !== id),
          blockedBy: task.blockedBy.filter((other) => other !== id),
        }).catch(() => {});
      }
    }
    return deleted;
  }

  /**
   * The panel's reset of a list whose tasks are all completed, re-checked under the list lock:
   * resolves to the ids deleted (none when a task was not completed).
   */
  async resetIfAllCompleted() {
    return this.withListLock(async () => {
      const tasks = this.list();
      if (tasks.length === 0 || tasks.some((task) => task.status !== 'completed')) return [];
      const ids = this.fileIds();
      const mark = Math.max(this.highWaterMark(), ...ids);
      fs.writeFileSync(join(this.dir, '.highwatermark'), String(mark));
      for (const id of ids) fs.rmSync(this.file(String(id)), { force: true });
      const deleted = ids.map(String);
      this.log({ op: 'reset', ids: deleted, records: tasks, mark, at: Date.now() });
      return deleted;
    });
  }

  /**
   * One look of the panel: a non-empty list all completed for `clearAfterMs` (seen without a lock)
   * is reset. Resolves to the ids the reset deleted.
   */
  async autoClear(clearAfterMs) {
    const tasks = this.list();
    if (tasks.length === 0 || tasks.some((task) => task.status !== 'completed')) {
      this.allCompletedSince = undefined;
      return [];
    }
    this.allCompletedSince ??= Date.now();
    if (Date.now() - this.allCompletedSince < clearAfterMs) return [];
    this.allCompletedSince = undefined;
    return this.resetIfAllCompleted();
  }
}

/**
 * Random work for `durationMs`, as a person with Claude Code's panel open and a model calling its
 * task tools would make it: creates (only while some task is open, so a list can finish), updates
 * of `description` (each value new: `cc-<n>`), completions, deletes, and the panel's auto-clear.
 */
export async function runRandomWork(dir, options, stop = { stopped: false }) {
  const { durationMs = 3000, clearAfterMs = 5000, holdMs = 5, panelMs = 50, pauseMs = 10 } = options;
  const log = (entry) => process.stdout.write(`${JSON.stringify(entry)}\n`);
  const writer = new ClaudeCodeWriter(dir, { holdMs, log });
  const until = Date.now() + durationMs;
  let lastPanel = 0;
  let counter = 0;
  while (Date.now() < until && !stop.stopped) {
    try {
      if (Date.now() - lastPanel >= panelMs) {
        lastPanel = Date.now();
        await writer.autoClear(clearAfterMs);
      }
      const tasks = writer.list();
      const open = tasks.filter((task) => task.status !== 'completed');
      const roll = Math.random();
      if (open.length > 0 && roll < 0.08) {
        counter += 1;
        await writer.create({ subject: `cc-task-${counter}`, description: `cc-${counter}` });
      } else if (tasks.length > 0) {
        const task = tasks[randomInt(tasks.length)];
        counter += 1;
        if (roll < 0.6) await writer.update(task.id, { description: `cc-${counter}` });
        else if (roll < 0.8) await writer.update(task.id, { status: 'completed' });
        else if (roll < 0.84) await writer.delete(task.id);
      }
    } catch (error) {
      // A lock that could not be had within Claude Code's retries: the call fails, as it would there.
      log({ op: 'failed', message: String(error?.message ?? error), code: error?.code, at: Date.now() });
    }
    await sleep(1 + randomInt(pauseMs));
  }
  log({ op: 'done', violations: writer.violations.length, at: Date.now() });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [dir, options = '{}'] = process.argv.slice(2);
  const stop = { stopped: false };
  process.stdin.on('end', () => {
    stop.stopped = true;
  });
  process.stdin.resume();
  await runRandomWork(dir, JSON.parse(options), stop);
  process.stdin.destroy();
}
