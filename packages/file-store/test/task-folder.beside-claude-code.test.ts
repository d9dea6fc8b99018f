// raider holders and a Claude Code 2.1.332 process (test/claude-code-writer.mjs, proper-lockfile
// with Claude Code's options) on one folder at once, for a few seconds: creates, renames, status
// changes and deletes on both sides, and the panel's auto-clear of a completed list (after 150 ms
// here, 5 s in Claude Code). What each side was told, or wrote last, is checked against the folder.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TaskTools } from '@raider/todo-tools';
import { describe, expect, it } from 'vitest';
import { openTaskFolder, type TaskFolder } from '../src/index.js';
import { type ClaudeRecord, readBack } from './claude-code-writer.mjs';
import { closedAfter, tempDir } from './cleanup.js';

function open(path: string, options: Parameters<typeof openTaskFolder>[1] = {}): TaskFolder {
  return closedAfter(openTaskFolder(path, options));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The log line of the Claude-like writer process. */
type WriterEntry =
  | { op: 'create'; id: string; subject: string; description: string }
  | { op: 'update'; id: string; changes: { description?: string; status?: string } }
  | { op: 'delete'; id: string; record?: ClaudeRecord }
  | { op: 'delete-without-lock'; id: string }
  | { op: 'reset'; ids: string[]; records: ClaudeRecord[]; mark: number }
  | { op: 'violation'; id: string; what: string }
  | { op: 'failed'; message: string }
  | { op: 'done'; violations: number };

/** Starts the Claude-like writer as a process of its own on `path`; `stop()` ends it and resolves to its log. */
function claudeCodeProcess(path: string, options: object) {
  const script = fileURLToPath(new URL('./claude-code-writer.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, path, JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const entries: WriterEntry[] = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) if (line) entries.push(JSON.parse(line) as WriterEntry);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    entries,
    stop: async () => {
      child.stdin.end();
      expect(await exited).toBe(0);
      return entries;
    },
  };
}

/** A raider holder's random work, its acknowledged changes noted. */
class RaiderAgent {
  readonly tools: TaskTools;
  private counter = 0;

  constructor(
    folder: TaskFolder,
    /** Which tasks' subjects this agent renames (id modulo the number of agents), so each rename has one author. */
    private readonly slot: number,
    private readonly agents: number,
    private readonly acknowledged: Acknowledged,
  ) {
    this.tools = new TaskTools({ store: folder.tasks });
  }

  /** One random call; its answer checked and noted. */
  async step(creating: boolean): Promise<void> {
    const roll = Math.random();
    const tasks = this.tools.tasks();
    const mine = tasks.filter((task) => Number(task.id) % this.agents === this.slot);
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
    this.counter += 1;
    if (creating && (roll < 0.25 || tasks.length === 0)) {
      const subject = `r${this.slot}-c${this.counter}`;
      const answer = await this.tools.createTask({ subject, description: '' });
      const match = /^Task #(\d+) created successfully: (.*)$/.exec(answer.text);
      if (match) {
        this.acknowledged.created.set(match[1] as string, subject);
        this.acknowledged.subjects.set(match[1] as string, subject);
      } else this.noteRefusal(answer.text);
    } else if (roll < 0.6 && mine.length) {
      const task = pick(mine);
      const subject = `r${this.slot}-s${this.counter}`;
      this.note(await this.tools.updateTask({ taskId: task?.id, subject }), task?.id as string, subject);
    } else if (roll < 0.8 && tasks.length) {
      const task = pick(tasks);
      const status = roll < 0.7 ? 'in_progress' : 'completed';
      this.note(await this.tools.updateTask({ taskId: task?.id, status }), task?.id as string);
    } else if (roll < 0.84 && mine.length) {
      const task = pick(mine);
      const answer = await this.tools.updateTask({ taskId: task?.id, status: 'deleted' });
      if (answer.text === `Updated task #${task?.id} deleted`) this.acknowledged.deleted.add(task?.id as string);
      else this.noteRefusal(answer.text);
    } else {
      await this.tools.syncTasks();
    }
  }

  /** Completes every task it knows of, until its list is all completed. */
  async completeAll(): Promise<void> {
    for (let round = 0; round < 200; round += 1) {
      await this.tools.syncTasks();
      const open = this.tools.tasks().filter((task) => task.status !== 'completed');
      if (!open.length) return;
      for (const task of open)
        this.note(await this.tools.updateTask({ taskId: task.id, status: 'completed' }), task.id);
    }
    throw new Error('the list never came to be all completed');
  }

  private note(answer: { text: string; isError: boolean }, id: string, subject?: string): void {
    if (/^Updated task #\d+ /.test(answer.text)) {
      if (subject !== undefined) this.acknowledged.subjects.set(id, subject);
    } else this.noteRefusal(answer.text);
  }

  /** A call that did not change the list: only these answers are expected beside Claude Code. */
  private noteRefusal(text: string): void {
    if (text === 'Task not found') this.acknowledged.notFound += 1;
    else if (/was changed by another writer while this change was being made/.test(text)) {
      this.acknowledged.changedElsewhere += 1;
    } else if (/was deleted by another writer while this change was being made/.test(text)) {
      this.acknowledged.deletedElsewhere += 1;
    } else this.acknowledged.unexpected.push(text);
  }
}

/** What the raider agents were told, and the refusals they got. */
interface Acknowledged {
  created: Map<string, string>;
  /** The last subject each task was acknowledged to have (its create, or a rename). */
  subjects: Map<string, string>;
  deleted: Set<string>;
  notFound: number;
  changedElsewhere: number;
  deletedElsewhere: number;
  unexpected: string[];
}

describe('raider holders beside a Claude Code 2.1.332 process, on one folder at once', () => {
  it("nothing acknowledged is lost, no write lands through Claude Code's task lock, no deleted task comes back, no id repeats", async () => {
    const path = join(tempDir(), 'list');
    const acknowledged: Acknowledged = {
      created: new Map(),
      subjects: new Map(),
      deleted: new Set(),
      notFound: 0,
      changedElsewhere: 0,
      deletedElsewhere: 0,
      unexpected: [],
    };
    // Two watching holders and one that does not watch (it learns only when a change is refused).
    const agents = [open(path), open(path), open(path, { watch: false })].map(
      (folder, slot) => new RaiderAgent(folder, slot, 3, acknowledged),
    );
    await agents[0]?.step(true);
    const claude = claudeCodeProcess(path, { durationMs: 60_000, clearAfterMs: 150, holdMs: 4, pauseMs: 6 });
    const resets = () => claude.entries.filter((entry) => entry.op === 'reset').length;
    let refusedAfterReset = 0;
    /** Every holder creates, renames, moves and deletes tasks beside Claude Code for `ms`. */
    const busy = (ms: number) => {
      const until = Date.now() + ms;
      return Promise.all(
        agents.map(async (agent) => {
          while (Date.now() < until) {
            await agent.step(true);
            await sleep(Math.random() * 4);
          }
        }),
      );
    };
    for (let cycle = 0; cycle < 3; cycle += 1) {
      await busy(700);
      // Settle: all completed, until Claude Code's panel clears the list.
      const before = resets();
      await expect
        .poll(
          async () => {
            if (resets() > before) return true;
            for (const agent of agents) await agent.completeAll();
            return false;
          },
          { timeout: 30_000, interval: 50 },
        )
        .toBe(true);
      // A holder that still remembers a cleared task cannot bring it back.
      for (const agent of agents) {
        const remembered = agent.tools.tasks()[0];
        if (!remembered || existsSync(join(path, `${remembered.id}.json`))) continue;
        const answer = await agent.tools.updateTask({ taskId: remembered.id, subject: 'back from memory' });
        expect(answer.text).not.toMatch(/^Updated task/);
        expect(existsSync(join(path, `${remembered.id}.json`))).toBe(false);
        refusedAfterReset += 1;
      }
    }
    // And a last busy time, so that the folder holds tasks when it is looked at.
    await busy(1000);
    const log = await claude.stop();

    // No raider write landed while Claude Code held that task's lock.
    expect(log.filter((entry) => entry.op === 'violation')).toEqual([]);
    expect(acknowledged.unexpected).toEqual([]);
    // Ids never repeat, across raider's creates and Claude Code's.
    const claudeCreates = log.flatMap((entry) => (entry.op === 'create' ? [entry] : []));
    const ids = [...acknowledged.created.keys(), ...claudeCreates.map((entry) => entry.id)];
    expect(ids.length - new Set(ids).size).toBe(0);
    // What Claude Code deleted (its deletes, its resets) and what raider was told it deleted.
    const goneByClaude = new Set(
      log.flatMap((entry) =>
        entry.op === 'reset'
          ? entry.ids
          : entry.op === 'delete' || entry.op === 'delete-without-lock'
            ? [entry.id]
            : [],
      ),
    );
    const stored = new Map<string, ReturnType<typeof readBack>>();
    for (const name of readdirSync(path).filter((file) => /^\d+\.json$/.test(file))) {
      const id = name.slice(0, -'.json'.length);
      const record = readBack(readFileSync(join(path, name), 'utf8'), id);
      expect(record, `${name} reads back as Claude Code reads it`).toBeDefined();
      stored.set(id, record);
    }
    for (const id of [...goneByClaude, ...acknowledged.deleted]) expect(stored.has(id), `#${id} came back`).toBe(false);
    // Every task as it was last written: at each of Claude Code's deletes and resets (made under a
    // lock raider honours, so nothing raider acknowledged can come after), and at the end. Its
    // subject is the last raider acknowledged (a create or a rename), its description the last
    // Claude Code wrote: neither side's acknowledged change was written over.
    const descriptions = new Map<string, string>();
    for (const id of acknowledged.created.keys()) descriptions.set(id, '');
    let checked = 0;
    const check = (record: ClaudeRecord | undefined, when: string) => {
      if (!record) return;
      checked += 1;
      expect(record.description, `#${record.id}'s description ${when}`).toBe(descriptions.get(record.id));
      if (acknowledged.subjects.has(record.id)) {
        expect(record.subject, `#${record.id}'s subject ${when}`).toBe(acknowledged.subjects.get(record.id));
      }
    };
    for (const entry of log) {
      if (entry.op === 'create') descriptions.set(entry.id, entry.description);
      if (entry.op === 'update' && entry.changes.description !== undefined) {
        descriptions.set(entry.id, entry.changes.description);
      }
      if (entry.op === 'delete') check(entry.record, 'when Claude Code deleted it');
      if (entry.op === 'reset') for (const record of entry.records) check(record, 'when Claude Code cleared the list');
    }
    for (const record of stored.values()) check(record, 'at the end');
    // Every acknowledged create and rename is on disk at the end, unless the task was deleted since.
    for (const [id, subject] of acknowledged.subjects) {
      if (goneByClaude.has(id) || acknowledged.deleted.has(id)) continue;
      expect(stored.get(id)?.subject, `#${id}'s acknowledged subject`).toBe(subject);
    }
    expect(resets()).toBeGreaterThanOrEqual(3);
    // The run did what it is for (no figure asserted beyond that some of each happened).
    expect(acknowledged.created.size).toBeGreaterThan(0);
    expect(log.some((entry) => entry.op === 'update')).toBe(true);
    console.info(
      `beside Claude Code: ${acknowledged.created.size} raider creates, ${acknowledged.subjects.size} tasks renamed or created, ` +
        `${claudeCreates.length} Claude Code creates, ${log.filter((entry) => entry.op === 'update').length} of its updates, ` +
        `${resets()} resets; refused: ${acknowledged.changedElsewhere} changed elsewhere, ${acknowledged.deletedElsewhere} deleted elsewhere, ` +
        `${acknowledged.notFound} not found, ${refusedAfterReset} cleared tasks not brought back; ${checked} records checked`,
    );
  }, 120_000);
});
