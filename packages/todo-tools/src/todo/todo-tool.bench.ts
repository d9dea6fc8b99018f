// Cost of the `todo` tool against the size of the list. Lists are built with restore (a
// snapshot of N tasks, each third one waiting on the one before). Run with
// `pnpm --filter @raider/todo-tools bench`.
import { bench, describe } from 'vitest';
import { type TodoTask, TodoTool } from '../index.js';

function toolOf(size: number): TodoTool {
  const tasks: TodoTask[] = Array.from({ length: size }, (_, i) => ({
    id: i + 1,
    subject: `Task ${i + 1}`,
    status: 'pending',
    ...(i > 0 && i % 3 === 0 ? { blockedBy: [i] } : {}),
  }));
  return new TodoTool({ snapshot: { tasks, nextId: size + 1 }, limits: { maxTasks: Number.MAX_SAFE_INTEGER } });
}

for (const size of [100, 1_000, 10_000, 100_000]) {
  describe(`${size} tasks`, () => {
    const todo = toolOf(size);
    const middle = Math.floor(size / 2);
    let flip = false;

    // Create grows the list, so it runs a fixed number of times: max(600, 10% of the list) more tasks.
    bench(
      'create',
      () => {
        todo.call({ action: 'create', subject: 'One more' });
      },
      { time: 0, iterations: Math.max(500, size / 10), warmupTime: 0, warmupIterations: 100 },
    );
    bench('update (status)', () => {
      flip = !flip;
      todo.call({ action: 'update', id: middle, status: flip ? 'in_progress' : 'pending' });
    });
    bench('update (addBlockedBy, removeBlockedBy)', () => {
      // Adds an edge from the last task to the first (the cycle check walks from #1), then removes it.
      todo.call({ action: 'update', id: size, addBlockedBy: [1] });
      todo.call({ action: 'update', id: size, removeBlockedBy: [1] });
    });
    bench('get', () => {
      todo.call({ action: 'get', id: middle });
    });
    bench('list', () => {
      todo.call({ action: 'list' });
    });
  });
}

// What a client pays: every result carries the whole list in `details`, and over MCP that list is
// read, checked against the output schema and serialised. `call() + JSON` is the floor an MCP
// result cannot go below (the result built and its details serialised once); `over MCP` is a
// real McpServer and Client over InMemoryTransport.
for (const size of [100, 1_000, 10_000]) {
  describe(`${size} tasks: get, as a client receives it`, async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const todo = toolOf(size);
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await Promise.all([todo.server.connect(serverSide), client.connect(clientSide)]);
    const middle = Math.floor(size / 2);

    bench('call() + JSON of details', () => {
      JSON.stringify(todo.call({ action: 'get', id: middle }).details);
    });
    bench('over MCP', async () => {
      await client.callTool({ name: 'todo', arguments: { action: 'get', id: middle } });
    });
  });
}
