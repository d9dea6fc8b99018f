import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  memoryListStore,
  replayTodo,
  TODO_GUIDANCE,
  type TodoDetails,
  type TodoSnapshot,
  type TodoTaskStatus,
  TodoTool,
} from '../index.js';
import { isImmutableTodoTasks } from '../internal.js';
import { closeClients, SDK_MAJORS, type SdkMajor } from '../testing/sdk-majors.js';

/**
 * A `todo` tool of `sdk`'s entry behind a real MCP client of that major: `call` returns the text,
 * the details and isError. The details come over MCP with structured output on (the default
 * leaves them out: see "what the model reads").
 */
async function mcpTodo(sdk: SdkMajor, tool = new sdk.TodoTool({ structuredOutput: true })) {
  const client = await sdk.connect(tool.server);
  const call = async (args: Record<string, unknown>) => {
    const result = await client.callTool({ name: 'todo', arguments: args });
    return {
      text: (result.content as { text: string }[])[0]?.text,
      details: result.structuredContent as unknown as TodoDetails,
      isError: result.isError === true,
    };
  };
  return { tool, client, call };
}

describe.each(SDK_MAJORS)('the todo tool over MCP (SDK v$major)', (sdk) => {
  // This major's TodoTool, for every tool made below.
  const { TodoTool } = sdk;
  afterEach(closeClients);

  describe('todo: metadata keys', () => {
    it('keeps a "__proto__" key as a key, on create and update', async () => {
      const { call } = await mcpTodo(sdk);
      const created = await call(
        JSON.parse('{"action":"create","subject":"A","metadata":{"__proto__":{"x":1},"k":2}}'),
      );
      expect(JSON.stringify(created.details.tasks[0]?.metadata)).toBe('{"__proto__":{"x":1},"k":2}');
      const updated = await call(JSON.parse('{"action":"update","id":1,"metadata":{"__proto__":{"y":2}}}'));
      expect(JSON.stringify(updated.details.tasks[0]?.metadata)).toBe('{"__proto__":{"y":2},"k":2}');
      expect(({} as Record<string, unknown>).y).toBeUndefined();
    });
  });

  /** What Claude Code shows its model of a result: the JSON of structuredContent when there is one, else the text blocks. */
  function modelReads(result: unknown): string {
    const { content, structuredContent } = result as { content: { text?: string }[]; structuredContent?: unknown };
    if (structuredContent !== undefined) return JSON.stringify(structuredContent);
    return content.map((block) => block.text ?? '').join('\n');
  }

  describe('what the model reads (structured output off, the default)', () => {
    it('is the summary of content[0].text, never the snapshot; tools/list declares no output schema', async () => {
      const tool = new TodoTool({ limits: { maxTasks: 2000 } });
      for (let i = 1; i <= 1000; i += 1)
        tool.call({ action: 'create', subject: `Task ${i}`, description: 'd'.repeat(20) });
      const client = await sdk.connect(tool.server);
      expect((await client.listTools()).tools[0]).not.toHaveProperty('outputSchema');
      const calls: [Record<string, unknown>, string][] = [
        [{ action: 'update', id: 5, status: 'in_progress' }, 'Updated #5 (pending → in_progress)'],
        [{ action: 'create', subject: 'One more' }, 'Created #1001: One more (pending)'],
        [{ action: 'get', id: 5 }, '#5 [in_progress] Task 5\n  description: dddddddddddddddddddd'],
        [{ action: 'delete', id: 1001 }, 'Deleted #1001: One more'],
      ];
      for (const [args, text] of calls) {
        const result = await client.callTool({ name: 'todo', arguments: args });
        expect(result).toEqual({ content: [{ type: 'text', text }] });
        // 49 kB of snapshot per call with structured output (below); here the summary alone.
        expect(modelReads(result).length).toBeLessThan(200);
      }
      const structured = new TodoTool({
        structuredOutput: true,
        snapshot: tool.snapshot(),
        limits: { maxTasks: 2000 },
      });
      const withData = await sdk.connect(structured.server);
      const update = await withData.callTool({
        name: 'todo',
        arguments: { action: 'update', id: 6, status: 'in_progress' },
      });
      expect(modelReads(update).length).toBeGreaterThan(40_000);
    });
  });

  describe('todo over MCP: content strings', () => {
    it("answers each situation with rpiv-todo's string", async () => {
      const { call } = await mcpTodo(sdk);
      expect((await call({ action: 'create', subject: 'Set up the repo' })).text).toBe(
        'Created #1: Set up the repo (pending)',
      );
      expect((await call({ action: 'create', subject: 'Write the lexer' })).text).toBe(
        'Created #2: Write the lexer (pending)',
      );
      expect((await call({ action: 'create', subject: 'Write the parser', blockedBy: [1, 2] })).text).toBe(
        'Created #3: Write the parser (pending)',
      );
      expect(
        (await call({ action: 'update', id: 3, status: 'in_progress', activeForm: 'writing the parser' })).text,
      ).toBe('Updated #3 (pending → in_progress)');
      expect((await call({ action: 'update', id: 3, description: 'recursive descent' })).text).toBe('Updated #3');
      expect((await call({ action: 'update', id: 3, status: 'in_progress' })).text).toBe(
        'No change: #3 already matches the requested values (status: in_progress)',
      );
      expect((await call({ action: 'list' })).text).toBe(
        [
          '[pending] #1 Set up the repo',
          '[pending] #2 Write the lexer',
          '[in_progress] #3 Write the parser (writing the parser) ⛓ #1,#2',
        ].join('\n'),
      );
      expect((await call({ action: 'delete', id: 2 })).text).toBe('Deleted #2: Write the lexer');
      expect((await call({ action: 'clear' })).text).toBe('Cleared 3 tasks');
      expect((await call({ action: 'list' })).text).toBe('No tasks');
    });

    it('shows the activeForm only for the task in progress', async () => {
      const { call } = await mcpTodo(sdk);
      await call({ action: 'create', subject: 'A', activeForm: 'doing A' });
      expect((await call({ action: 'list' })).text).toBe('[pending] #1 A');
    });

    it('get shows the block with the reverse blocks line and the set fields only', async () => {
      const { call } = await mcpTodo(sdk);
      await call({ action: 'create', subject: 'Base', description: 'the base', owner: 'alice' });
      await call({ action: 'create', subject: 'Top', blockedBy: [1], activeForm: 'building top' });
      await call({ action: 'create', subject: 'Side', blockedBy: [1] });
      expect((await call({ action: 'get', id: 1 })).text).toBe(
        '#1 [pending] Base\n  description: the base\n  blocks: #2, #3\n  owner: alice',
      );
      expect((await call({ action: 'get', id: 2 })).text).toBe(
        '#2 [pending] Top\n  activeForm: building top\n  blockedBy: #1',
      );
      await call({ action: 'update', id: 3, removeBlockedBy: [1] });
      expect((await call({ action: 'get', id: 1 })).text).toBe(
        '#1 [pending] Base\n  description: the base\n  blocks: #2\n  owner: alice',
      );
    });
  });

  describe('todo: status transitions', () => {
    const table: [TodoTaskStatus, TodoTaskStatus, boolean][] = [
      ['pending', 'in_progress', true],
      ['pending', 'completed', true],
      ['pending', 'deleted', true],
      ['in_progress', 'pending', true],
      ['in_progress', 'completed', true],
      ['in_progress', 'deleted', true],
      ['completed', 'deleted', true],
      ['completed', 'pending', false],
      ['completed', 'in_progress', false],
      ['deleted', 'pending', false],
      ['deleted', 'in_progress', false],
      ['deleted', 'completed', false],
    ];

    /** A tool whose task #1 has `status`, reached by legal steps. */
    function at(status: TodoTaskStatus) {
      const tool = new TodoTool({ structuredOutput: true });
      tool.call({ action: 'create', subject: 'T' });
      const path: Record<TodoTaskStatus, TodoTaskStatus[]> = {
        pending: [],
        in_progress: ['in_progress'],
        completed: ['completed'],
        deleted: ['deleted'],
      };
      for (const step of path[status]) tool.call({ action: 'update', id: 1, status: step });
      return tool;
    }

    it.each(table)('%s → %s allowed: %s', async (from, to, allowed) => {
      const { call } = await mcpTodo(sdk, at(from));
      const result = await call({ action: 'update', id: 1, status: to });
      if (allowed) {
        expect(result.isError).toBe(false);
        expect(result.text).toBe(`Updated #1 (${from} → ${to})`);
        expect(result.details.tasks[0]?.status).toBe(to);
      } else {
        expect(result.isError).toBe(true);
        expect(result.text).toBe(`Error: illegal transition ${from} → ${to}`);
        expect(result.details.error).toBe(`illegal transition ${from} → ${to}`);
        expect(result.details.tasks[0]?.status).toBe(from);
      }
    });

    it.each(['pending', 'in_progress', 'completed', 'deleted'] as TodoTaskStatus[])(
      'same to same (%s) is a no-op answered No change',
      async (status) => {
        const { call } = await mcpTodo(sdk, at(status));
        const result = await call({ action: 'update', id: 1, status });
        expect(result.isError).toBe(false);
        expect(result.text).toBe(`No change: #1 already matches the requested values (status: ${status})`);
      },
    );
  });

  describe('todo: error messages', () => {
    async function prepared() {
      const todo = await mcpTodo(sdk);
      await todo.call({ action: 'create', subject: 'one' });
      await todo.call({ action: 'create', subject: 'two', blockedBy: [1] });
      await todo.call({ action: 'create', subject: 'gone' });
      await todo.call({ action: 'delete', id: 3 });
      return todo;
    }

    const rows: [string, Record<string, unknown>, string][] = [
      ['create without subject', { action: 'create' }, 'subject required for create'],
      ['create with a blank subject', { action: 'create', subject: '   ' }, 'subject required for create'],
      [
        'create on an unknown dependency',
        { action: 'create', subject: 'x', blockedBy: [9] },
        'blockedBy: #9 not found',
      ],
      ['create on a tombstone', { action: 'create', subject: 'x', blockedBy: [3] }, 'blockedBy: #3 is deleted'],
      ['update without id', { action: 'update', status: 'completed' }, 'id required for update'],
      ['get without id', { action: 'get' }, 'id required for get'],
      ['delete without id', { action: 'delete' }, 'id required for delete'],
      ['update an unknown id', { action: 'update', id: 9, status: 'completed' }, '#9 not found'],
      ['get an unknown id', { action: 'get', id: 9 }, '#9 not found'],
      ['delete an unknown id', { action: 'delete', id: 9 }, '#9 not found'],
      [
        'update with only an id',
        { action: 'update', id: 1 },
        'update requires at least one mutable field: subject, description, activeForm, status, owner, metadata, addBlockedBy, or removeBlockedBy',
      ],
      [
        'update with empty dependency lists only',
        { action: 'update', id: 1, addBlockedBy: [] },
        'update requires at least one mutable field: subject, description, activeForm, status, owner, metadata, addBlockedBy, or removeBlockedBy',
      ],
      ['an illegal transition', { action: 'update', id: 3, status: 'pending' }, 'illegal transition deleted → pending'],
      ['blocking a task on itself', { action: 'update', id: 1, addBlockedBy: [1] }, 'cannot block #1 on itself'],
      ['an unknown dependency', { action: 'update', id: 1, addBlockedBy: [9] }, 'addBlockedBy: #9 not found'],
      ['a tombstoned dependency', { action: 'update', id: 1, addBlockedBy: [3] }, 'addBlockedBy: #3 is deleted'],
      [
        'a cycle',
        { action: 'update', id: 1, addBlockedBy: [2] },
        'addBlockedBy would create a cycle in the blockedBy graph',
      ],
      ['deleting a tombstone', { action: 'delete', id: 3 }, '#3 is already deleted'],
      ['a blank subject on update', { action: 'update', id: 1, subject: ' ' }, 'subject required: it cannot be blank'],
    ];

    it.each(rows)('%s', async (_name, args, message) => {
      const { call, tool } = await prepared();
      const before = structuredClone(tool.snapshot());
      const result = await call(args);
      expect(result.isError).toBe(true);
      expect(result.text).toBe(`Error: ${message}`);
      expect(result.details.error).toBe(message);
      expect(result.details.tasks).toEqual(before.tasks);
      expect(result.details.nextId).toBe(before.nextId);
      expect(tool.snapshot()).toEqual(before);
    });
  });

  describe('todo: the envelope over MCP', () => {
    it('details carry the action, the params without action, the whole state and nextId', async () => {
      const { call } = await mcpTodo(sdk);
      await call({ action: 'create', subject: 'A' });
      const result = await call({ action: 'create', subject: 'B', blockedBy: [1], owner: 'bob' });
      expect(result.details).toEqual({
        action: 'create',
        params: { subject: 'B', blockedBy: [1], owner: 'bob' },
        tasks: [
          { id: 1, subject: 'A', status: 'pending' },
          { id: 2, subject: 'B', status: 'pending', blockedBy: [1], owner: 'bob' },
        ],
        nextId: 3,
      });
      expect((await call({ action: 'get', id: 1 })).details).not.toHaveProperty('error');
    });

    it('lists one tool with an output schema (structured output on), destructive and closed-world, and the guidance as instructions', async () => {
      const { client } = await mcpTodo(sdk);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['todo']);
      expect(tools[0]?.outputSchema?.required).toEqual(['action', 'params', 'tasks', 'nextId']);
      expect(tools[0]?.annotations).toMatchObject({ destructiveHint: true, openWorldHint: false, readOnlyHint: false });
      expect(client.getInstructions()).toBe(TODO_GUIDANCE);
    });

    it('guidance replaces the prompt snippet and guidelines of the instructions, each part alone too', async () => {
      const guided = new TodoTool({
        structuredOutput: true,
        guidance: { promptSnippet: 'Track work.', promptGuidelines: ['One step each.', 'Finish.'] },
      });
      const { client } = await mcpTodo(sdk, guided);
      expect(client.getInstructions()).toBe('Track work.\n- One step each.\n- Finish.');
      const snippetOnly = new TodoTool({ guidance: { promptSnippet: 'Only this line.' } });
      expect(snippetOnly.instructions.split('\n')[0]).toBe('Only this line.');
      expect(snippetOnly.instructions.split('\n').slice(1)).toEqual(TODO_GUIDANCE.split('\n').slice(1));
      expect(new TodoTool().instructions).toBe(TODO_GUIDANCE);
      expect(() => new TodoTool({ guidance: { promptGuidelines: 'one' as never } })).toThrow(TypeError);
    });

    it('MCP and call() answer every input alike, wrong types and null included, in the envelope', async () => {
      const { call } = await mcpTodo(sdk);
      const mirror = new TodoTool();
      const inputs: Record<string, unknown>[] = [
        { action: 'create', subject: 5 },
        { action: 'create', subject: 'A', owner: null, description: null },
        { action: 'get', id: 'two' },
        { action: 'get', id: null },
        { action: 'update', id: 1, status: 'done' },
        { action: 'update', id: 1, metadata: [] },
        { action: 'create', subject: 'B', bogus: 1 },
        { action: 7 },
        {},
      ];
      for (const args of inputs) {
        const direct = mirror.call(args);
        const viaMcp = await call(args);
        expect(viaMcp.text, JSON.stringify(args)).toBe(direct.content[0]?.text);
        expect(viaMcp.details).toEqual(JSON.parse(JSON.stringify(direct.details)));
        expect(viaMcp.isError).toBe(direct.details.error !== undefined);
      }
      const typed = mirror.call({ action: 'create', subject: 5 });
      expect(typed.content[0]?.text).toBe('Error: subject: expected a string, received 5');
      expect(typed.details.error).toBe('subject: expected a string, received 5');
    });
  });
});

