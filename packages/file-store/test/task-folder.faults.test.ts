// The folder store under faults: a write that cannot complete never costs an acknowledged change
// and leaves the files as they were; a file that cannot be trusted is refused without quoting it.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskTools, MAX_TASK_ID as TOOLS_MAX_TASK_ID } from '@raider/todo-tools';
import lockfile from 'proper-lockfile';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListIdError, listFolderName, openList, type TaskFolder } from '../src/index.js';
import { MAX_TASK_ID } from '../src/task-file.js';
import { taskRecord } from './task-record.js';

// Every fs function passes through to the real one unless a test makes it fail.
vi.mock('node:fs', async (importOriginal) =>
  (await import('./spied-fs.js')).spiedFs(await importOriginal(), [
    'openSync',
    'writeSync',
    'fsyncSync',
    'renameSync',
    'closeSync',
  ]),
);

const opened: TaskFolder[] = [];
afterEach(() => {
  vi.mocked(fs.openSync).mockClear();
  vi.mocked(fs.writeSync).mockClear();
  for (const folder of opened.splice(0)) folder.close();
});

const fresh = () => fs.mkdtempSync(join(tmpdir(), 'raider-file-faults-'));
const created = /^Task #(\d+) created successfully: (.*)$/;

/** A TaskTools on list `id` of `dir`, as a conversation of raider-server has it. */
function toolsOn(dir: string, id = 'team'): TaskTools {
  const folder = openList(dir, id);
  opened.push(folder);
  return new TaskTools({ store: folder.tasks });
}

/** Every file of a folder and its bytes (the locks left out). */
const snapshotOf = (path: string) =>
  Object.fromEntries(
    fs
      .readdirSync(path)
      .filter((name) => !name.startsWith('.lock') && !name.endsWith('.lock'))
      .map((name) => [name, fs.readFileSync(join(path, name)).toString('base64')]),
  );

const failure = (code: string) => () => {
  throw Object.assign(new Error(`${code}: injected`), { code });
};

