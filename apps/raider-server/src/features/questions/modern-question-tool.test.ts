// The 2026-era question tool, recorded once and registered on every server.
import { describe, expect, it, vi } from 'vitest';
import type { PipelineTool } from '../../conversation/call-pipeline.js';
import { ModernQuestionTool } from './modern-question-tool.js';

describe('the 2026-era question tool', () => {
  it('is recorded once and registered on every server', () => {
    const ask: PipelineTool = {
      name: 'ask_user',
      config: { description: 'ask' },
      handler: async () => ({ content: [{ type: 'text', text: '' }] }),
    };
    const record = vi.fn(() => [ask]);
    const tool = new ModernQuestionTool(record);
    const [one, two] = [{ register: vi.fn() }, { register: vi.fn() }];
    tool.registerOn(one);
    tool.registerOn(two);
    expect(record).toHaveBeenCalledTimes(1);
    expect(one.register.mock.calls).toEqual([[ask]]);
    expect(two.register.mock.calls).toEqual([[ask]]);
  });
});