describe('todo: ids', () => {
  it('accepts numeric strings as the ids they spell', () => {
    const tool = new TodoTool();
    tool.call({ action: 'create', subject: 'A' });
    tool.call({ action: 'create', subject: 'B' });
    expect(tool.call({ action: 'update', id: '2', status: 'in_progress' }).content[0].text).toBe(
      'Updated #2 (pending → in_progress)',
    );
    expect(tool.call({ action: 'get', id: ' 1 ' }).content[0].text).toBe('#1 [pending] A');
    expect(tool.call({ action: 'update', id: 2, addBlockedBy: ['1'] }).details.tasks[1]?.blockedBy).toEqual([1]);
  });

  it.each([
    [{ action: 'get', id: 'two' }, 'id: expected an integer id such as 3, received "two"'],
    [{ action: 'get', id: 1.5 }, 'id: expected an integer id such as 3, received 1.5'],
    [{ action: 'get', id: true }, 'id: expected an integer id such as 3, received true'],
    [
      { action: 'update', id: 1, addBlockedBy: ['x'] },
      'addBlockedBy: expected integer ids such as [1, 2], received "x" in the list',
    ],
    [
      { action: 'create', subject: 'x', blockedBy: 3 },
      'blockedBy: expected an array of integer ids such as [1, 2], received 3',
    ],
  ])('rejects anything else: %j', (params, message) => {
    const tool = new TodoTool();
    tool.call({ action: 'create', subject: 'A' });
    const result = tool.call(params);
    expect(result.content[0].text).toBe(`Error: ${message}`);
    expect(result.details.error).toBe(message);
  });

  it('clear resets ids to 1', () => {
    const tool = new TodoTool();
    tool.call({ action: 'create', subject: 'A' });
    tool.call({ action: 'create', subject: 'B' });
    tool.call({ action: 'clear' });
    expect(tool.call({ action: 'create', subject: 'C' }).content[0].text).toBe('Created #1: C (pending)');
  });

  it('a deleted id is not reused', () => {
    const tool = new TodoTool();
    tool.call({ action: 'create', subject: 'A' });
    tool.call({ action: 'delete', id: 1 });
    expect(tool.call({ action: 'create', subject: 'B' }).content[0].text).toBe('Created #2: B (pending)');
  });
});

