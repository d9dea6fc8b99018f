import { describe, expect, it } from 'vitest';
import { ToolNamesArgumentError } from './errors.js';
import { claudeInput, raiderInput } from './index.js';

const FILE_TOOLS = ['read_file', 'write_file', 'edit_file', 'multi_edit'];

describe('file tools: path <-> file_path', () => {
  it.each(FILE_TOOLS)('%s', (tool) => {
    expect(claudeInput(tool, { path: 'lib/A.pm', content: 'x' })).toEqual({ file_path: 'lib/A.pm', content: 'x' });
    expect(raiderInput(tool, { file_path: 'lib/A.pm', content: 'x' })).toEqual({ path: 'lib/A.pm', content: 'x' });
  });

  it("the examples of raider's table", () => {
    expect(claudeInput('read_file', { path: 'lib/A.pm' })).toEqual({ file_path: 'lib/A.pm' });
    expect(raiderInput('edit_file', { file_path: '/abs/A.pm', old_string: 'a', new_string: 'b' })).toEqual({
      path: '/abs/A.pm',
      old_string: 'a',
      new_string: 'b',
    });
  });

  it('keys only one side knows pass through (offset of Read)', () => {
    expect(raiderInput('read_file', { file_path: 'a', offset: 10, limit: 5 })).toEqual({
      path: 'a',
      offset: 10,
      limit: 5,
    });
  });

  it('with both names of one argument, the translated key wins and the other is dropped', () => {
    expect(claudeInput('read_file', { path: 'raider', file_path: 'claude' })).toEqual({ file_path: 'raider' });
    expect(claudeInput('read_file', { file_path: 'claude', path: 'raider' })).toEqual({ file_path: 'raider' });
    expect(raiderInput('write_file', { path: 'raider', file_path: 'claude' })).toEqual({ path: 'claude' });
  });

  it('an input already in the other form keeps its key', () => {
    expect(claudeInput('read_file', { file_path: 'a' })).toEqual({ file_path: 'a' });
    expect(raiderInput('read_file', { path: 'a' })).toEqual({ path: 'a' });
  });
});

describe('kill_shell: shell_id <-> task_id', () => {
  it('goes out as TaskStop task_id', () => {
    expect(claudeInput('kill_shell', { shell_id: 'bash_1' })).toEqual({ task_id: 'bash_1' });
  });

  it('comes back from task_id and lets shell_id through', () => {
    expect(raiderInput('kill_shell', { task_id: 'bash_1' })).toEqual({ shell_id: 'bash_1' });
    expect(raiderInput('kill_shell', { shell_id: 'bash_2' })).toEqual({ shell_id: 'bash_2' });
  });

  it('with both, the translated key wins', () => {
    expect(raiderInput('kill_shell', { shell_id: 'old', task_id: 'new' })).toEqual({ shell_id: 'new' });
    expect(claudeInput('kill_shell', { shell_id: 'raider', task_id: 'claude' })).toEqual({ task_id: 'raider' });
  });
});

describe('bash: timeout seconds <-> milliseconds', () => {
  it('seconds become milliseconds and back', () => {
    expect(claudeInput('bash', { command: 'ls', timeout: 30 })).toEqual({ command: 'ls', timeout: 30000 });
    expect(raiderInput('bash', { command: 'ls', timeout: 30000 })).toEqual({ command: 'ls', timeout: 30 });
  });

  it('milliseconds that are not whole seconds round up to the next whole second', () => {
    expect(raiderInput('bash', { timeout: 1500 })).toEqual({ timeout: 2 });
    expect(raiderInput('bash', { timeout: 1 })).toEqual({ timeout: 1 });
    expect(raiderInput('bash', { timeout: 120001 })).toEqual({ timeout: 121 });
    expect(raiderInput('bash', { timeout: 0 })).toEqual({ timeout: 0 });
  });

  it('a timeout that is not a finite number passes unchanged for the tool to judge', () => {
    expect(claudeInput('bash', { timeout: '30' })).toEqual({ timeout: '30' });
    expect(raiderInput('bash', { timeout: null })).toEqual({ timeout: null });
  });

  it('other keys pass (description of Bash, working_directory of bash)', () => {
    expect(raiderInput('bash', { command: 'ls', description: 'list' })).toEqual({ command: 'ls', description: 'list' });
    expect(claudeInput('bash', { command: 'ls', working_directory: '/p' })).toEqual({
      command: 'ls',
      working_directory: '/p',
    });
  });
});

