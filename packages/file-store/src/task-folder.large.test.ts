// A list of 100 000 tasks works once the limit is raised (the default stays 1 000). A scale check:
// `pnpm test:large` runs it alone, after the unit tests, with budgets for a busy machine.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskTools } from '@raider/todo-tools';
import { afterAll, describe, expect, it } from 'vitest';
import { openTaskFolder } from './index.js';
import { formatTaskFile } from './task-file.js';

const root = mkdtempSync(join(tmpdir(), 'raider-large-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a list of 100 000 tasks', () => {
  it('is read, extended and changed when maxTasks allows it; the default refuses the 1 001st task', async () => {
    const path = join(root, 'large');
    mkdirSync(path);
    for (let i = 1; i <= 100_000; i += 1) {
      const record = {
        id: String(i),
        subject: `Task ${i}`,
        description: '',
        status: 'pending' as const,
        blocks: [],
        blockedBy: [],
      };
      writeFileSync(join(path, `${i}.json`), formatTaskFile(record));
    }
    const folder = openTaskFolder(path);
    try {
      const tools = new TaskTools({ store: folder.tasks, limits: { maxTasks: 100_001 } });
      expect((await tools.createTask({ subject: 'One more', description: '' })).text).toBe(
        'Task #100001 created successfully: One more',
      );
      expect((await tools.updateTask({ taskId: '50000', addBlockedBy: ['100001'] })).text).toBe(
        'Updated task #50000 blockedBy',
      );
      expect(tools.getTask('100001')).toContain('Blocks: #50000');
      expect(tools.listTasks().split('\n')).toHaveLength(100_001);
      expect((await tools.createTask({ subject: 'Too many', description: '' })).text).toBe(
        'Error: the list already holds 100001 tasks, the most it takes (maxTasks 100001); complete and delete tasks first',
      );
      const bounded = new TaskTools({ store: openTaskFolder(path, { watch: false }).tasks });
      expect((await bounded.createTask({ subject: 'Default', description: '' })).text).toMatch(/maxTasks 1000\)/);
    } finally {
      folder.close();
    }
  }, 600_000);
});