describe('todo: list', () => {
  it('hides tombstones unless includeDeleted, and filters by status', () => {
    const tool = new TodoTool();
    for (const s of ['A', 'B', 'C']) tool.call({ action: 'create', subject: s });
    tool.call({ action: 'update', id: 2, status: 'completed' });
    tool.call({ action: 'delete', id: 3 });
    expect(tool.call({ action: 'list' }).content[0].text).toBe('[pending] #1 A\n[completed] #2 B');
    expect(tool.call({ action: 'list', includeDeleted: true }).content[0].text).toBe(
      '[pending] #1 A\n[completed] #2 B\n[deleted] #3 C',
    );
    expect(tool.call({ action: 'list', status: 'completed' }).content[0].text).toBe('[completed] #2 B');
    expect(tool.call({ action: 'list', status: 'in_progress' }).content[0].text).toBe('No tasks');
    expect(tool.call({ action: 'list', status: 'deleted', includeDeleted: true }).content[0].text).toBe(
      '[deleted] #3 C',
    );
  });
});

describe('todo: fields', () => {
  it('merges metadata, null deletes a key, an emptied record drops the field', () => {
    const tool = new TodoTool();
    tool.call({ action: 'create', subject: 'A', metadata: { a: 1, b: 2 } });
    expect(tool.call({ action: 'update', id: 1, metadata: { b: null, c: 3 } }).details.tasks[0]?.metadata).toEqual({
      a: 1,
      c: 3,
    });
    const emptied = tool.call({ action: 'update', id: 1, metadata: { a: null, c: null } }).details.tasks[0];
    expect(emptied).not.toHaveProperty('metadata');
    expect(tool.call({ action: 'update', id: 1, metadata: { gone: null } }).content[0].text).toBe(
      'No change: #1 already matches the requested values (status: pending)',
    );
  });

  it('de-duplicates blockedBy on create and addBlockedBy; removeBlockedBy removes', () => {
    const tool = new TodoTool();
    tool.call({ action: 'create', subject: 'A' });
    tool.call({ action: 'create', subject: 'B' });
    const created = tool.call({ action: 'create', subject: 'C', blockedBy: [1, '1', 2, 1] }).details.tasks[2];
    expect(created?.blockedBy).toEqual([1, 2]);
    expect(tool.call({ action: 'update', id: 3, removeBlockedBy: [1, 2] }).details.tasks[2]).not.toHaveProperty(
      'blockedBy',
    );
  });

  it('shows control sequences, bidi controls and newlines in echoed text in the kit’s one form, and stores what was sent', () => {
    const tool = new TodoTool();
    const subject = 'Fix\u001b[2J\u001b]0;pwned\u0007 it\nError: fake\u202e txet';
    const result = tool.call({ action: 'create', subject, activeForm: 'fixing\r\nit' });
    expect(result.content[0].text).toBe('Created #1: Fix␛[2J␛]0;pwned␇ it⏎Error: fake\\u202e txet (pending)');
    expect(result.details.tasks[0]?.subject).toBe(subject);
    tool.call({ action: 'update', id: 1, status: 'in_progress' });
    expect(tool.call({ action: 'list' }).content[0].text).toBe(
      '[in_progress] #1 Fix␛[2J␛]0;pwned␇ it⏎Error: fake\\u202e txet (fixing⏎it)',
    );
  });

  it('rejects parameters the action does not take and unknown parameters', () => {
    const tool = new TodoTool();
    expect(tool.call({ action: 'create', subject: 'A', status: 'completed' }).details.error).toBe(
      'create does not take status; it takes subject, blockedBy, description, activeForm, owner, metadata',
    );
    expect(tool.call({ action: 'clear', id: 1 }).details.error).toBe('clear does not take id; it takes no parameters');
    expect(tool.call({ action: 'list', tasks: [] }).details.error).toMatch(/^unknown parameter "tasks"/);
    expect(tool.call('list').details.error).toBe('expected an object of parameters with an action, received "list"');
    expect(tool.snapshot().tasks).toEqual([]);
  });
});

