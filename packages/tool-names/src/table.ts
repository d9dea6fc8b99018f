/**
 * The table of Claude Code tool names and the raider tools they stand for
 * (raider's table, Langertha::Raider::ToolNames), checked against Claude Code 2.1.332: the names it
 * maps (current and older ones), and the names it knows and deliberately leaves unmapped, each
 * with the reason.
 */

// Claude Code name -> raider tool, every alias included. Kept as raider's table lists it: a name
// that table does not list stays out of this map, whatever it looks like (the table never guesses).
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
  // send_message since ADR 0027; raider-server mounts it with --team or an agent name (issue 27),
  // and the table says what a name means, not that the tool is mounted.
  ['SendMessage', 'send_message'],
  // Monitor and the Cron tools since ADR 0031, the worktree tools since ADR 0032.
  ['Monitor', 'monitor'],
  ['CronCreate', 'cron_create'],
  ['CronDelete', 'cron_delete'],
  ['CronList', 'cron_list'],
  ['EnterWorktree', 'enter_worktree'],
  ['ExitWorktree', 'exit_worktree'],
]);

// The mapped names current Claude Code (2.1.332) no longer offers: they stay mapped because
// older sessions and agent files still name them. Task, KillShell and KillBash are still
// accepted as aliases (of Agent and TaskStop); MultiEdit, LS and BashOutput are gone; TaskOutput
// was removed in 2.1.277 and is on 2.1.332's list of removed tools.
const OLDER_NAMES: ReadonlySet<string> = new Set([
  'Task',
  'MultiEdit',
  'LS',
  'BashOutput',
  'TaskOutput',
  'KillShell',
  'KillBash',
]);

// Where a raider tool has several Claude Code names, the way back answers with the current one
// (raider's table: "The way back answers with the current name: Agent, TaskStop, TaskOutput").
// bash_output has no current name since TaskOutput was removed (its successor GetTask is always
// disabled), so it keeps answering TaskOutput, the last name Claude Code gave it, as that table says.
const CURRENT_NAME: Readonly<Record<string, string>> = {
  agent: 'Agent',
  kill_shell: 'TaskStop',
  bash_output: 'TaskOutput',
};

// Reasons shared by several unmapped names, so each is worded once.
const GOAL =
  "left unmapped because it belongs to Claude Code's session-goal feature (gated), and raider keeps no session goal";
const HOST_OFFER =
  "left unmapped because it is an offer Claude Code's host makes to the person (gated to a host and a flag), not work an agent does with a raider tool";
const MCP_TASKS_CLIENT =
  "left unmapped because it is Claude Code's side of MCP tasks, offered only while Claude Code acts as an MCP tasks client; raider's tools are the server side of MCP, so there is no raider tool for it";
const CLOUD_MESSAGE =
  "left unmapped because it sends or fetches messages through claude.ai, a cloud session or a bridge (gated to those); raider's only message tool is send_message (SendMessage), between the agents of one run";
const SUBAGENT_PROTOCOL =
  "left unmapped because it is offered only to Claude Code's own subagents, part of how they report to their parent; a raider agent hands its report back as its result";
const REMOTE_CONNECTORS =
  "left unmapped because it works with claude.ai's connectors or the MCP registry (gated to remote sessions); raider has no connector catalogue";
const PLUGINS =
  "left unmapped because it works with Claude Code's plugins and skill suggestions (gated to plugins, an organisation or remote sessions); raider's skill tool runs a skill and has no catalogue to suggest from";
const CLAUDE_AI =
  'left unmapped because it is a claude.ai, cloud or host feature (design, artifacts, memory) with no raider tool';
const REMOVED_OUTPUT =
  "left unmapped because this older output tool is on 2.1.332's list of removed tools and raider's table does not list it; bash_output answers to TaskOutput and BashOutput only";

