// The parts of each server of a conversation: its McpServer, the progress registrar, the 2026-era
// question tool recorded once, and when the board app is offered.
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { ModernQuestionTool, openServer, progressRegistrar, whenAppsRendered } from './conversation-server.js';

const server = () => openServer({ family: 'tasks', names: 'raider', askTimeoutMs: 1000 });

describe('the parts of a conversation server', () => {
  it('the registrar keeps the list tools (to link them to the board app) and no others', () => {
    const { registrar, listTools } = progressRegistrar(server(), undefined);
    for (const name of ['task_list', 'task_get', 'TaskList', 'todo']) {
      registrar.registerTool(
        name,
        { description: name } as never,
        async () => ({ content: [{ type: 'text', text: '' }] }) as never,
      );
    }
    expect(listTools).toHaveLength(3);
  });

  it('the 2026-era question tool is recorded once and registered on every server', () => {
    const register = vi.fn((recorder: McpServer, _era: 'legacy' | 'modern') => {
      recorder.registerTool(
        'ask_user',
        { description: 'ask' },
        async () => ({ content: [{ type: 'text', text: '' }] }) as never,
      );
    });
    const tool = new ModernQuestionTool({ register });
    const [one, two] = [server(), server()];
    const registerOne = vi.spyOn(one, 'registerTool');
    const registerTwo = vi.spyOn(two, 'registerTool');
    tool.registerOn(one, 'a');
    tool.registerOn(two, undefined);
    expect(register).toHaveBeenCalledTimes(1);
    expect(register.mock.calls[0]?.[1]).toBe('modern');
    expect(registerOne.mock.calls.map((c) => c[0])).toEqual(['ask_user']);
    expect(registerTwo.mock.calls.map((c) => c[0])).toEqual(['ask_user']);
  });

  it('a 2026-era request that announces MCP Apps is offered the board app at once; one that does not, never', () => {
    const offer = vi.fn();
    whenAppsRendered(server(), 'modern', { clientCapabilities: {} }, offer);
    expect(offer).not.toHaveBeenCalled();
    const apps = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
    whenAppsRendered(server(), 'modern', { clientCapabilities: apps }, offer);
    expect(offer).toHaveBeenCalledTimes(1);
    const legacy = server();
    whenAppsRendered(legacy, 'legacy', undefined, offer);
    expect(legacy.server.oninitialized).toBeTypeOf('function');
  });
});