describe('a write that cannot complete', () => {
  it.each([
    ['the write fails (ENOSPC)', () => vi.mocked(fs.writeSync).mockImplementationOnce(failure('ENOSPC'))],
    [
      'a write makes no progress (a short write that stops)',
      () => vi.mocked(fs.writeSync).mockImplementationOnce(() => 0),
    ],
    ['fsync fails (EIO)', () => vi.mocked(fs.fsyncSync).mockImplementationOnce(failure('EIO'))],
    ['the file cannot be created (EROFS)', () => vi.mocked(fs.openSync).mockImplementationOnce(failure('EROFS'))],
    ['the rename fails (EXDEV)', () => vi.mocked(fs.renameSync).mockImplementationOnce(failure('EXDEV'))],
    [
      // Both task files renamed in already: they are put back.
      "the change feed's line cannot be written after the files are renamed in (ENOSPC)",
      () => {
        const real = vi.mocked(fs.writeSync).getMockImplementation() as typeof fs.writeSync;
        vi.mocked(fs.writeSync)
          .mockImplementationOnce(real)
          .mockImplementationOnce(real)
          .mockImplementationOnce(failure('ENOSPC'));
      },
    ],
    [
      "the folder's fsync fails after everything was written (EIO)",
      () => {
        const real = vi.mocked(fs.fsyncSync).getMockImplementation() as typeof fs.fsyncSync;
        vi.mocked(fs.fsyncSync)
          .mockImplementationOnce(real)
          .mockImplementationOnce(real)
          .mockImplementationOnce(failure('EIO'));
      },
    ],
  ])('%s: an error answer, every file byte for byte, no temporary file left', async (_what, inject) => {
    const dir = fresh();
    const tools = toolsOn(dir);
    expect((await tools.createTask({ subject: 'Kept', description: '' })).text).toBe(
      'Task #1 created successfully: Kept',
    );
    await tools.createTask({ subject: 'Also kept', description: '' });
    const path = join(dir, 'team');
    const before = snapshotOf(path);
    inject();
    // A change of two files (a dependency is written on both ends): neither may change alone.
    const answer = await tools.updateTask({ taskId: '2', addBlockedBy: ['1'] });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(
      /^Error: the task list could not be read or saved: .*(could not be saved|cannot be created) \(\w+\); nothing was changed$/,
    );
    expect(snapshotOf(path)).toEqual(before);
    // The list goes on: the next call sees the saved list and saves.
    expect((await tools.createTask({ subject: 'Next', description: '' })).text).toBe(
      'Task #3 created successfully: Next',
    );
    expect(tools.listTasks()).toBe('#1 [pending] Kept\n#2 [pending] Also kept\n#3 [pending] Next');
  });

  it('a change renamed in that cannot be taken back: the answer says it may have been saved, never that nothing changed', async () => {
    const dir = fresh();
    const tools = toolsOn(dir);
    await tools.createTask({ subject: 'Kept', description: '' });
    await tools.createTask({ subject: 'Also kept', description: '' });
    const real = vi.mocked(fs.renameSync).getMockImplementation() as typeof fs.renameSync;
    const writeReal = vi.mocked(fs.writeSync).getMockImplementation() as typeof fs.writeSync;
    // Two files renamed in, the feed's line fails, and putting the first file back fails too.
    vi.mocked(fs.writeSync)
      .mockImplementationOnce(writeReal)
      .mockImplementationOnce(writeReal)
      .mockImplementationOnce(failure('ENOSPC'));
    vi.mocked(fs.renameSync)
      .mockImplementationOnce(real)
      .mockImplementationOnce(real)
      .mockImplementationOnce(failure('EIO'));
    const answer = await tools.updateTask({ taskId: '2', addBlockedBy: ['1'] });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(
      /^Error: the task list change may have been saved, or not: .*: the change was made in part and could not be taken back \(ENOSPC\); read the list before trying again$/,
    );
    // The next call reads what is there, whatever it is, and goes on.
    expect((await tools.createTask({ subject: 'Next', description: '' })).text).toBe(
      'Task #3 created successfully: Next',
    );
    expect(fs.readdirSync(join(dir, 'team')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('short writes are continued until every byte is on disk', async () => {
    const dir = fresh();
    const real = vi.mocked(fs.writeSync).getMockImplementation() as typeof fs.writeSync;
    // Each write takes at most 7 bytes, as a disk under pressure may.
    vi.mocked(fs.writeSync).mockImplementation(((fd: number, buffer: Buffer, offset: number, length: number) =>
      real(fd, buffer, offset, Math.min(length, 7))) as typeof fs.writeSync);
    try {
      await toolsOn(dir).createTask({ subject: 'Whole', description: 'every byte' });
    } finally {
      vi.mocked(fs.writeSync).mockImplementation(real);
    }
    expect(JSON.parse(fs.readFileSync(join(dir, 'team', '1.json'), 'utf8')).subject).toBe('Whole');
  });
});

/** Takes task `id`'s lock over as another process would once it found it stale: a new lock folder, its mtime its own. */
function takeOver(lockDir: string): void {
  fs.rmdirSync(lockDir);
  fs.mkdirSync(lockDir);
  const now = new Date();
  fs.utimesSync(lockDir, now, now);
}

describe("a task's lock (<id>.json.lock) during a commit", () => {
  it('is held while the task file is renamed in: Claude Code, asking proper-lockfile, finds it locked', async () => {
    const dir = fresh();
    const tools = toolsOn(dir);
    await tools.createTask({ subject: 'A', description: '' });
    const path = join(dir, 'team');
    const real = vi.mocked(fs.renameSync).getMockImplementation() as typeof fs.renameSync;
    const lockedAtRename: boolean[] = [];
    vi.mocked(fs.renameSync).mockImplementation((from, to) => {
      if (String(to) === join(path, '1.json')) {
        lockedAtRename.push(
          lockfile.checkSync(join(path, '1.json'), { lockfilePath: join(path, '1.json.lock'), realpath: false }),
        );
      }
      return real(from, to);
    });
    try {
      expect((await tools.updateTask({ taskId: '1', status: 'in_progress' })).text).toBe('Updated task #1 status');
    } finally {
      vi.mocked(fs.renameSync).mockImplementation(real);
    }
    expect(lockedAtRename).toEqual([true]);
    expect(fs.existsSync(join(path, '1.json.lock'))).toBe(false);
  });

  it('taken over before the task file is renamed in: nothing is written through it, and the answer says nothing was changed', async () => {
    const dir = fresh();
    const tools = toolsOn(dir);
    await tools.createTask({ subject: 'A', description: '' });
    const path = join(dir, 'team');
    const before = snapshotOf(path);
    const real = vi.mocked(fs.fsyncSync).getMockImplementation() as typeof fs.fsyncSync;
    // While the new version is being written, another process takes the task's lock over.
    vi.mocked(fs.fsyncSync).mockImplementationOnce((fd) => {
      takeOver(join(path, '1.json.lock'));
      return real(fd);
    });
    const answer = await tools.updateTask({ taskId: '1', status: 'in_progress' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(
      /the lock of task 1 was lost while the change was being made \(another process holds it now: .*or someone removed 1\.json\.lock\); nothing was changed$/,
    );
    expect(snapshotOf(path)).toEqual(before);
    // The other process's lock is left to it.
    expect(fs.existsSync(join(path, '1.json.lock'))).toBe(true);
    fs.rmdirSync(join(path, '1.json.lock'));
    expect((await tools.updateTask({ taskId: '1', status: 'in_progress' })).text).toBe('Updated task #1 status');
  });

  it('taken over after the task file was renamed in: the answer says the change may have been saved', async () => {
    const dir = fresh();
    const tools = toolsOn(dir);
    await tools.createTask({ subject: 'A', description: '' });
    const path = join(dir, 'team');
    const real = vi.mocked(fs.renameSync).getMockImplementation() as typeof fs.renameSync;
    vi.mocked(fs.renameSync).mockImplementationOnce((from, to) => {
      real(from, to);
      takeOver(join(path, '1.json.lock'));
    });
    const answer = await tools.updateTask({ taskId: '1', status: 'in_progress' });
    expect(answer.text).toMatch(
      /^Error: the task list change may have been saved, or not: .*the lock of task 1 was lost while the change was being made .*; it may have been saved, in part or whole; read the list before trying again$/,
    );
    fs.rmdirSync(join(path, '1.json.lock'));
  });
});

let mounted: string | undefined;
const root = process.getuid?.() === 0;
afterEach(() => {
  if (mounted) execFileSync('umount', [mounted]);
  mounted = undefined;
});

// A real full file system needs a mount: the tests run as root in CI (and on the project's machines).
describe.runIf(root)('a real full disk (a small tmpfs)', () => {
  it('every acknowledged create is in the folder and parses; later calls still work', async () => {
    const dir = fresh();
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
    mounted = dir;
    const tools = toolsOn(dir);
    const acknowledged = new Map<string, string>();
    // Creates answered "nothing was changed": none of them may be in the list (a model retries them).
    const refusedSubjects: string[] = [];
    for (let i = 0; i < 400 && refusedSubjects.length < 12; i += 1) {
      const subject = `Task ${i} ${'s'.repeat(40)}`;
      const answer = await tools.createTask({ subject, description: 'd'.repeat(300) });
      const match = created.exec(answer.text);
      if (match) acknowledged.set(match[1] as string, subject);
      else {
        expect(answer.text).toMatch(/could not be saved \(ENOSPC\); nothing was changed/);
        refusedSubjects.push(subject);
      }
    }
    expect(refusedSubjects).toHaveLength(12);
    expect(acknowledged.size).toBeGreaterThan(5);
    const reread = toolsOn(dir);
    await reread.syncTasks();
    for (const [id, subject] of acknowledged) expect(reread.getTask(id)).toContain(`Task #${id}: ${subject}`);
    const stored = fs
      .readdirSync(join(dir, 'team'))
      .filter((name) => /^\d+\.json$/.test(name))
      .map((name) => JSON.parse(fs.readFileSync(join(dir, 'team', name), 'utf8')).subject as string);
    expect(stored.filter((subject) => refusedSubjects.includes(subject))).toEqual([]);
    expect(stored).toHaveLength(acknowledged.size);
    expect(fs.readdirSync(join(dir, 'team')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // Reads still work on the full disk, and a change that frees room saves.
    expect(tools.listTasks().split('\n')).toHaveLength(acknowledged.size);
    expect((await tools.updateTask({ taskId: '1', status: 'deleted' })).text).toBe('Updated task #1 deleted');
  }, 60_000);

  it('one page left: a create whose change-feed line finds no room is taken back, never left in the list', async () => {
    const dir = fresh();
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir]);
    mounted = dir;
    const tools = toolsOn(dir);
    for (const subject of ['A', 'B']) await tools.createTask({ subject, description: '' });
    const path = join(dir, 'team');
    const journal = join(path, '.raider-changes.jsonl');
    // The feed's last page full (a foreign line pads it: readers skip it), so its next line needs a
    // page of its own; then the disk filled, and one page given back: the task file takes it.
    const size = fs.statSync(journal).size;
    fs.appendFileSync(journal, `${' '.repeat(4096 - (size % 4096) - 1)}\n`);
    const filler = join(dir, 'filler');
    const chunk = Buffer.alloc(4096, 1);
    const fd = fs.openSync(filler, 'w');
    try {
      for (;;) fs.writeSync(fd, chunk);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      fs.closeSync(fd);
    }
    fs.truncateSync(filler, fs.statSync(filler).size - 4096);
    const before = snapshotOf(path);
    for (let i = 0; i < 5; i += 1) {
      const answer = await tools.createTask({ subject: `Refused ${i}`, description: '' });
      expect(answer.text).toMatch(/could not be saved \(ENOSPC\); nothing was changed$/);
      expect(snapshotOf(path)).toEqual(before);
    }
    // Room again: the next create is saved, with the next id (the refused ones took none).
    fs.rmSync(filler);
    expect((await tools.createTask({ subject: 'C', description: '' })).text).toBe('Task #3 created successfully: C');
    const reread = toolsOn(dir);
    await reread.syncTasks();
    expect(reread.listTasks()).toBe('#1 [pending] A\n#2 [pending] B\n#3 [pending] C');
  }, 60_000);
});

describe('files that must not be trusted', () => {
  it('a v1 list file that is a symbolic link is refused, and no message quotes a file', async () => {
    const dir = fresh();
    const secret = join(dir, 'secret.txt');
    fs.writeFileSync(secret, '{"tasks": {"tasks": [], "nextId": 7}, "password": "hunter2"}');
    fs.symlinkSync(secret, join(dir, 'team.json'));
    const answer = await toolsOn(dir).createTask({ subject: 'A', description: '' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('is a symbolic link');
    expect(answer.text).not.toContain('hunter2');
    fs.writeFileSync(join(dir, 'broken.json'), 'root:x:0:0:root:/root:/bin/bash\n');
    const broken = await toolsOn(dir, 'broken').createTask({ subject: 'A', description: '' });
    expect(broken.text).toContain('not valid JSON');
    expect(broken.text).not.toContain('root:x');
  });

  it.each([
    ['a string', '{"tasks":"garbage"}'],
    ['null', '{"tasks":null}'],
    ['an array', '{"tasks":[1,2]}'],
  ])(
    'a v1 tasks section that is %s is an error like any corrupt file, and the file is left as it was',
    async (_kind, text) => {
      const dir = fresh();
      const path = join(dir, 'team.json');
      fs.writeFileSync(path, text);
      const answer = await toolsOn(dir).createTask({ subject: 'A', description: '' });
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain('its "tasks" section: expected {tasks: [...], nextId}');
      expect(fs.readFileSync(path, 'utf8')).toBe(text);
    },
  );

  it("the folder's bound on ids is the task tools' own", () => {
    expect(MAX_TASK_ID).toBe(TOOLS_MAX_TASK_ID);
  });

  it('a .highwatermark near 2^53: the last safe id is handed out, then creates are refused, no loop', async () => {
    const dir = fresh();
    fs.mkdirSync(join(dir, 'team'));
    fs.writeFileSync(join(dir, 'team', '.highwatermark'), '9007199254740990');
    const tools = toolsOn(dir);
    expect((await tools.createTask({ subject: 'Last', description: '' })).text).toBe(
      'Task #9007199254740991 created successfully: Last',
    );
    for (let i = 0; i < 3; i += 1) {
      expect((await tools.createTask({ subject: 'More', description: '' })).text).toBe(
        'Error: the list has handed out every id up to 9007199254740991, the highest a task list can hand out; start a new list',
      );
    }
    // A restarted holder reads the same and refuses the same.
    expect((await toolsOn(dir).createTask({ subject: 'Again', description: '' })).text).toMatch(
      /^Error: the list has handed out every id up to 9007199254740991/,
    );
    expect(fs.readdirSync(join(dir, 'team')).filter((name) => name.endsWith('.json'))).toEqual([
      '9007199254740991.json',
    ]);
  });

  it('a .highwatermark beyond 2^53 is reported and taken as every id used: creates refused, the file left as it is', async () => {
    const dir = fresh();
    fs.mkdirSync(join(dir, 'team'));
    fs.writeFileSync(join(dir, 'team', '.highwatermark'), '123456789012345678901234567890');
    const problems: string[] = [];
    const folder = openList(dir, 'team', { onProblem: (problem) => problems.push(problem) });
    opened.push(folder);
    const tools = new TaskTools({ store: folder.tasks });
    expect((await tools.createTask({ subject: 'A', description: '' })).text).toMatch(
      /^Error: the list has handed out every id up to 9007199254740991/,
    );
    expect(problems.join('\n')).toContain(
      '.highwatermark: a 30-digit number is beyond 9007199254740991, the highest id a list hands out; left as it is, and no new id is handed out',
    );
    expect(fs.readFileSync(join(dir, 'team', '.highwatermark'), 'utf8')).toBe('123456789012345678901234567890');
  });

  it('a task file named beyond 2^53 (9999999999999999.json) is reported and left out; creates go on, after a restart too', async () => {
    const dir = fresh();
    fs.mkdirSync(join(dir, 'team'));
    const record = taskRecord('9999999999999999', { subject: 'Huge' });
    fs.writeFileSync(join(dir, 'team', '9999999999999999.json'), JSON.stringify(record));
    const problems: string[] = [];
    const open = () => {
      const folder = openList(dir, 'team', { onProblem: (problem) => problems.push(problem) });
      opened.push(folder);
      return new TaskTools({ store: folder.tasks });
    };
    const tools = open();
    expect((await tools.createTask({ subject: 'A', description: '' })).text).toBe('Task #1 created successfully: A');
    expect((await tools.createTask({ subject: 'B', description: '' })).text).toBe('Task #2 created successfully: B');
    expect((await open().createTask({ subject: 'C', description: '' })).text).toBe('Task #3 created successfully: C');
    expect(problems[0]).toMatch(
      /9999999999999999\.json: its id is beyond 9007199254740991, the highest id a list hands out; left as it is, and out of the list$/,
    );
    expect(tools.listTasks()).toBe('#1 [pending] A\n#2 [pending] B');
  });

  it('a UTF-8 byte order mark is accepted in a task file and in a v1 file', async () => {
    const dir = fresh();
    fs.mkdirSync(join(dir, 'team'));
    const record = taskRecord('1', { subject: 'From an editor' });
    fs.writeFileSync(join(dir, 'team', '1.json'), `\ufeff${JSON.stringify(record)}`);
    const tools = toolsOn(dir);
    expect((await tools.createTask({ subject: 'B', description: '' })).text).toBe('Task #2 created successfully: B');
    expect(tools.listTasks()).toBe('#1 [pending] From an editor\n#2 [pending] B');
    fs.writeFileSync(join(dir, 'old.json'), `\ufeff${JSON.stringify({ tasks: { tasks: [], nextId: 4 } })}`);
    expect((await toolsOn(dir, 'old').createTask({ subject: 'C', description: '' })).text).toBe(
      'Task #4 created successfully: C',
    );
  });

  it('a list id whose folder name would pass 255 bytes is refused when named', () => {
    expect(() => listFolderName('任'.repeat(28))).toThrow(ListIdError);
    expect(() => listFolderName('任'.repeat(28))).toThrow(/fits in 255 bytes/);
    expect(listFolderName('任'.repeat(20))).toMatch(/^(%[0-9A-F]{2})+$/);
  });

  it('refuses hostile list ids', () => {
    for (const id of ['../x', '..', '.', '/etc/passwd', 'a/b', 'a\\b', 'a\u0000b', '']) {
      expect(() => listFolderName(id)).toThrow(/would escape the data dir/);
    }
    expect(() => openList('/tmp/d', '../../etc/passwd')).toThrow(/would escape/);
    expect(listFolderName('my list: ünï')).toBe('my%20list%3A%20%C3%BCn%C3%AF');
    expect(listFolderName('.hidden')).toBe('%2Ehidden');
    expect(listFolderName('v1.2')).toBe('v1.2');
  });
});

describe('the file format', () => {
  it("a task file is Claude Code's text (JSON.stringify(record, null, 2), no trailing newline) however deep its metadata nests", async () => {
    const dir = fresh();
    let deep: unknown = 'leaf';
    for (let i = 0; i < 15; i += 1) deep = [deep, { k: deep === 'leaf' ? 1 : 2 }];
    const tools = toolsOn(dir);
    await tools.createTask({ subject: 'Deep', description: '', metadata: { deep } });
    const text = fs.readFileSync(join(dir, 'team', '1.json'), 'utf8');
    expect(text).toBe(
      JSON.stringify(
        { id: '1', subject: 'Deep', description: '', status: 'pending', blocks: [], blockedBy: [], metadata: { deep } },
        null,
        2,
      ),
    );
    expect(text.endsWith('}')).toBe(true);
  });
});