// The Claude Code names the table knows and deliberately leaves without a raider tool, each with
// its reason. They answer as any unknown name does (raiderName gives undefined): listing them
// here documents the decision, it does not change the lookup.
const UNMAPPED: ReadonlyMap<string, string> = new Map([
  // Current names that every 2.1.332 session may offer.
  [
    'NotebookEdit',
    "left unmapped because raider has no tool that edits Jupyter notebook cells (raider's table, ADR 0025)",
  ],
  [
    'ToolSearch',
    "left unmapped because it is Claude Code's loader of deferred tool definitions, part of the client rather than a tool of the work (raider's table, ADR 0025)",
  ],
  [
    'ScheduleWakeup',
    "left unmapped because raider's table keeps it so while Monitor and the Cron tools map (ADR 0031): it schedules when Claude Code resumes its own looping session, which a raider run does not have",
  ],
  // Gated names new in 2.1.332 (none in 2.1.197).
  [
    'Yield',
    "left unmapped because a raider run waits for its background work itself and hands the model every notification before its next request (raider's registry of background work), so no tool is needed to wait (gated in 2.1.332)",
  ],
  [
    'Poll',
    'left unmapped because Claude Code offers it only when an environment setting or its host turns it on, and no raider tool stands for it',
  ],
  ['SetGoal', GOAL],
  ['GetGoal', GOAL],
  ['PauseGoal', GOAL],
  ['ProposeGoal', `${GOAL}; ProposeGoal is SetGoal's older name`],
  ['WrapUp', HOST_OFFER],
  ['OfferChromeSetup', HOST_OFFER],
  [
    'ReadNotifications',
    "left unmapped because it is gated to a flag and raider hands the model its notifications as user messages (raider's registry of background work), so there is nothing to read with a tool",
  ],
  [
    'SendFeedback',
    'left unmapped because it sends feedback about Claude Code itself (gated to a flag), and raider has no such channel',
  ],
  ['McpTaskCheck', MCP_TASKS_CLIENT],
  ['McpTaskResumePolling', MCP_TASKS_CLIENT],
  ['McpTaskShowQuestion', MCP_TASKS_CLIENT],
  [
    'ReadWidgetContext',
    "left unmapped because it is offered only while Claude Code hosts an MCP App, to read that app's widget; raider's board app is the server side of an MCP App",
  ],
  [
    'EndConversation',
    'left unmapped because only some models are offered it, to end the conversation themselves, and raider has no tool that ends a conversation',
  ],
  [
    'RefreshMcpTools',
    "left unmapped because it makes Claude Code, the MCP client, read its servers' tool lists again (gated): work of the client, which no raider tool does",
  ],
  ['SendFile', CLOUD_MESSAGE],
  ['SendToProject', CLOUD_MESSAGE],
  ['SendToProjectContext', CLOUD_MESSAGE],
  ['FetchInboxMessage', CLOUD_MESSAGE],
  ['SubagentHandback', SUBAGENT_PROTOCOL],
  ['ObserverReport', SUBAGENT_PROTOCOL],
  ['ListConnectors', REMOTE_CONNECTORS],
  ['SuggestConnectors', REMOTE_CONNECTORS],
  ['SearchMcpRegistry', REMOTE_CONNECTORS],
  ['SuggestSkills', PLUGINS],
  ['SuggestPluginInstall', PLUGINS],
  ['ListPlugins', PLUGINS],
  ['PublishPlugin', PLUGINS],
  ['propose_skills', PLUGINS],
  ['ClaudeDesign', CLAUDE_AI],
  ['ArtifactCheck', CLAUDE_AI],
  ['ArtifactData', CLAUDE_AI],
  ['ArtifactComments', CLAUDE_AI],
  ['AppifactRepl', CLAUDE_AI],
  ['memory_list', CLAUDE_AI],
  ['memory_read', CLAUDE_AI],
  ['memory_write', CLAUDE_AI],
  [
    'GetTask',
    'left unmapped because 2.1.332 defines it as the successor of TaskOutput but always disables it, so no session has shown its arguments; mapping it to bash_output would be a guess',
  ],
  // Older names gone from current Claude Code that raider's table never mapped.
  ['AgentOutput', REMOVED_OUTPUT],
  ['AgentOutputTool', REMOVED_OUTPUT],
  ['BashOutputTool', REMOVED_OUTPUT],
]);

