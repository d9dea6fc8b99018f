import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  claudeInput,
  claudeName,
  claudeNames,
  isMcp,
  olderClaudeNames,
  parseRule,
  raiderInput,
  raiderName,
  raiderNames,
  raiderTools,
  unmappedClaudeNames,
  unmappedReason,
} from './index.js';

// raider's table (Langertha::Raider::ToolNames), row by row: [Claude Code name, raider tool], read
// from the README's two tables of mapped names, the documentation of every decision (not written
// out here a second time): a row of src/table.ts that the README does not say, or says otherwise,
// fails. A README row names its Claude Code names and their raider tools in one order
// (`Read, Write, Edit | read_file, write_file, edit_file`), or several names of one tool.
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The rows of the README's table under the heading that starts `heading`: [Claude Code name, raider tool] each. */
function readmeRows(heading: string): [string, string][] {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => line.startsWith(heading));
  const end = lines.findIndex((line, at) => at > start && line.startsWith('#'));
  const rows = lines.slice(start, end).filter((line) => line.startsWith('|'));
  return rows.slice(2).flatMap((row) => {
    const [claude, raider] = row
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim().split(', ')) as [string[], string[]];
    return claude.map((name, at): [string, string] => [name, (raider.length === 1 ? raider[0] : raider[at]) as string]);
  });
}

const TABLE = [...readmeRows('### Mapped, current names'), ...readmeRows('### Mapped, older names')];

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

// Claude Code 2.1.332's current tool names (reference, "Tool names"): each is mapped or left
// unmapped on purpose, none is simply missing.
const CURRENT_2_1_332 = [
  'Read',
  'Write',
  'Edit',
  'Bash',
  'Glob',
  'Grep',
  'WebFetch',
  'WebSearch',
  'Skill',
  'TodoWrite',
  'TaskCreate',
  'TaskUpdate',
  'TaskList',
  'TaskGet',
  'Agent',
  'AskUserQuestion',
  'EnterPlanMode',
  'ExitPlanMode',
  'SendMessage',
  'Monitor',
  'CronCreate',
  'CronDelete',
  'CronList',
  'EnterWorktree',
  'ExitWorktree',
  'TaskStop',
  'NotebookEdit',
  'ToolSearch',
  'ScheduleWakeup',
];

// The mapped names current Claude Code no longer offers (reference: older names).
const OLDER = ['Task', 'MultiEdit', 'LS', 'BashOutput', 'KillShell', 'KillBash', 'TaskOutput'];

// The names the table leaves unmapped on purpose: 2.1.332's ungated ones without a raider tool,
// its gated names, GetTask, and the older output tools raider's table never mapped.
const UNMAPPED = [
  'NotebookEdit',
  'ToolSearch',
  'ScheduleWakeup',
  'Yield',
  'Poll',
  'SetGoal',
  'GetGoal',
  'PauseGoal',
  'ProposeGoal',
  'WrapUp',
  'OfferChromeSetup',
  'ReadNotifications',
  'SendFeedback',
  'McpTaskCheck',
  'McpTaskResumePolling',
  'McpTaskShowQuestion',
  'ReadWidgetContext',
  'EndConversation',
  'RefreshMcpTools',
  'SendFile',
  'SendToProject',
  'SendToProjectContext',
  'FetchInboxMessage',
  'SubagentHandback',
  'ObserverReport',
  'ListConnectors',
  'SuggestConnectors',
  'SearchMcpRegistry',
  'SuggestSkills',
  'SuggestPluginInstall',
  'ListPlugins',
  'PublishPlugin',
  'propose_skills',
  'ClaudeDesign',
  'ArtifactCheck',
  'ArtifactData',
  'ArtifactComments',
  'AppifactRepl',
  'memory_list',
  'memory_read',
  'memory_write',
  'GetTask',
  'AgentOutput',
  'AgentOutputTool',
  'BashOutputTool',
];

describe('Claude Code 2.1.332', () => {
  it('every current name is mapped or left unmapped on purpose, and no current name is listed as older', () => {
    const unmapped = new Set(unmappedClaudeNames());
    const older = new Set(olderClaudeNames());
    for (const name of CURRENT_2_1_332) {
      expect(raiderName(name) !== undefined || unmapped.has(name), name).toBe(true);
      expect(older.has(name), name).toBe(false);
    }
  });

  // The rows the table gained with send_message, Monitor, the Cron and the worktree tools.
  const NEWER = ['SendMessage', 'Monitor', 'CronCreate', 'CronDelete', 'CronList', 'EnterWorktree', 'ExitWorktree'];
  it.each(TABLE.filter(([claude]) => NEWER.includes(claude)))(
    '%s maps to %s both ways, under rules and in agent files',
    (claude, raider) => {
      expect(raiderName(claude)).toBe(raider);
      expect(claudeName(raider)).toBe(claude);
      expect(parseRule(claude)).toEqual({ tool: raider });
      expect(raiderTools([claude])).toEqual({ tools: [raider], unknown: [] });
      expect(unmappedReason(claude)).toBeUndefined();
    },
  );
});