describe('todo: the envelope', () => {
  it('a snapshot over the limits is taken whole by restore, replayTodo, a store and the tools; it cannot grow', async () => {
    const limits = { maxTasks: 2, maxSubjectLength: 5 };
    const big = {
      tasks: [1, 2, 3].map((id) => ({ id, subject: `A long subject ${id}`, status: 'pending' as const })),
      nextId: 4,
    };
    expect(replayTodo([big])).toEqual(big);
    const restored = new TodoTool({ limits });
    restored.restore(big);
    const started = new TodoTool({ limits, snapshot: big });
    const stored = new TodoTool({ limits, store: memoryListStore<TodoSnapshot>(big) });
    for (const tool of [restored, started]) {
      expect(tool.snapshot()).toEqual(big);
      expect(tool.call({ action: 'get', id: 3 }).details.error).toBeUndefined();
      expect(tool.call({ action: 'update', id: 3, status: 'in_progress' }).content[0]?.text).toBe(
        'Updated #3 (pending → in_progress)',
      );
      expect(tool.call({ action: 'create', subject: 'New' }).details.error).toMatch(/^the list already holds 3 tasks/);
    }
    expect((await stored.callAsync({ action: 'create', subject: 'New' })).details.error).toMatch(
      /^the list already holds 3 tasks/,
    );
    expect((await stored.callAsync({ action: 'get', id: 1 })).details.error).toBeUndefined();
  });

  it('onUpdate gets the snapshot after changes only', () => {
    const onUpdate = vi.fn();
    const tool = new TodoTool({ onUpdate });
    tool.call({ action: 'create', subject: 'A' });
    tool.call({ action: 'list' });
    tool.call({ action: 'get', id: 1 });
    tool.call({ action: 'update', id: 1, status: 'pending' });
    tool.call({ action: 'update', id: 1, status: 'bogus' });
    expect(onUpdate).toHaveBeenCalledTimes(1);
    expect(onUpdate).toHaveBeenCalledWith({ tasks: [{ id: 1, subject: 'A', status: 'pending' }], nextId: 2 });
  });

  it('snapshots are immutable and earlier ones stay as they were', () => {
    const tool = new TodoTool();
    const first = tool.call({ action: 'create', subject: 'A', metadata: { k: { v: 1 } } }).details;
    tool.call({ action: 'update', id: 1, subject: 'B' });
    expect(first.tasks[0]?.subject).toBe('A');
    const task = first.tasks[0] as unknown as { subject: string; metadata: { k: { v: number } } };
    expect(task.metadata.k.v).toBe(1);
    expect(() => {
      task.subject = 'hacked';
    }).toThrow(TypeError);
    expect(() => {
      task.metadata.k.v = 2;
    }).toThrow(TypeError);
    expect(tool.snapshot().tasks[0]?.subject).toBe('B');
  });
});

