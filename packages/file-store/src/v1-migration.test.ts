import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskTools, TodoTool } from '@raider/todo-tools';
import { describe, expect, it } from 'vitest';
import { closedAfter, tempDir } from '../test/cleanup.js';
import { FOLDER_FILES, listFolderName, openList, type TaskFolder } from './index.js';

const FIXTURE = new URL('../test/fixtures/v1/', import.meta.url).pathname;
const V1_ID = 'team alpha:β';
const V1_FILE = 'team%20alpha%3A%CE%B2.json';

function dataDirWithV1(): string {
  const dir = tempDir('raider-v1-');
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

function open(dataDir: string): TaskFolder {
  return closedAfter(openList(dataDir, V1_ID));
}

describe('a list file of the first layout (written by raider-server before the folders)', () => {
  it('is converted once into the folder, every family kept, and kept beside it as a backup', async () => {
    const dataDir = dataDirWithV1();
    const original = readFileSync(join(dataDir, V1_FILE), 'utf8');
    const folder = open(dataDir);
    const tools = new TaskTools({ store: folder.tasks });
    expect((await tools.createTask({ subject: 'After', description: '' })).text).toBe(
      'Task #5 created successfully: After',
    );
    expect(tools.listTasks()).toBe(
      '#1 [in_progress] Parse the input\n#2 [pending] Print the report (alice) [blocked by #1]\n#3 [pending] Ship it [blocked by #2]\n#5 [pending] After',
    );
    const path = join(dataDir, listFolderName(V1_ID));
    expect(JSON.parse(readFileSync(join(path, '2.json'), 'utf8'))).toEqual({
      id: '2',
      subject: 'Print the report',
      description: '',
      owner: 'alice',
      status: 'pending',
      blocks: ['3'],
      blockedBy: ['1'],
      metadata: { area: 'cli', deep: { list: [1, null, 'x'] } },
    });
    expect(JSON.parse(readFileSync(join(path, '1.json'), 'utf8')).activeForm).toBe('Parsing the input');
    expect(await folder.todoWrite.load()).toEqual({
      todos: [
        { content: 'Write tests', status: 'in_progress', activeForm: 'Writing tests' },
        { content: 'Refactor', status: 'pending', activeForm: 'Refactor' },
      ],
    });
    const todo = new TodoTool({ store: folder.todo });
    expect((await todo.callAsync({ action: 'list' })).content[0].text).toBe(
      '[pending] #1 rpiv task\n[pending] #2 second ⛓ #1',
    );
    expect(existsSync(join(dataDir, V1_FILE))).toBe(false);
    expect(readFileSync(join(dataDir, `${V1_FILE}.v1-backup`), 'utf8')).toBe(original);
    expect(readdirSync(dataDir).sort()).toEqual([`${V1_FILE}.v1-backup`, listFolderName(V1_ID)].sort());
    // Once: a second open works on the folder alone.
    const again = new TaskTools({ store: open(dataDir).tasks });
    expect((await again.createTask({ subject: 'Later', description: '' })).text).toBe(
      'Task #6 created successfully: Later',
    );
  });

  it('one that cannot be converted is left byte for byte, and every call says why', async () => {
    const dataDir = dataDirWithV1();
    const broken = '{"tasks": {"tasks": [{"id": "1", "content": 7}]}}';
    writeFileSync(join(dataDir, V1_FILE), broken);
    const tools = new TaskTools({ store: open(dataDir).tasks });
    const answer = await tools.createTask({ subject: 'A', description: '' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain(`${V1_FILE}: its task #1: expected "subject" to be a string; fix or remove the file`);
    expect(readFileSync(join(dataDir, V1_FILE), 'utf8')).toBe(broken);
    expect(existsSync(join(dataDir, listFolderName(V1_ID), '1.json'))).toBe(false);
    writeFileSync(join(dataDir, V1_FILE), '{"tasks": {"tasks": [], "nextId": 3}}');
    expect((await tools.createTask({ subject: 'A', description: '' })).text).toBe('Task #3 created successfully: A');
  });

  it('the folder keeps the file names of ids that are not safe as they are', () => {
    expect(listFolderName(V1_ID)).toBe(V1_FILE.replace(/\.json$/, ''));
    expect(listFolderName('session-1_A')).toBe('session-1_A');
    expect(FOLDER_FILES.lock).toBe('.lock');
  });
});