describe('older names', () => {
  it('olderClaudeNames lists the mapped names current Claude Code no longer offers, sorted', () => {
    expect(olderClaudeNames()).toEqual([...OLDER].sort());
    for (const name of olderClaudeNames()) expect(claudeNames()).toContain(name);
  });

  it('TaskOutput is an older name and still translated: name, rule, agent file and arguments', () => {
    expect(olderClaudeNames()).toContain('TaskOutput');
    expect(raiderName('TaskOutput')).toBe('bash_output');
    expect(claudeName('bash_output')).toBe('TaskOutput');
    expect(parseRule('TaskOutput')).toEqual({ tool: 'bash_output' });
    expect(raiderTools('TaskOutput, BashOutput')).toEqual({ tools: ['bash_output'], unknown: [] });
    expect(raiderInput('bash_output', { task_id: 'b1', timeout: 5000 })).toEqual({
      bash_id: 'b1',
      timeout: 5,
      block: true,
    });
    expect(claudeInput('bash_output', { bash_id: 'b1', timeout: 5 })).toEqual({
      task_id: 'b1',
      timeout: 5000,
      block: false,
    });
    expect(unmappedReason('TaskOutput')).toBeUndefined();
  });

  it('hands out a new array each call', () => {
    olderClaudeNames().push('Bogus');
    expect(olderClaudeNames()).not.toContain('Bogus');
  });
});

describe('names left unmapped on purpose', () => {
  it('unmappedClaudeNames lists them, sorted, none of them a name the table maps', () => {
    expect(unmappedClaudeNames()).toEqual([...UNMAPPED].sort());
    expect(unmappedClaudeNames()).toHaveLength(45);
    for (const name of unmappedClaudeNames()) expect(claudeNames()).not.toContain(name);
  });

  it.each(UNMAPPED)('%s answers as an unknown name does, with its reason', (name) => {
    expect(raiderName(name)).toBeUndefined();
    expect(parseRule(name)).toBeUndefined();
    expect(parseRule(`${name}(x)`)).toBeUndefined();
    expect(raiderTools([name])).toEqual({ tools: [], unknown: [name] });
    expect(unmappedReason(name)).toMatch(/^left unmapped because /);
  });

  it('Yield, the MCP task tools and ScheduleWakeup give their own reasons', () => {
    expect(unmappedReason('Yield')).toBe(
      "left unmapped because a raider run waits for its background work itself and hands the model every notification before its next request (raider's registry of background work), so no tool is needed to wait (gated in 2.1.332)",
    );
    expect(unmappedReason('McpTaskCheck')).toBe(
      "left unmapped because it is Claude Code's side of MCP tasks, offered only while Claude Code acts as an MCP tasks client; raider's tools are the server side of MCP, so there is no raider tool for it",
    );
    expect(unmappedReason('McpTaskResumePolling')).toBe(unmappedReason('McpTaskCheck'));
    expect(unmappedReason('McpTaskShowQuestion')).toBe(unmappedReason('McpTaskCheck'));
    expect(unmappedReason('ScheduleWakeup')).toMatch(/^left unmapped because raider's table keeps it so/);
  });

  it('the self_hosted_runner_* family is left unmapped by prefix', () => {
    expect(raiderName('self_hosted_runner_start')).toBeUndefined();
    expect(unmappedReason('self_hosted_runner_start')).toBe(unmappedReason('ClaudeDesign'));
    expect(unmappedReason('self_hosted_runner_')).toBeUndefined();
    expect(unmappedClaudeNames()).not.toContain('self_hosted_runner_');
  });

  it('unmappedReason knows nothing of mapped, mcp__, unknown or other-case names, nor of non-strings', () => {
    for (const name of ['Read', 'TaskOutput', 'mcp__gh__x', 'Bogus', 'yield', 'notebookedit', '', 'constructor']) {
      expect(unmappedReason(name)).toBeUndefined();
    }
    for (const name of [undefined, null, 3, {}, ['Yield']]) expect(unmappedReason(name)).toBeUndefined();
  });

  it('hands out a new array each call', () => {
    unmappedClaudeNames().length = 0;
    expect(unmappedClaudeNames()).toHaveLength(45);
  });
});

describe('README', () => {
  // The README's table is the documentation of every decision: a name added here without a row
  // there fails.
  it('names every mapped, older and unmapped name', () => {
    for (const name of [...claudeNames(), ...unmappedClaudeNames()]) {
      expect(readme, name).toMatch(new RegExp(`(?<![\\w-])${name}(?![\\w-])`));
    }
    expect(readme).toContain('self_hosted_runner_*');
  });
});
