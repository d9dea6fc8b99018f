/**
 * The table of Claude Code tool names and the raider tools they stand for
 * (seed 003, Langertha::Raider::ToolNames).
 */

// Claude Code name -> raider tool, every alias included. Kept as the seed lists it.
const CLAUDE_TO_RAIDER: ReadonlyMap<string, string> = new Map([
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
]);

// Where a raider tool has several Claude Code names, the way back answers with the
// current one (seed: "The way back answers with the current name: Agent, TaskStop, TaskOutput").
const CURRENT_NAME: Readonly<Record<string, string>> = {
  agent: 'Agent',
  kill_shell: 'TaskStop',
  bash_output: 'TaskOutput',
};

const RAIDER_TO_CLAUDE: ReadonlyMap<string, string> = (() => {
  const back = new Map<string, string>();
  for (const [claude, raider] of CLAUDE_TO_RAIDER) {
    if (!back.has(raider)) back.set(raider, CURRENT_NAME[raider] ?? claude);
  }
  return back;
})();

const SORTED_CLAUDE_NAMES: readonly string[] = [...CLAUDE_TO_RAIDER.keys()].sort();
const SORTED_RAIDER_NAMES: readonly string[] = [...RAIDER_TO_CLAUDE.keys()].sort();

// mcp__SERVER__TOOL with a non-empty server and tool part.
const MCP_NAME = /^mcp__.+__.+$/s;

/**
 * True for a name of the form `mcp__server__tool` (an MCP tool, which raider addresses
 * under the same name). False for anything else, non-strings included.
 *
 * @example isMcp('mcp__github__create_issue') // true
 */
export function isMcp(name: unknown): boolean {
  return typeof name === 'string' && MCP_NAME.test(name);
}

/**
 * The raider tool a Claude Code tool name stands for; an `mcp__*` name unchanged;
 * `undefined` for any other name. Exact case only: the table never guesses.
 *
 * @example raiderName('Read') // 'read_file'
 * @example raiderName('KillBash') // 'kill_shell'
 * @example raiderName('read') // undefined
 */
export function raiderName(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  return CLAUDE_TO_RAIDER.get(name) ?? (isMcp(name) ? name : undefined);
}

/**
 * The Claude Code name of a raider tool; an `mcp__*` name unchanged; `undefined` for a tool
 * the table does not know. A tool with several Claude Code names answers with the current
 * one: `agent` -> `Agent`, `kill_shell` -> `TaskStop`, `bash_output` -> `TaskOutput`.
 *
 * @example claudeName('read_file') // 'Read'
 */
export function claudeName(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  return RAIDER_TO_CLAUDE.get(name) ?? (isMcp(name) ? name : undefined);
}

/** All Claude Code names of the table, aliases included (not the MCP pass-through), sorted. A new array each call. */
export function claudeNames(): string[] {
  return [...SORTED_CLAUDE_NAMES];
}

/** All raider tool names of the table, sorted, each once. A new array each call. */
export function raiderNames(): string[] {
  return [...SORTED_RAIDER_NAMES];
}