describe('isImmutableTodoTasks: one frozen array per version of the list', () => {
  it('hands out the same frozen array while the list is unchanged, and a new one after a change', () => {
    const tool = new TodoTool();
    tool.call({ action: 'create', subject: 'A', metadata: { deep: { list: [1] } } });
    const first = tool.call({ action: 'get', id: 1 }).details.tasks;
    // A list, a rejected call and an update to the status it has leave the list as it was.
    expect(tool.call({ action: 'list' }).details.tasks).toBe(first);
    expect(tool.call({ action: 'get', id: 9 }).details.tasks).toBe(first);
    expect(tool.call({ action: 'update', id: 1, status: 'pending' }).details.tasks).toBe(first);
    expect(tool.snapshot().tasks).toBe(first);
    expect(isImmutableTodoTasks(first)).toBe(true);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first[0])).toBe(true);
    const metadata = first[0]?.metadata as { deep: { list: number[] } } | undefined;
    expect(metadata?.deep.list).toEqual([1]);
    expect(Object.isFrozen(metadata?.deep.list)).toBe(true);

    const changed = tool.call({ action: 'update', id: 1, status: 'in_progress' }).details.tasks;
    expect(changed).not.toBe(first);
    expect(isImmutableTodoTasks(changed)).toBe(true);
    expect(changed[0]?.status).toBe('in_progress');
    // The older array still says what it said.
    expect(first[0]?.status).toBe('pending');
  });

  it('a snapshot reads as plain data: its keys in order, JSON, a spread and structuredClone', () => {
    const tool = new TodoTool();
    tool.call({ action: 'create', subject: 'A' });
    const { details } = tool.call({ action: 'get', id: 7 });
    const plain = {
      action: 'get',
      params: { id: 7 },
      tasks: [{ id: 1, subject: 'A', status: 'pending' }],
      nextId: 2,
      error: '#7 not found',
    };
    expect(Object.keys(details)).toEqual(['action', 'params', 'tasks', 'nextId', 'error']);
    expect(JSON.stringify(details)).toBe(JSON.stringify(plain));
    expect({ ...details }).toEqual(plain);
    expect(Object.keys({ ...details })).toEqual(Object.keys(plain));
    expect(structuredClone(details)).toEqual(plain);
    expect(Object.keys(tool.snapshot())).toEqual(['tasks', 'nextId']);
  });

  it('is false for anything it did not hand out, an equal copy included', () => {
    const tool = new TodoTool();
    tool.call({ action: 'create', subject: 'A' });
    const tasks = tool.snapshot().tasks;
    for (const other of [[...tasks], Object.freeze([...tasks]), structuredClone(tasks), undefined, null, {}, 'tasks']) {
      expect(isImmutableTodoTasks(other)).toBe(false);
    }
  });
});

