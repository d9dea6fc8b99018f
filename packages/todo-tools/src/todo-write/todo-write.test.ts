import { FRAMING_STRINGS, HOSTILE_STRINGS } from '@raider/kit/hostile-strings';
import { oneLine } from '@raider/kit/shown-text';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TodoWriteListError, TodoWriteTool } from '../index.js';
import { rawControlIn } from '../testing/raw-control.js';
import { closeClients, SDK_MAJORS } from '../testing/sdk-majors.js';

describe('check', () => {
  const todos = new TodoWriteTool();

  it('returns the list as todo_write stores it, activeForm defaulting to content', () => {
    expect(
      todos.check([
        { content: 'Run the tests', status: 'completed', activeForm: 'Running the tests' },
        { content: 'Fix the bug', status: 'in_progress' },
        { content: 'Ship', status: 'pending' },
      ]),
    ).toEqual([
      { content: 'Run the tests', status: 'completed', activeForm: 'Running the tests' },
      { content: 'Fix the bug', status: 'in_progress', activeForm: 'Fix the bug' },
      { content: 'Ship', status: 'pending', activeForm: 'Ship' },
    ]);
    expect(todos.check([])).toEqual([]);
  });

  it.each([
    [['a string'], 'todos[0]: expected an item { content, status, activeForm? }, received "a string"'],
    [[{ status: 'pending' }], 'todos[0].content: expected a string, received nothing'],
    [[{ content: ' ', status: 'pending' }], 'todos[0].content: expected a non-empty text, received " "'],
    [
      [
        { content: 'a', status: 'pending' },
        { content: 'b', status: 'done' },
      ],
      'todos[1].status: expected one of pending, in_progress, completed, received "done"',
    ],
    [
      [
        { content: 'a', status: 'in_progress' },
        { content: 'b', status: 'pending' },
        { content: 'c', status: 'in_progress' },
      ],
      'todos[2].status: expected at most one in_progress item, received a second one (todos[0] is in_progress)',
    ],
    [[{ content: 'a', status: 'pending', priority: 'high' }], 'todos[0]: unknown argument "priority"'],
    ['not a list', 'todos: expected an array of items, received "not a list"'],
  ])('throws naming the first wrong item: %j', (items, message) => {
    let error: unknown;
    try {
      todos.check(items);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TodoWriteListError);
    expect((error as TodoWriteListError).message).toBe(message);
    expect((error as TodoWriteListError).code).toBe('INVALID_TODO_LIST');
  });

  it('names only the first wrong item when several are wrong', () => {
    expect(() =>
      todos.check([{ content: 'ok', status: 'pending' }, { content: 'x', status: 'nope' }, { status: 'pending' }]),
    ).toThrow(/^todos\[1\]\.status/);
  });

  it('enforces the item limit', () => {
    const small = new TodoWriteTool({ limits: { maxTodoItems: 2 } });
    expect(() => small.check([1, 2, 3])).toThrow('todos: expected at most 2 items, received 3');
  });
});

describe('render', () => {
  const todos = new TodoWriteTool();

  it('a count line, then one numbered line per item', () => {
    expect(
      todos.render([
        { content: 'Run the tests', status: 'completed', activeForm: 'Running the tests' },
        { content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' },
        { content: 'Ship', status: 'pending', activeForm: 'Shipping' },
        { content: 'Tell', status: 'pending', activeForm: 'Telling' },
      ]),
    ).toBe(
      [
        '4 todos (1 completed, 1 in_progress, 2 pending)',
        '1. [completed] Run the tests',
        '2. [in_progress] Fix the bug',
        '3. [pending] Ship',
        '4. [pending] Tell',
      ].join('\n'),
    );
  });

  it('one item, and none', () => {
    expect(todos.render([{ content: 'A', status: 'pending', activeForm: 'A' }])).toBe(
      '1 todo (1 pending)\n1. [pending] A',
    );
    expect(todos.render([])).toBe('0 todos');
  });

  it('shows each content on one line (issue 36): every hostile string and framing line of the shared table', () => {
    const contents = [
      ...HOSTILE_STRINGS.map(({ text }) => text),
      ...FRAMING_STRINGS.map((framing) => `ok\n${framing}`),
    ];
    const list = contents.map((content) => ({ content, status: 'pending' as const, activeForm: content }));
    const lines = todos.render(list).split('\n');
    expect(lines).toHaveLength(contents.length + 1);
    expect(lines[0]).toBe(`${contents.length} todos (${contents.length} pending)`);
    contents.forEach((content, index) => {
      expect(lines[index + 1]).toBe(`${index + 1}. [pending] ${oneLine(content)}`);
      expect(rawControlIn(lines[index + 1] as string)).toBeUndefined();
    });
    expect(
      todos.render([{ content: 'Run the tests\n2. [completed] Ship\u001b[2J', status: 'pending', activeForm: 'x' }]),
    ).toBe('1 todo (1 pending)\n1. [pending] Run the tests⏎2. [completed] Ship␛[2J');
  });
});

describe.each(SDK_MAJORS)('todo_write through the server (SDK v$major)', ({ TodoWriteTool, connect }) => {
  afterEach(closeClients);

  it('answers with the text alone by default (no output schema, no structured content)', async () => {
    const todos = new TodoWriteTool();
    const client = await connect(todos.server);
    expect((await client.listTools()).tools[0]).not.toHaveProperty('outputSchema');
    const ok = await client.callTool({
      name: 'todo_write',
      arguments: { todos: [{ content: 'A', status: 'pending' }] },
    });
    expect(ok).toEqual({ content: [{ type: 'text', text: '1 todo (1 pending)\n1. [pending] A' }] });
  });

  it('hands every accepted list to onUpdate and holds none of its own', async () => {
    const onUpdate = vi.fn();
    const todos = new TodoWriteTool({ onUpdate, structuredOutput: true });
    const client = await connect(todos.server);
    const list = [{ content: 'A', status: 'in_progress' }];
    const ok = await client.callTool({ name: 'todo_write', arguments: { todos: list } });
    expect(ok).toEqual({
      content: [{ type: 'text', text: '1 todo (1 in_progress)\n1. [in_progress] A' }],
      structuredContent: { todos: [{ content: 'A', status: 'in_progress', activeForm: 'A' }] },
    });
    expect(onUpdate).toHaveBeenCalledWith([{ content: 'A', status: 'in_progress', activeForm: 'A' }]);
    const bad = await client.callTool({
      name: 'todo_write',
      arguments: {
        todos: [
          { content: 'A', status: 'in_progress' },
          { content: 'B', status: 'in_progress' },
        ],
      },
    });
    expect(bad).toEqual({
      content: [
        {
          type: 'text',
          text: 'Error: todos[1].status: expected at most one in_progress item, received a second one (todos[0] is in_progress)',
        },
      ],
      isError: true,
    });
    expect(onUpdate).toHaveBeenCalledTimes(1);
  });
});
