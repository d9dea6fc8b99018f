// The call pipeline: the ordered steps every tools/call of a conversation passes, over one typed
// context, tried on a server of its own in-process.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Names } from '../types.js';
import { CALL_STEPS, type CallContext, currentCall, type ServerSettings, ToolPipeline } from './call-pipeline.js';
import { openServer } from './conversation-server.js';

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

/** A server whose tools go through a pipeline with `settings`, and a client of it. */
async function served(settings: Partial<ServerSettings> & { names?: Names } = {}) {
  const server = openServer({ family: 'tasks', names: settings.names ?? 'raider', askTimeoutMs: 1000 });
  const tools = new ToolPipeline(server, {
    era: 'legacy',
    names: 'raider',
    agent: 'alice',
    listId: 'team',
    answers: undefined,
    progressEveryMs: undefined,
    deadline: { fixedMs: 7000, transport: 'stdio' },
    ...settings,
  });
  const connect = async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'pipeline', version: '1.0.0' });
    await client.connect(clientSide);
    open.push(client, server);
    return client;
  };
  return { tools, connect };
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const schema = z.object({ taskId: z.unknown().optional(), subject: z.unknown().optional() }).passthrough();

describe('the call pipeline', () => {
  it('has these steps, in this order', () => {
    expect(CALL_STEPS.map((step) => step.name)).toEqual(['progress', 'claude-arguments', 'work-done', 'current-call']);
  });

  it("hands the handler the call's context: the tool, the era, the agent, the list, the deadline, and currentCall()", async () => {
    const { tools, connect } = await served();
    let seen: CallContext | undefined;
    let current: CallContext | undefined;
    tools.register({
      name: 'task_get',
      config: { description: 'get', inputSchema: schema },
      handler: (args, call) => {
        seen = call;
        current = currentCall();
        return text(JSON.stringify(args));
      },
    });
    const client = await connect();
    const answer = await client.callTool({ name: 'task_get', arguments: { taskId: '1' } });
    expect(answer.content).toEqual([{ type: 'text', text: '{"taskId":"1"}' }]);
    expect(seen).toBeDefined();
    expect(current).toBe(seen);
    expect(currentCall()).toBeUndefined();
    expect([seen?.tool, seen?.era, seen?.agent, seen?.listId, seen?.deadlineMs]).toEqual([
      'task_get',
      'legacy',
      'alice',
      'team',
      7000,
    ]);
  });

  it("under Claude names, a family tool is listed under Claude Code's name and gets raider's arguments; a tool that names itself does not", async () => {
    const { tools, connect } = await served({ names: 'claude' });
    const got: Record<string, unknown>[] = [];
    const handler = (args: Record<string, unknown>) => {
      got.push(args);
      return text('ok');
    };
    tools.register({ name: 'task_create', config: { inputSchema: schema }, handler, claudeNames: true });
    tools.register({ name: 'task_claim', config: { inputSchema: schema }, handler, claudeNames: true });
    tools.register({ name: 'send_message', config: { inputSchema: schema }, handler });
    const client = await connect();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'TaskCreate',
      'TaskClaim',
      'send_message',
    ]);
    await client.callTool({ name: 'TaskCreate', arguments: { subject: 'Write it' } });
    await client.callTool({ name: 'send_message', arguments: { subject: 'as is' } });
    expect(got[0]?.subject).toBe('Write it');
    expect(got[1]).toEqual({ subject: 'as is' });
    expect(tools.registered('TaskCreate')).toBeDefined();
    expect(tools.registered('task_create')).toBeUndefined();
  });

  it('sends progress while a tool that declares it runs, at the interval, when the client gave a token', async () => {
    const { tools, connect } = await served({ progressEveryMs: 20 });
    let release: () => void = () => {};
    tools.register({
      name: 'slow',
      config: { inputSchema: schema },
      handler: () =>
        new Promise((resolve) => {
          release = () => resolve(text('done'));
        }),
      progress: true,
    });
    const client = await connect();
    const progress: number[] = [];
    const answer = client.callTool({ name: 'slow', arguments: {} }, undefined, {
      onprogress: (event) => {
        progress.push(event.progress);
        if (progress.length === 2) release();
      },
    });
    expect((await answer).content).toEqual([{ type: 'text', text: 'done' }]);
    // At the interval, counted from 1 (one more may come while the answer is on its way).
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress).toEqual(progress.map((_, index) => index + 1));
  });

  it("runs a person's tool (the board app's) with no current call: what it changes is no agent's doing", async () => {
    const { tools, connect } = await served();
    let current: CallContext | undefined | 'unseen' = 'unseen';
    let agent: string | undefined;
    tools.register({
      name: 'board_set_status',
      config: { inputSchema: schema },
      handler: (_args, call) => {
        current = currentCall();
        agent = call.agent;
        return text('ok');
      },
      person: true,
    });
    const client = await connect();
    await client.callTool({ name: 'board_set_status', arguments: {} });
    expect(current).toBeUndefined();
    expect(agent).toBe('alice');
  });

  it('answers once the work the call began settled (answerAfter)', async () => {
    const { tools, connect } = await served();
    let finish: () => void = () => {};
    let finished = false;
    tools.register({
      name: 'task_update',
      config: { inputSchema: schema },
      handler: () => {
        currentCall()?.answerAfter(
          new Promise<void>((resolve) => {
            finish = () => {
              finished = true;
              resolve();
            };
          }),
        );
        return text('Updated task #1 status');
      },
    });
    const client = await connect();
    const answer = client.callTool({ name: 'task_update', arguments: {} }).then((result) => {
      expect(finished).toBe(true);
      return result;
    });
    await new Promise((resolve) => setImmediate(resolve));
    finish();
    expect((await answer).content).toEqual([{ type: 'text', text: 'Updated task #1 status' }]);
  });
});