describe('replayTodo, snapshot and restore', () => {
  it('rebuilds the state from the last valid snapshot of a transcript', () => {
    const tool = new TodoTool();
    const transcript: unknown[] = [];
    transcript.push(tool.call({ action: 'create', subject: 'A' }).details);
    transcript.push(tool.call({ action: 'create', subject: 'B', blockedBy: [1] }).details);
    transcript.push(tool.call({ action: 'update', id: 9, status: 'completed' }).details);
    transcript.push({ tasks: [{ id: 1, subject: 'x', status: 'pending', blockedBy: [1] }], nextId: 2 });
    transcript.push('garbage');
    expect(replayTodo(transcript)).toEqual(tool.snapshot());
    const resumed = new TodoTool({ snapshot: replayTodo(transcript) });
    expect(resumed.call({ action: 'list' }).content[0].text).toBe('[pending] #1 A\n[pending] #2 B ⛓ #1');
    expect(resumed.call({ action: 'create', subject: 'C' }).content[0].text).toBe('Created #3: C (pending)');
  });

  it.each([
    [
      'a duplicate id',
      {
        tasks: [
          { id: 1, subject: 'a', status: 'pending' },
          { id: 1, subject: 'b', status: 'pending' },
        ],
        nextId: 2,
      },
    ],
    ['nextId not above every id', { tasks: [{ id: 3, subject: 'a', status: 'pending' }], nextId: 3 }],
    [
      'a dependency on a missing task',
      { tasks: [{ id: 1, subject: 'a', status: 'pending', blockedBy: [2] }], nextId: 2 },
    ],
    [
      'a cycle',
      {
        tasks: [
          { id: 1, subject: 'a', status: 'pending', blockedBy: [2] },
          { id: 2, subject: 'b', status: 'pending', blockedBy: [1] },
        ],
        nextId: 3,
      },
    ],
    ['a bad status', { tasks: [{ id: 1, subject: 'a', status: 'done' }], nextId: 2 }],
    ['a string id', { tasks: [{ id: '1', subject: 'a', status: 'pending' }], nextId: 2 }],
  ])('skips a snapshot with %s, never half-applying it', (_name, bad) => {
    const good = { tasks: [{ id: 1, subject: 'ok', status: 'pending' }], nextId: 2 };
    expect(replayTodo([good, bad])).toEqual(good);
    expect(replayTodo([bad])).toEqual({ tasks: [], nextId: 1 });
    const tool = new TodoTool({ snapshot: good as never });
    expect(() => tool.restore(bad as never)).toThrow(TypeError);
    expect(tool.snapshot()).toEqual(good);
  });
});

describe('onChange', () => {
  it('is called after each change and not after a call that changed nothing', async () => {
    let calls = 0;
    const tool = new TodoTool({ onChange: () => (calls += 1) });
    tool.call({ action: 'create', subject: 'A' });
    tool.call({ action: 'list' });
    tool.call({ action: 'update', id: 1, status: 'in_progress' });
    expect(calls).toBe(2);
  });
});
