import { describe, expect, it } from 'vitest';
import { claudeName, claudeNames, isMcp, raiderName, raiderNames } from './index.js';

// The seed's table, row by row: [Claude Code name, raider tool].
const TABLE: [string, string][] = [
  ['Read', 'read_file'],
  ['Write', 'write_file'],
  ['Edit', 'edit_file'],
  ['MultiEdit', 'multi_edit'],
  ['Bash', 'bash'],
  ['TaskOutput', 'bash_output'],
  ['BashOutput', 'bash_output'],
  ['TaskStop', 'kill_shell'],
  ['KillShell', 'kill_shell'],
  ['KillBash', 'kill_shell'],
  ['Glob', 'glob'],
  ['Grep', 'grep'],
  ['LS', 'list_files'],
  ['WebFetch', 'web_fetch'],
  ['WebSearch', 'web_search'],
  ['Skill', 'skill'],
  ['TodoWrite', 'todo_write'],
  ['TaskCreate', 'task_create'],
  ['TaskUpdate', 'task_update'],
  ['TaskList', 'task_list'],
  ['TaskGet', 'task_get'],
  ['Task', 'agent'],
  ['Agent', 'agent'],
  ['AskUserQuestion', 'ask_user'],
  ['EnterPlanMode', 'enter_plan_mode'],
  ['ExitPlanMode', 'exit_plan_mode'],
  ['SendMessage', 'send_message'],
  ['Monitor', 'monitor'],
  ['CronCreate', 'cron_create'],
  ['CronDelete', 'cron_delete'],
  ['CronList', 'cron_list'],
  ['EnterWorktree', 'enter_worktree'],
  ['ExitWorktree', 'exit_worktree'],
];

// The raider tools with several Claude Code names answer with the current one.
const ALIASES = new Set(['Task', 'KillShell', 'KillBash', 'BashOutput']);

describe('raiderName', () => {
  it.each(TABLE)('%s -> %s', (claude, raider) => {
    expect(raiderName(claude)).toBe(raider);
  });

  it('passes mcp__server__tool names through unchanged', () => {
    expect(raiderName('mcp__github__create_issue')).toBe('mcp__github__create_issue');
    expect(raiderName('mcp__my_server__do_it')).toBe('mcp__my_server__do_it');
  });

  it('never guesses: other case, raider names and names without a raider tool are unknown', () => {
    for (const name of [
      'read',
      'READ',
      'bash',
      'read_file',
      'NotebookEdit',
      'ToolSearch',
      'ScheduleWakeup',
      '',
      ' Read',
    ]) {
      expect(raiderName(name)).toBeUndefined();
    }
  });

  it('does not answer for Object.prototype keys or non-strings', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(raiderName(name)).toBeUndefined();
    for (const name of [undefined, null, 1, {}, ['Read']]) expect(raiderName(name)).toBeUndefined();
  });
});

describe('claudeName', () => {
  it.each(TABLE.filter(([claude]) => !ALIASES.has(claude)))('%s <- %s', (claude, raider) => {
    expect(claudeName(raider)).toBe(claude);
  });

  it('answers with the current name where a tool has several: Agent, TaskStop, TaskOutput', () => {
    expect(claudeName('agent')).toBe('Agent');
    expect(claudeName('kill_shell')).toBe('TaskStop');
    expect(claudeName('bash_output')).toBe('TaskOutput');
    expect(claudeName('list_files')).toBe('LS');
  });

  it('passes mcp__ names through and knows nothing else', () => {
    expect(claudeName('mcp__github__create_issue')).toBe('mcp__github__create_issue');
    for (const name of ['Read', 'READ_FILE', 'notebook_edit', 'constructor', '', undefined]) {
      expect(claudeName(name)).toBeUndefined();
    }
  });

  it('every Claude name maps to a raider tool whose way back maps to the same raider tool', () => {
    for (const name of claudeNames()) {
      const tool = raiderName(name);
      expect(raiderName(claudeName(tool))).toBe(tool);
    }
  });
});

describe('isMcp', () => {
  it('is true for mcp__server__tool only', () => {
    expect(isMcp('mcp__github__create_issue')).toBe(true);
    expect(isMcp('mcp__a__b')).toBe(true);
    for (const name of ['mcp__github', 'mcp____x', 'mcp__x__', 'MCP__a__b', 'Read', '', 'xmcp__a__b', undefined, 7]) {
      expect(isMcp(name)).toBe(false);
    }
  });
});

describe('claudeNames and raiderNames', () => {
  it('claudeNames lists every Claude Code name of the table, sorted', () => {
    expect(claudeNames()).toEqual(TABLE.map(([c]) => c).sort());
    expect(claudeNames()).toHaveLength(33);
  });

  it('raiderNames lists every raider tool once, sorted', () => {
    const expected = [...new Set(TABLE.map(([, r]) => r))].sort();
    expect(raiderNames()).toEqual(expected);
    expect(raiderNames()).toHaveLength(29);
  });

  it('hands out a new array each call, so a caller cannot change the table', () => {
    const names = claudeNames();
    names.push('Bogus');
    expect(claudeNames()).not.toContain('Bogus');
    const tools = raiderNames();
    tools.length = 0;
    expect(raiderNames()).toHaveLength(29);
  });
});
