import { describe, expect, it } from 'vitest';
import { parseRule, raiderTools } from './index.js';

describe('parseRule', () => {
  it('reads a rule with a specifier', () => {
    expect(parseRule('Bash(npm run test:*)')).toEqual({ tool: 'bash', specifier: 'npm run test:*' });
    expect(parseRule('Read(./secrets/**)')).toEqual({ tool: 'read_file', specifier: './secrets/**' });
    expect(parseRule('WebFetch(domain:example.com)')).toEqual({ tool: 'web_fetch', specifier: 'domain:example.com' });
  });

  it('keeps parentheses inside the specifier', () => {
    expect(parseRule('Bash(echo (hi))')).toEqual({ tool: 'bash', specifier: 'echo (hi)' });
  });

  it('gives a bare name no specifier', () => {
    const rule = parseRule('Read');
    expect(rule).toEqual({ tool: 'read_file' });
    expect(rule && 'specifier' in rule).toBe(false);
    expect(parseRule('  Grep  ')).toEqual({ tool: 'grep' });
    expect(parseRule('Bash()')).toEqual({ tool: 'bash' });
  });

  it('passes mcp__ tools through', () => {
    expect(parseRule('mcp__github__create_issue')).toEqual({ tool: 'mcp__github__create_issue' });
  });

  it('gives undefined for unknown names and for text that is not a rule', () => {
    for (const rule of ['Bogus(x)', 'bash(ls)', 'Bash(ls', 'Bash ls', '(ls)', '', 'NotebookEdit', undefined, 3]) {
      expect(parseRule(rule)).toBeUndefined();
    }
  });
});

describe('raiderTools', () => {
  it('translates an agent file tools list and names what it does not know', () => {
    expect(raiderTools(['Read', 'Grep', 'mcp__gh__x', 'Bogus'])).toEqual({
      tools: ['read_file', 'grep', 'mcp__gh__x'],
      unknown: ['Bogus'],
    });
  });

  it('lists each raider tool once, in first occurrence order', () => {
    expect(raiderTools(['Agent', 'Task', 'KillBash', 'TaskStop', 'Read'])).toEqual({
      tools: ['agent', 'kill_shell', 'read_file'],
      unknown: [],
    });
  });

  it('reads the comma-separated form of agent files', () => {
    expect(raiderTools('Read, Grep,Glob , NotebookEdit')).toEqual({
      tools: ['read_file', 'grep', 'glob'],
      unknown: ['NotebookEdit'],
    });
    expect(raiderTools('')).toEqual({ tools: [], unknown: [] });
  });

  it('throws a TypeError for anything else', () => {
    expect(() => raiderTools(undefined as unknown as string[])).toThrow(TypeError);
    expect(() => raiderTools({} as unknown as string[])).toThrow(
      'raiderTools: expected an array of tool names or a comma-separated string, received object',
    );
  });
});