// Families of unmapped names that share a prefix (2.1.332's self_hosted_runner_* tools).
const UNMAPPED_PREFIXES: ReadonlyArray<readonly [string, string]> = [['self_hosted_runner_', CLAUDE_AI]];

const RAIDER_TO_CLAUDE: ReadonlyMap<string, string> = (() => {
  const back = new Map<string, string>();
  for (const [claude, raider] of CLAUDE_TO_RAIDER) {
    if (!back.has(raider)) back.set(raider, CURRENT_NAME[raider] ?? claude);
  }
  return back;
})();

const SORTED_CLAUDE_NAMES: readonly string[] = [...CLAUDE_TO_RAIDER.keys()].sort();
const SORTED_RAIDER_NAMES: readonly string[] = [...RAIDER_TO_CLAUDE.keys()].sort();
const SORTED_OLDER_NAMES: readonly string[] = [...OLDER_NAMES].sort();
const SORTED_UNMAPPED_NAMES: readonly string[] = [...UNMAPPED.keys()].sort();

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
 * one: `agent` -> `Agent`, `kill_shell` -> `TaskStop`. `bash_output` answers `TaskOutput`, the
 * last name Claude Code gave it (removed in 2.1.277, no current name since; raider's table): a
 * permission rule written back under it is ignored by Claude Code 2.1.332.
 *
 * @example claudeName('read_file') // 'Read'
 */
export function claudeName(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  return RAIDER_TO_CLAUDE.get(name) ?? (isMcp(name) ? name : undefined);
}

/**
 * All Claude Code names the table maps, aliases and {@link olderClaudeNames} included (not the
 * MCP pass-through, not the {@link unmappedClaudeNames}), sorted. A new array each call.
 */
export function claudeNames(): string[] {
  return [...SORTED_CLAUDE_NAMES];
}

/** All raider tool names of the table, sorted, each once. A new array each call. */
export function raiderNames(): string[] {
  return [...SORTED_RAIDER_NAMES];
}

/**
 * The Claude Code names of the table that current Claude Code (2.1.332) no longer offers but
 * older sessions and agent files still use: `BashOutput`, `KillBash`, `KillShell`, `LS`,
 * `MultiEdit`, `Task`, `TaskOutput`. Each still maps (`raiderName('TaskOutput')` is
 * `'bash_output'`) and is part of {@link claudeNames}. Sorted; a new array each call.
 */
export function olderClaudeNames(): string[] {
  return [...SORTED_OLDER_NAMES];
}

/**
 * The Claude Code names the table knows and deliberately leaves without a raider tool
 * (`NotebookEdit`, `ToolSearch`, `ScheduleWakeup`, `Yield`, the MCP task tools, ...), sorted; a
 * new array each call. They answer as every unknown name does: `raiderName` gives `undefined`,
 * `parseRule` gives `undefined`, `raiderTools` lists them as unknown. {@link unmappedReason}
 * says why. The `self_hosted_runner_*` family is left unmapped too but, being a prefix, is not
 * listed here.
 */
export function unmappedClaudeNames(): string[] {
  return [...SORTED_UNMAPPED_NAMES];
}

/**
 * Why the table leaves a Claude Code name without a raider tool: a sentence beginning
 * `left unmapped because`, for a name of {@link unmappedClaudeNames} or of the
 * `self_hosted_runner_*` family. `undefined` for a name the table maps, an `mcp__*` name, a name
 * it does not know at all, and non-strings. Exact case only, like every lookup here.
 *
 * @example unmappedReason('NotebookEdit') // 'left unmapped because raider has no tool that edits …'
 * @example unmappedReason('Read') // undefined
 */
export function unmappedReason(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const reason = UNMAPPED.get(name);
  if (reason !== undefined) return reason;
  for (const [prefix, familyReason] of UNMAPPED_PREFIXES) {
    if (name.length > prefix.length && name.startsWith(prefix)) return familyReason;
  }
  return undefined;
}