describe('bash_output <-> TaskOutput', () => {
  it('goes out as TaskOutput with block false written down', () => {
    expect(claudeInput('bash_output', { bash_id: 'b1' })).toEqual({ task_id: 'b1', block: false });
    expect(claudeInput('bash_output', { bash_id: 'b1', timeout: 5 })).toEqual({
      task_id: 'b1',
      timeout: 5000,
      block: false,
    });
  });

  it('keeps a block that was given', () => {
    expect(claudeInput('bash_output', { bash_id: 'b1', block: true })).toEqual({ task_id: 'b1', block: true });
    expect(raiderInput('bash_output', { task_id: 'b1', block: false })).toEqual({ bash_id: 'b1', block: false });
  });

  it('comes back from a TaskOutput input with block true when not given', () => {
    expect(raiderInput('bash_output', { task_id: 'b1' })).toEqual({ bash_id: 'b1', block: true });
    expect(raiderInput('bash_output', { task_id: 'b1', timeout: 2500 })).toEqual({
      bash_id: 'b1',
      timeout: 3,
      block: true,
    });
  });

  it('passes the older BashOutput input (bash_id, filter) unchanged', () => {
    const old = { bash_id: 'b1', filter: 'ERROR' };
    const back = raiderInput('bash_output', old);
    expect(back).toEqual({ bash_id: 'b1', filter: 'ERROR' });
    expect(back).not.toBe(old);
  });

  it('with both bash_id and task_id, task_id wins on the way back', () => {
    expect(raiderInput('bash_output', { bash_id: 'old', task_id: 'new' })).toEqual({ bash_id: 'new', block: true });
  });

  it('a bash_output input without block comes back with block false', () => {
    expect(raiderInput('bash_output', claudeInput('bash_output', { bash_id: 'b1' }))).toEqual({
      bash_id: 'b1',
      block: false,
    });
  });
});

describe('everything else', () => {
  it('ask_user passes unchanged both ways', () => {
    const args = { question: 'Which?', options: ['a', 'b'] };
    expect(claudeInput('ask_user', args)).toEqual(args);
    expect(raiderInput('ask_user', args)).toEqual(args);
  });

  it('shared names pass under their own name', () => {
    const args = { subject: 's', description: 'd', activeForm: 'a', taskId: '1', addBlocks: ['2'], metadata: { k: 1 } };
    expect(claudeInput('task_update', args)).toEqual(args);
    expect(raiderInput('task_update', args)).toEqual(args);
    expect(claudeInput('grep', { pattern: 'x', '-i': true, output_mode: 'content' })).toEqual({
      pattern: 'x',
      '-i': true,
      output_mode: 'content',
    });
  });

  it('unknown and mcp__ tools get a copy', () => {
    const args = { path: 'p', timeout: 3 };
    for (const tool of ['mcp__gh__x', 'Read', 'no_such_tool']) {
      const out = claudeInput(tool, args);
      expect(out).toEqual(args);
      expect(out).not.toBe(args);
      expect(raiderInput(tool, args)).not.toBe(args);
    }
  });

  it('never mutates the input', () => {
    const args = Object.freeze({ path: 'p', file_path: 'q', shell_id: 's', timeout: 3, bash_id: 'b' });
    for (const tool of ['read_file', 'kill_shell', 'bash', 'bash_output']) {
      expect(() => claudeInput(tool, args)).not.toThrow();
      expect(() => raiderInput(tool, args)).not.toThrow();
    }
    expect(args).toEqual({ path: 'p', file_path: 'q', shell_id: 's', timeout: 3, bash_id: 'b' });
  });

  it('keeps a __proto__ key as a plain key and never touches the prototype', () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}, "path": "p"}');
    const out = claudeInput('read_file', args);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts objects without a prototype', () => {
    const args = Object.assign(Object.create(null), { path: 'p' });
    expect(claudeInput('read_file', args)).toEqual({ file_path: 'p' });
  });
});

describe('bad input', () => {
  it('throws a TypeError without a tool name', () => {
    expect(() => claudeInput(undefined as unknown as string, {})).toThrow(
      new ToolNamesArgumentError(
        'claudeInput: expected a tool name (a non-empty string) as the first argument, received undefined',
      ),
    );
    expect(() => raiderInput('', {})).toThrow(
      new ToolNamesArgumentError(
        'raiderInput: expected a tool name (a non-empty string) as the first argument, received the string ""',
      ),
    );
  });

  it('throws a TypeError when the arguments are not a plain object', () => {
    expect(() => claudeInput('bash', null as unknown as Record<string, unknown>)).toThrow(
      new ToolNamesArgumentError('claudeInput: expected the arguments of bash to be a plain object, received null'),
    );
    expect(() => raiderInput('bash', ['ls'] as unknown as Record<string, unknown>)).toThrow(
      new ToolNamesArgumentError('raiderInput: expected the arguments of bash to be a plain object, received an array'),
    );
    expect(() => raiderInput('bash', new Map() as unknown as Record<string, unknown>)).toThrow(
      'received an instance of Map',
    );
    expect(() => claudeInput('bash', 'ls' as unknown as Record<string, unknown>)).toThrow('received the string "ls"');
  });
});
