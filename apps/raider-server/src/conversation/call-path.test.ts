// A task_update's path through the rooms (README, "Architecture"): the call pipeline
// (conversation/) hands the task tools (features/tasks) the call, whose write goes through the
// task store the messaging observes (features/messages, its wake-ups) into the list (lists/). The
// call's context crosses @raider/todo-tools' TaskTools on the way (the one AsyncLocalStorage), and
// the call answers once its wake-up is in its recipient's inbox.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { TaskStore } from '@raider/todo-tools/v2';
import { afterEach, describe, expect, it } from 'vitest';
import { listFor } from '../lists/list-for.js';
import { createRuntime } from '../runtime.js';
import { type CallContext, currentCall } from './call-pipeline.js';
import { createConversation } from './conversation.js';

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

/** The rooms of the server's own frames in `stack`, innermost first (`features/messages`, `conversation`, …). */
function roomsOf(stack: string): string[] {
  return [...stack.matchAll(/apps\/raider-server\/src\/((?:features\/)?[a-z-]+)\//g)].map(
    (match) => match[1] as string,
  );
}

describe("a task_update's path", () => {
  it("reaches the list through the tasks and the messages, with the call pipeline's context, and answers after its wake-up", async () => {
    const runtime = createRuntime();
    open.push({ close: () => runtime.close() });
    const list = listFor(runtime, {}, 'call-path');
    if (!list) throw new Error('no list');
    // The list's own store, seen where the write reaches it.
    const store = list.tasks();
    const reached: { call: CallContext | undefined; rooms: string[] }[] = [];
    const transact = store.transact.bind(store);
    (store as { transact: TaskStore['transact'] }).transact = (seq, fn) => {
      reached.push({ call: currentCall(), rooms: roomsOf(new Error('reached').stack ?? '') });
      return transact(seq, fn);
    };
    const conversation = createConversation({
      family: 'tasks',
      names: 'raider',
      askTimeoutMs: 1000,
      team: true,
      runtime,
      list,
    });
    open.push({ close: () => conversation.close('test over') });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await conversation.newServer('legacy', undefined, { agent: 'alice' }).connect(serverSide);
    const alice = new Client({ name: 'alice', version: '1.0.0' });
    await alice.connect(clientSide);
    open.push(alice);

    await alice.callTool({ name: 'task_create', arguments: { subject: 'Parser', description: '' } });
    await alice.callTool({ name: 'task_update', arguments: { taskId: '1', owner: 'bob' } });
    reached.length = 0;
    const answer = await alice.callTool({ name: 'task_update', arguments: { taskId: '1', subject: 'The parser' } });
    // Answered only once the wake-up its change caused is in bob's inbox.
    const inbox = await list.messages().peek('bob');
    expect(answer.content).toEqual([{ type: 'text', text: 'Updated task #1 subject' }]);
    expect(inbox.map((message) => message.label)).toEqual([
      'alice made you the owner of task #1 "Parser"',
      'alice changed your task #1 "The parser": subject',
    ]);
    expect(reached).toHaveLength(1);
    // The pipeline's context crossed TaskTools to the list: the tool, the agent of the call.
    expect([reached[0]?.call?.tool, reached[0]?.call?.agent]).toEqual(['task_update', 'alice']);
    // Where the write reached the list from (after this test's own frame): the messaging's observed
    // store (the wake-ups), nothing of ours between.
    expect(reached[0]?.rooms.slice(0, 2)).toEqual(['conversation', 'features/messages']);
  });

  it("a status set from the board app is its person's: nobody's change to the agents' wake-ups", async () => {
    const runtime = createRuntime();
    open.push({ close: () => runtime.close() });
    const list = listFor(runtime, {}, 'call-path-app');
    if (!list) throw new Error('no list');
    const conversation = createConversation({
      family: 'tasks',
      names: 'raider',
      askTimeoutMs: 1000,
      team: true,
      runtime,
      list,
    });
    open.push({ close: () => conversation.close('test over') });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await conversation.newServer('legacy', undefined, { agent: 'alice' }).connect(serverSide);
    const apps = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
    const alice = new Client({ name: 'alice', version: '1.0.0' }, { capabilities: apps });
    await alice.connect(clientSide);
    open.push(alice);
    await alice.callTool({ name: 'task_create', arguments: { subject: 'Parser', description: '' } });
    await alice.callTool({ name: 'task_update', arguments: { taskId: '1', owner: 'bob' } });
    await expect
      .poll(async () => (await alice.listTools()).tools.some((tool) => tool.name === 'board_set_status'))
      .toBe(true);
    const set = await alice.callTool({ name: 'board_set_status', arguments: { taskId: '1', status: 'in_progress' } });
    expect(set.content).toEqual([{ type: 'text', text: 'Updated task #1 status' }]);
    await expect
      .poll(async () => (await list.messages().peek('bob')).map((message) => message.label))
      .toEqual([
        'alice made you the owner of task #1 "Parser"',
        'Someone changed your task #1 "Parser": status (now in_progress)',
      ]);
  });
});
