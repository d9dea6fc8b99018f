// The file store in-process: a write that cannot complete never costs an acknowledged change, a
// file that cannot be trusted is refused without quoting it, and files stay small.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TaskListState, TodoTools } from '@raider/todo-tools';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListIdError } from '../src/errors.js';
import { formatDocument, listFileName, openListFile } from '../src/lists/list-file.js';

// Every fs function passes through to the real one unless a test makes it fail.
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    openSync: vi.fn(real.openSync),
    writeSync: vi.fn(real.writeSync),
    fsyncSync: vi.fn(real.fsyncSync),
    renameSync: vi.fn(real.renameSync),
    closeSync: vi.fn(real.closeSync),
  };
});

afterEach(() => {
  vi.mocked(fs.openSync).mockClear();
  vi.mocked(fs.writeSync).mockClear();
});

const fresh = () => fs.mkdtempSync(join(tmpdir(), 'raider-file-store-'));
const created = /^Task #(\d+) created successfully: (.*)$/;

/** A TodoTools on list `id` of `dir`, as a conversation of raider-server has it. */
const toolsOn = (dir: string, id = 'team') =>
  new TodoTools({ taskStore: openListFile(dir, id).store<TaskListState>('tasks') });

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
  ])('%s: an error answer, the previous file byte for byte, no temporary file left', async (_what, inject) => {
    const dir = fresh();
    const tools = toolsOn(dir);
    expect((await tools.createTask({ subject: 'Kept', description: '' })).text).toBe(
      'Task #1 created successfully: Kept',
    );
    const path = join(dir, listFileName('team'));
    const before = fs.readFileSync(path);
    inject();
    const answer = await tools.createTask({ subject: 'Lost', description: 'x'.repeat(100) });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(
      /^Error: the task list could not be read or saved: .*could not be saved \(\w+\); the previous version is kept/,
    );
    expect(fs.readFileSync(path).equals(before)).toBe(true);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // The list goes on: the next call sees the saved list and saves.
    expect((await tools.createTask({ subject: 'Next', description: '' })).text).toBe(
      'Task #2 created successfully: Next',
    );
    expect(tools.listTasks()).toBe('#1 [pending] Kept\n#2 [pending] Next');
  });

  it('short writes are continued until every byte is on disk', async () => {
    const dir = fresh();
    const real = vi.mocked(fs.writeSync).getMockImplementation() as typeof fs.writeSync;
    // Each write takes at most 7 bytes, as a disk under pressure may.
    vi.mocked(fs.writeSync).mockImplementation(((fd: number, buffer: Buffer, offset: number, length: number) =>
      real(fd, buffer, offset, Math.min(length, 7))) as typeof fs.writeSync);
    try {
      const tools = toolsOn(dir);
      await tools.createTask({ subject: 'Whole', description: 'every byte' });
    } finally {
      vi.mocked(fs.writeSync).mockImplementation(real);
    }
    const saved = JSON.parse(fs.readFileSync(join(dir, listFileName('team')), 'utf8'));
    expect(saved.tasks.tasks[0].content).toBe('Whole');
  });
});

let mounted: string | undefined;
const root = process.getuid?.() === 0;
afterEach(() => {
  if (mounted) execFileSync('umount', [mounted]);
  mounted = undefined;
});

// A real full file system needs a mount: the tests run as root in CI (and on the project's machines).
describe.runIf(root)('a real full disk (a 64 KiB tmpfs)', () => {
  it('every acknowledged create is in the file, which parses; later calls still work', async () => {
    const dir = fresh();
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
    mounted = dir;
    const tools = toolsOn(dir);
    const acknowledged = new Map<string, string>();
    let refused = 0;
    for (let i = 0; i < 400 && refused < 3; i += 1) {
      const subject = `Task ${i} ${'s'.repeat(40)}`;
      const answer = await tools.createTask({ subject, description: 'd'.repeat(300) });
      const match = created.exec(answer.text);
      if (match) acknowledged.set(match[1] as string, subject);
      else {
        expect(answer.text).toMatch(/could not be saved \(ENOSPC\); the previous version is kept/);
        refused += 1;
      }
    }
    expect(refused).toBe(3);
    expect(acknowledged.size).toBeGreaterThan(5);
    const saved = JSON.parse(fs.readFileSync(join(dir, listFileName('team')), 'utf8'));
    const byId = new Map(saved.tasks.tasks.map((t: { id: string; content: string }) => [t.id, t.content]));
    for (const [id, subject] of acknowledged) expect(byId.get(id)).toBe(subject);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // Reads still work on the full disk, and a change that fits (a delete shrinks the file) saves.
    expect(tools.listTasks().split('\n')).toHaveLength(acknowledged.size);
    expect((await tools.updateTask({ taskId: '1', status: 'deleted' })).text).toBe('Updated task #1 deleted');
  }, 60_000);
});

