import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { TaskTools } from '@raider/todo-tools';
import { describeTaskStoreConformance } from '@raider/todo-tools/conformance';
import { describe, expect, it } from 'vitest';
import { closedAfter, tempDir } from '../test/cleanup.js';
import { FOLDER_FILES, openTaskFolder, type TaskFolder } from './index.js';

function open(path: string, options: Parameters<typeof openTaskFolder>[1] = {}): TaskFolder {
  return closedAfter(openTaskFolder(path, options));
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describeTaskStoreConformance(
  'openTaskFolder',
  async () => {
    const path = join(tempDir(), 'list');
    return { handle: () => open(path).tasks };
  },
  { describe, it, expect },
);

describe('the folder, as Claude Code keeps its own', () => {
  it('one file per task holding exactly the record, the lock, and the high-water mark once the highest goes', async () => {
    const path = join(tempDir(), 'list');
    const tools = new TaskTools({ store: open(path).tasks });
    await tools.createTask({ subject: 'Parse', description: 'the input', activeForm: 'Parsing' });
    await tools.createTask({ subject: 'Print', description: '', metadata: { area: 'cli' } });
    await tools.updateTask({ taskId: '2', addBlockedBy: ['1'], owner: 'alice' });
    // Claude Code 2.1.332's own text: JSON.stringify(record, null, 2), no trailing newline; a
    // created record in creation order, an update in the order read back with a first key last.
    const claudeText = (record: object) => JSON.stringify(record, null, 2);
    expect(readFileSync(join(path, '1.json'), 'utf8')).toBe(
      claudeText({
        id: '1',
        subject: 'Parse',
        description: 'the input',
        activeForm: 'Parsing',
        status: 'pending',
        blocks: ['2'],
        blockedBy: [],
      }),
    );
    expect(readFileSync(join(path, '2.json'), 'utf8')).toBe(
      claudeText({
        id: '2',
        subject: 'Print',
        description: '',
        status: 'pending',
        blocks: [],
        blockedBy: ['1'],
        metadata: { area: 'cli' },
        owner: 'alice',
      }),
    );
    // The next update reads the record back: the owner goes where Claude Code's reader puts it.
    await tools.updateTask({ taskId: '2', status: 'in_progress' });
    expect(readFileSync(join(path, '2.json'), 'utf8')).toBe(
      claudeText({
        id: '2',
        subject: 'Print',
        description: '',
        owner: 'alice',
        status: 'in_progress',
        blocks: [],
        blockedBy: ['1'],
        metadata: { area: 'cli' },
      }),
    );
    expect(readdirSync(path).sort()).toEqual(['.lock', FOLDER_FILES.journal, '1.json', '2.json'].sort());
    await tools.updateTask({ taskId: '2', status: 'deleted' });
    expect(readFileSync(join(path, FOLDER_FILES.highWaterMark), 'utf8')).toBe('2');
    expect(readJson(join(path, '1.json')).blocks).toEqual([]);
    const again = new TaskTools({ store: open(path).tasks });
    expect((await again.createTask({ subject: 'Next', description: '' })).text).toBe(
      'Task #3 created successfully: Next',
    );
  });

  it('a folder Claude Code wrote is listed, updated and extended without losing a field; ids go on above its mark', async () => {
    const path = join(tempDir(), 'session-1');
    mkdirSync(path);
    const one = {
      id: '1',
      subject: 'Set up CI',
      description: 'GitHub Actions',
      activeForm: 'Setting up CI',
      owner: 'claude',
      status: 'in_progress',
      blocks: ['2'],
      blockedBy: [],
      metadata: { priority: 'high', nested: { a: [1, 2] } },
    };
    const two = { id: '2', subject: 'Deploy', description: '', status: 'pending', blocks: [], blockedBy: ['1'] };
    writeFileSync(join(path, '1.json'), JSON.stringify(one));
    writeFileSync(join(path, '2.json'), JSON.stringify(two));
    writeFileSync(join(path, '.highwatermark'), '5');
    writeFileSync(join(path, '.lock'), '');
    const tools = new TaskTools({ store: open(path).tasks });
    expect((await tools.createTask({ subject: 'Write docs', description: '' })).text).toBe(
      'Task #6 created successfully: Write docs',
    );
    expect(tools.listTasks()).toBe(
      '#1 [in_progress] Set up CI (claude)\n#2 [pending] Deploy [blocked by #1]\n#6 [pending] Write docs',
    );
    await tools.updateTask({ taskId: '1', status: 'completed' });
    expect(readJson(join(path, '1.json'))).toEqual({ ...one, status: 'completed' });
    expect(readJson(join(path, '2.json'))).toEqual(two);
  });

  it('a task file that cannot be read is reported by name, left untouched, its id never reused; the rest works', async () => {
    const path = join(tempDir(), 'list');
    mkdirSync(path);
    writeFileSync(
      join(path, '1.json'),
      JSON.stringify({ id: '1', subject: 'Fine', description: '', status: 'pending', blocks: [], blockedBy: [] }),
    );
    const broken = '{"id": "2", "subject": "half';
    writeFileSync(join(path, '2.json'), broken);
    writeFileSync(join(path, '3.json'), JSON.stringify({ id: 3, subject: 'numeric id' }));
    symlinkSync('/etc/hostname', join(path, '4.json'));
    const problems: string[] = [];
    const tools = new TaskTools({ store: open(path, { onProblem: (p) => problems.push(p) }).tasks });
    expect((await tools.createTask({ subject: 'New', description: '' })).text).toBe(
      'Task #5 created successfully: New',
    );
    expect(tools.listTasks()).toBe('#1 [pending] Fine\n#5 [pending] New');
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/2\.json: not valid JSON \(28 characters\); left as it is/);
    expect(problems.join('\n')).toContain('3.json: expected "id": "3"');
    expect(problems.join('\n')).toContain('4.json: ');
    expect(problems.join('\n')).toContain('symbolic link');
    expect(readFileSync(join(path, '2.json'), 'utf8')).toBe(broken);
  });

  it('a task another writer adds without the journal (as Claude Code does) is found before a new id is handed out', async () => {
    const path = join(tempDir(), 'list');
    const tools = new TaskTools({ store: open(path, { watch: false }).tasks });
    await tools.createTask({ subject: 'Ours', description: '' });
    writeFileSync(
      join(path, '2.json'),
      JSON.stringify({ id: '2', subject: 'Theirs', description: '', status: 'pending', blocks: [], blockedBy: [] }),
    );
    expect((await tools.createTask({ subject: 'Ours again', description: '' })).text).toBe(
      'Task #3 created successfully: Ours again',
    );
    expect(tools.listTasks()).toBe('#1 [pending] Ours\n#2 [pending] Theirs\n#3 [pending] Ours again');
  });

  it('a change made elsewhere without the journal wakes a watcher and reaches the list', async () => {
    const path = join(tempDir(), 'list');
    const folder = open(path);
    const tools = new TaskTools({ store: folder.tasks });
    await tools.createTask({ subject: 'Ours', description: '' });
    const woke = new Promise<void>((resolve) => folder.watch(resolve));
    writeFileSync(
      join(path, '1.json'),
      JSON.stringify({
        id: '1',
        subject: 'Ours',
        description: '',
        owner: 'bob',
        status: 'completed',
        blocks: [],
        blockedBy: [],
      }),
    );
    await woke;
    expect(await tools.syncTasks()).toBe(true);
    expect(tools.listTasks()).toBe('#1 [completed] Ours (bob)');
  });

  it('the change feed stays bounded; a holder further behind than it reaches loads the list whole', async () => {
    const path = join(tempDir(), 'list');
    const writer = new TaskTools({ store: open(path, { keepChanges: 5 }).tasks });
    const behind = new TaskTools({ store: open(path, { keepChanges: 5, watch: false }).tasks });
    await writer.createTask({ subject: 'A', description: '' });
    expect(behind.getTask('1')).toBe('Task not found');
    await behind.syncTasks();
    for (let i = 0; i < 30; i += 1) await writer.updateTask({ taskId: '1', subject: `A${i}` });
    const lines = readFileSync(join(path, FOLDER_FILES.journal), 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(JSON.parse(lines.at(-1) as string)).toEqual({ seq: 31, put: ['1'], removed: [], highWaterMark: 1 });
    await behind.syncTasks();
    expect(behind.getTask('1')).toContain('Task #1: A29');
  });

  it('the other families keep their whole state in hidden files of the folder', async () => {
    const path = join(tempDir(), 'list');
    const folder = open(path);
    await folder.todoWrite.transact(() => ({
      next: { todos: [{ content: 'A', status: 'pending', activeForm: 'A' }] },
      result: 1,
    }));
    expect(await folder.todoWrite.load()).toEqual({ todos: [{ content: 'A', status: 'pending', activeForm: 'A' }] });
    expect(readdirSync(path)).toContain(FOLDER_FILES.todoWrite);
    writeFileSync(join(path, FOLDER_FILES.todo), 'not json');
    await expect(folder.todo.load()).rejects.toThrow(
      /\.raider-todo\.json: not a JSON object \(8 characters\); fix or remove the file/,
    );
  });
});

describe('the list lock', () => {
  it('a lock a killed process left goes stale and is taken over; a live one is waited for', async () => {
    const path = join(tempDir(), 'list');
    mkdirSync(join(path, '.lock.lock'), { recursive: true });
    writeFileSync(join(path, '.lock'), '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(path, '.lock.lock'), old, old);
    const tools = new TaskTools({ store: open(path, { staleMs: 2000 }).tasks });
    expect((await tools.createTask({ subject: 'After a crash', description: '' })).text).toBe(
      'Task #1 created successfully: After a crash',
    );
    expect(existsSync(join(path, '.lock.lock'))).toBe(false);
    // Held by someone alive (fresh mtime): the call waits until it is released.
    mkdirSync(join(path, '.lock.lock'));
    let done = false;
    const waiting = tools.createTask({ subject: 'Waited', description: '' }).then((answer) => {
      done = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(done).toBe(false);
    rmSync(join(path, '.lock.lock'), { recursive: true });
    expect((await waiting).text).toBe('Task #2 created successfully: Waited');
  });
});
