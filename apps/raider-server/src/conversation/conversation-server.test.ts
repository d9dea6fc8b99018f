// The parts of each server of a conversation: its McpServer and the progress registrar.
import { describe, expect, it } from 'vitest';
import { openServer, progressRegistrar } from './conversation-server.js';

const server = () => openServer({ family: 'tasks', names: 'raider', askTimeoutMs: 1000 });

describe('the parts of a conversation server', () => {
  it('the registrar keeps each tool by the name it was registered under (the board app links the list tools)', () => {
    const { registrar, registered } = progressRegistrar(server(), undefined);
    for (const name of ['task_list', 'task_get', 'TaskList', 'todo']) {
      registrar.registerTool(
        name,
        { description: name } as never,
        async () => ({ content: [{ type: 'text', text: '' }] }) as never,
      );
    }
    expect([...registered.keys()]).toEqual(['task_list', 'task_get', 'TaskList', 'todo']);
    expect(registered.get('todo')?.description).toBe('todo');
  });
});