describe('files that must not be trusted', () => {
  it('a list file that is a symbolic link is refused, and no message quotes a file', async () => {
    const dir = fresh();
    const secret = join(dir, 'secret.txt');
    fs.writeFileSync(secret, '{"tasks": {"tasks": [], "nextId": 7}, "password": "hunter2"}');
    fs.symlinkSync(secret, join(dir, listFileName('team')));
    const answer = await toolsOn(dir).createTask({ subject: 'A', description: '' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('is a symbolic link');
    expect(answer.text).not.toContain('hunter2');
    fs.writeFileSync(join(dir, listFileName('broken')), 'root:x:0:0:root:/root:/bin/bash\n');
    const broken = await toolsOn(dir, 'broken').createTask({ subject: 'A', description: '' });
    expect(broken.text).toContain('not valid JSON');
    expect(broken.text).not.toContain('root:x');
  });

  it.each([
    ['a string', '{"tasks":"garbage"}'],
    ['null', '{"tasks":null}'],
    ['an array', '{"tasks":[1,2]}'],
  ])('a section that is %s is an error like any corrupt file, and the file is left as it was', async (_kind, text) => {
    const dir = fresh();
    const path = join(dir, listFileName('team'));
    fs.writeFileSync(path, text);
    const answer = await toolsOn(dir).createTask({ subject: 'A', description: '' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('its "tasks" section: expected an object');
    expect(fs.readFileSync(path, 'utf8')).toBe(text);
  });

  it('a UTF-8 byte order mark is accepted', async () => {
    const dir = fresh();
    const path = join(dir, listFileName('team'));
    const list = {
      tasks: {
        tasks: [
          {
            id: '1',
            content: 'From an editor',
            status: 'pending',
            activeForm: 'x',
            description: '',
            blocks: [],
            blockedBy: [],
          },
        ],
        nextId: 2,
      },
    };
    fs.writeFileSync(path, `\ufeff${JSON.stringify(list)}`);
    const tools = toolsOn(dir);
    expect((await tools.createTask({ subject: 'B', description: '' })).text).toBe('Task #2 created successfully: B');
    expect(tools.listTasks()).toBe('#1 [pending] From an editor\n#2 [pending] B');
  });

  it('a list id whose file name would pass 255 bytes is refused when named', () => {
    expect(() => listFileName('任'.repeat(28))).toThrow(ListIdError);
    expect(() => listFileName('任'.repeat(28))).toThrow(/fits in 255 bytes/);
    expect(listFileName('任'.repeat(20))).toMatch(/\.json$/);
  });
});

describe('the file format', () => {
  it('stays within 2x of compact JSON however deep a value nests, one task a line', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 30; i += 1) deep = [deep, { k: deep === 'leaf' ? 1 : 2 }];
    const tasks = Array.from({ length: 30 }, (_, i) => ({ id: String(i + 1), content: `T${i}`, metadata: { deep } }));
    const doc = { list: 'team', updatedAt: '2026-11-30T00:00:00.000Z', tasks: { tasks, nextId: 31 } };
    const text = formatDocument(doc);
    expect(JSON.parse(text)).toEqual(doc);
    expect(text.length).toBeLessThanOrEqual(2 * JSON.stringify(doc).length);
    expect(text.split('\n').filter((line) => line.includes('"content"'))).toHaveLength(30);
  });
});
