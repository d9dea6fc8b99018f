// The board's model in milliseconds, with stand-in pages.
import type { ServerResponse } from 'node:http';
import { HOSTILE_STRINGS } from '@raider/kit/hostile-strings';
import { oneLine } from '@raider/kit/shown-text';
import { describe, expect, it } from 'vitest';
import { Board, boardTasks, MAX_UNSENT_BYTES } from './board.js';
import { InboxRegistry } from './conversation-inboxes.js';

/** A page's response that never reads: what is written piles up in writableLength. */
function stalledPage() {
  let unsent = 0;
  let destroyed = false;
  const closers: (() => void)[] = [];
  const res = {
    writeHead: () => res,
    write: (data: string) => {
      unsent += Buffer.byteLength(data);
      return false;
    },
    on: (event: string, fn: () => void) => {
      if (event === 'close') closers.push(fn);
      return res;
    },
    end: () => {},
    destroy: () => {
      destroyed = true;
      for (const fn of closers) fn();
    },
    get writableLength() {
      return unsent;
    },
  };
  return { res: res as unknown as ServerResponse, destroyed: () => destroyed, unsent: () => unsent };
}

describe('the board model', () => {
  it('drops a page that reads nothing once its unsent data passes 1 MiB; a reading page stays', async () => {
    const conversation = {
      listId: 'big',
      family: 'tasks',
      work: () => [],
      listState: async () => ({
        family: 'tasks',
        tasks: Array.from({ length: 1000 }, (_, i) => ({
          id: String(i + 1),
          content: `Task ${i + 1} ${'x'.repeat(40)}`,
          status: 'pending',
          blockedBy: [],
        })),
      }),
    };
    const board = new Board(() => [['s1', conversation as never]], new InboxRegistry());
    const stalled = stalledPage();
    const reading = stalledPage();
    await board.attach(stalled.res);
    await board.attach(reading.res);
    for (let update = 0; update < 400 && !stalled.destroyed(); update += 1) {
      // A page that reads has nothing waiting.
      Object.defineProperty(reading.res, 'writableLength', { value: 0, configurable: true });
      await (board as unknown as { broadcast(): Promise<void> }).broadcast();
    }
    expect(stalled.destroyed()).toBe(true);
    expect(stalled.unsent()).toBeLessThan(MAX_UNSENT_BYTES + 200_000);
    expect(reading.destroyed()).toBe(false);
    expect(board.open).toBe(true);
    board.close();
  });

  it("shows a task's activeForm only in progress and only when it is not its subject again", () => {
    const task = (id: string, content: string, status: string, activeForm?: string) => ({
      id,
      content,
      status,
      blockedBy: [],
      ...(activeForm === undefined ? {} : { activeForm }),
    });
    const tasks = boardTasks({
      family: 'tasks',
      tasks: [
        task('1', 'Write the parser', 'in_progress', 'Write the parser'),
        task('2', 'Run the tests', 'in_progress', 'Running the tests'),
        task('3', 'Ship it', 'pending', 'Shipping it'),
      ],
    });
    expect(tasks.map((t) => [t.id, t.activeForm])).toEqual([
      ['1', undefined],
      ['2', 'Running the tests'],
      ['3', undefined],
    ]);
    expect(tasks[0]).not.toHaveProperty('activeForm');
    const todos = boardTasks({
      family: 'todo_write',
      todos: [
        { content: 'Lint', status: 'in_progress', activeForm: 'Lint' },
        { content: 'Build', status: 'in_progress', activeForm: 'Building' },
      ],
    });
    expect(todos.map((t) => t.activeForm)).toEqual([undefined, 'Building']);
  });

  it("a task's title, activeForm and owner are one line each, whatever they hold", () => {
    for (const { name, text } of HOSTILE_STRINGS) {
      const [shown] = boardTasks({
        family: 'tasks',
        tasks: [
          { id: '1', content: text, status: 'in_progress', activeForm: `Doing ${text}`, owner: text, blockedBy: [] },
        ],
      });
      expect(shown, name).toEqual({
        id: '1',
        title: oneLine(text),
        status: 'in_progress',
        activeForm: oneLine(`Doing ${text}`),
        owner: oneLine(text),
        blockedBy: [],
      });
    }
  });
});
