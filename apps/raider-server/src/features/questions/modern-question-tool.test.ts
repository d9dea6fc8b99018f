// The 2026-era question tool, recorded once and registered on every server.
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { openServer } from '../../conversation/conversation-server.js';
import { ModernQuestionTool } from './modern-question-tool.js';

const server = () => openServer({ family: 'tasks', names: 'raider', askTimeoutMs: 1000 });

describe('the 2026-era question tool', () => {
  it('is recorded once and registered on every server', () => {
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
});
