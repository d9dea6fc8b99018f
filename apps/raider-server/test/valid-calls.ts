// The corpus of the schema test (test/advertised-schemas.test.ts, issue 36): the example calls of
// the seeds (/work/shared/seeds), of the READMEs of the packages and the server, and the calls the
// tests make, each with where it comes from. Every valid call must pass the inputSchema the server
// lists AND be answered by the server (not refused for its arguments). The calls that are not
// valid (refused by both, or tolerated by the tools beyond the schema) are in test/refused-calls.ts.
// Tools are named by raider's names; under `--names claude` the same call goes to the Claude Code
// name (CLAUDE_NAMES), but for the question tools, whose shapes differ (AskUserQuestion).

/** A name mode of the server (`--names`). */
export type NameMode = 'raider' | 'claude';

/** One example call: a tool, its arguments, and where the call comes from. */
export interface ExampleCall {
  /** raider's name of the tool (AskUserQuestion for Claude Code's question tool). */
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Where the call is written: a seed, a README, a test. */
  readonly from: string;
  /** Only under this name mode (ask_user and AskUserQuestion; SendMessage's `summary`). */
  readonly only?: NameMode;
  /** The person answers only after the call's deadline: the call answers that the question is still open. */
  readonly away?: true;
  /** A resume of the question the call before left open (its id is the one that call answered). */
  readonly resumes?: true;
}

/** raider's tool names and their Claude Code names (the server's own tools included). */
export const CLAUDE_NAMES: Readonly<Record<string, string>> = {
  task_create: 'TaskCreate',
  task_update: 'TaskUpdate',
  task_list: 'TaskList',
  task_get: 'TaskGet',
  task_claim: 'TaskClaim',
  todo_write: 'TodoWrite',
  todo: 'todo',
  ask_user: 'AskUserQuestion',
  send_message: 'SendMessage',
  wait_for_messages: 'WaitForMessages',
};

/** The name `tool` is listed under in `names`. */
export function listedName(tool: string, names: NameMode): string {
  return names === 'claude' && tool !== 'AskUserQuestion' ? (CLAUDE_NAMES[tool] ?? tool) : tool;
}

const TODO_TOOLS_README = 'packages/todo-tools/README.md';
const SERVER_README = 'apps/raider-server/README.md';
const ASK_TOOLS_README = 'packages/ask-tools/README.md';

/** The task tools' calls, in this order on an empty list (ids 1 to 5 are the five creates). */
export const TASK_CALLS: readonly ExampleCall[] = [
  { tool: 'task_create', args: { subject: 'Run the tests', description: '...' }, from: 'seed 000 (create_task)' },
  {
    tool: 'task_create',
    args: { subject: 'Fix the login bug', description: 'The form answers 500' },
    from: `${TODO_TOOLS_README} (the operations without MCP)`,
  },
  {
    tool: 'task_create',
    args: {
      subject: 'Write the parser',
      description: '',
      activeForm: 'Writing the parser',
      metadata: { priority: 1, tags: ['parser'], reviewed: false, note: null, nested: { a: 'b' } },
    },
    from: `${TODO_TOOLS_README} (task_create { subject, description, activeForm?, metadata? })`,
  },
  { tool: 'task_create', args: { subject: 'Ship it', description: '' }, from: 'test/wake-ups.test.ts' },
  { tool: 'task_create', args: { subject: 'Announce it', description: '' }, from: 'test/wake-ups.test.ts' },
  { tool: 'task_update', args: { taskId: '1', status: 'in_progress' }, from: 'seed 000 (update_task)' },
  {
    tool: 'task_update',
    args: { taskId: '1', status: 'in_progress', owner: 'alice' },
    from: `${TODO_TOOLS_README} (the operations without MCP)`,
  },
  { tool: 'task_update', args: { taskId: '2', addBlockedBy: ['1'] }, from: 'test/modern-era.test.ts' },
  { tool: 'task_update', args: { taskId: '1', addBlocks: ['3'] }, from: `${TODO_TOOLS_README} (addBlocks: ["3"])` },
  {
    tool: 'task_update',
    args: {
      taskId: '3',
      subject: 'Write the lexer',
      description: 'tokens first',
      activeForm: 'Writing the lexer',
      metadata: { note: null, reviewed: true },
    },
    from: `${TODO_TOOLS_README} (task_update { taskId, subject?, description?, activeForm?, status?, … })`,
  },
  { tool: 'task_update', args: { taskId: '2', owner: '' }, from: `${TODO_TOOLS_README} (owner: "" clears the owner)` },
  { tool: 'task_list', args: {}, from: 'seed 000 (list_tasks); test/modern-era.test.ts' },
  { tool: 'task_get', args: { taskId: '1' }, from: "seed 000 (get_task('1'))" },
  { tool: 'task_update', args: { taskId: '1', status: 'completed' }, from: 'test/wake-ups.test.ts' },
  { tool: 'task_update', args: { taskId: '5', status: 'deleted' }, from: 'seed 000 (deleted removes the task)' },
];

/** task_claim's calls (`--claims`), after TASK_CALLS. */
export const CLAIM_CALLS: readonly ExampleCall[] = [
  {
    tool: 'task_claim',
    args: { taskId: '4', owner: 'alice', leaseSeconds: 60 },
    from: `${SERVER_README} (task_claim { taskId?, owner, leaseSeconds? }); test/claim-leases.test.ts`,
  },
  { tool: 'task_claim', args: { owner: 'bob' }, from: 'test/claim-leases.test.ts' },
  { tool: 'task_claim', args: { taskId: '3', owner: 'alice' }, from: 'test/claim-leases.test.ts' },
];

/** todo_write's calls (`--family todo_write`). */
export const TODO_WRITE_CALLS: readonly ExampleCall[] = [
  {
    tool: 'todo_write',
    args: {
      todos: [
        { content: 'Run the tests', status: 'completed', activeForm: 'Running the tests' },
        { content: 'Fix the login bug', status: 'in_progress', activeForm: 'Fixing the login bug' },
        { content: 'Update the docs', status: 'pending', activeForm: 'Updating the docs' },
      ],
    },
    from: `${TODO_TOOLS_README} (todo_write's answer); seed 000 (todo_write)`,
  },
  {
    tool: 'todo_write',
    args: { todos: [{ content: 'Run the tests', status: 'in_progress' }] },
    from: 'test/stdio.test.ts',
  },
  {
    tool: 'todo_write',
    args: { todos: [{ content: 'A', status: 'pending', activeForm: 'Doing A' }] },
    from: 'test/stdio.test.ts',
  },
  { tool: 'todo_write', args: { todos: [] }, from: 'seed 000 (the whole list on every change: an empty one too)' },
];

/** The `todo` tool's calls (`--family todo`), in this order on an empty list. */
export const TODO_CALLS: readonly ExampleCall[] = [
  { tool: 'todo', args: { action: 'create', subject: 'Write the parser' }, from: TODO_TOOLS_README },
  { tool: 'todo', args: { action: 'create', subject: 'Parse' }, from: 'test/stdio.test.ts' },
  {
    tool: 'todo',
    args: {
      action: 'create',
      subject: 'Write the tests',
      blockedBy: [1],
      description: 'for the parser',
      activeForm: 'Writing the tests',
      owner: 'alice',
      metadata: { area: 'parser' },
    },
    from: 'seed 002 (Parameters: create)',
  },
  {
    tool: 'todo',
    args: { action: 'update', id: 3, status: 'in_progress' },
    from: `${TODO_TOOLS_README} (TODO_GUIDANCE's {"action": "update", "id": 3, "status": "in_progress"})`,
  },
  { tool: 'todo', args: { action: 'update', id: 2, addBlockedBy: [1] }, from: 'seed 002 (addBlockedBy)' },
  { tool: 'todo', args: { action: 'update', id: 2, removeBlockedBy: [1] }, from: 'seed 002 (removeBlockedBy)' },
  {
    tool: 'todo',
    args: {
      action: 'update',
      id: 1,
      subject: 'Write the lexer',
      description: 'tokens',
      activeForm: 'Writing the lexer',
      owner: 'bob',
      metadata: { area: null },
    },
    from: 'seed 002 (Parameters: create + update; a null value deletes that key)',
  },
  { tool: 'todo', args: { action: 'list' }, from: 'test/stdio.test.ts' },
  { tool: 'todo', args: { action: 'list', status: 'in_progress' }, from: 'seed 002 (list filters by status)' },
  { tool: 'todo', args: { action: 'get', id: 3 }, from: 'seed 002 (get)' },
  { tool: 'todo', args: { action: 'delete', id: 2 }, from: 'seed 002 (delete)' },
  { tool: 'todo', args: { action: 'list', includeDeleted: true }, from: 'seed 002 (includeDeleted)' },
  { tool: 'todo', args: { action: 'clear' }, from: 'seed 002 (clear)' },
  // After clear the ids start at 1 again (seed 002), so #1 is there for the tolerated call of refused-calls.ts.
  {
    tool: 'todo',
    args: { action: 'create', subject: 'Write the parser' },
    from: 'seed 002 (clear resets the id counter to 1)',
  },
];

/**
 * The messaging tools' calls (`--team`, `--agent`), as agent alice, with bob connected to the list.
 * The notes to herself make the waits without a short timeout answer at once.
 */
export const MESSAGE_CALLS: readonly ExampleCall[] = [
  { tool: 'send_message', args: { to: 'bob', message: 'Can you take the parser?' }, from: 'test/messages.test.ts' },
  { tool: 'send_message', args: { to: 'bob', message: 'two', taskId: '3' }, from: 'test/messages.test.ts' },
  {
    tool: 'send_message',
    args: { to: '*', message: 'The parser is done.' },
    from: `${SERVER_README} (send_message { to: "*" }); docs/glossary.md`,
  },
  {
    tool: 'send_message',
    args: { to: 'bob', summary: 'parser handoff', message: 'The parser is yours.' },
    from: `${SERVER_README} (SendMessage { to, summary?, message, taskId? }); test/messages.test.ts`,
    only: 'claude',
  },
  { tool: 'send_message', args: { to: 'alice', message: 'Note to self: review the parser.' }, from: 'this corpus' },
  {
    tool: 'wait_for_messages',
    args: { timeoutSeconds: 30 },
    from: `${SERVER_README} (Latency: wait_for_messages { timeoutSeconds: 30 }); test/messages.test.ts`,
  },
  { tool: 'send_message', args: { to: 'alice', message: 'Note to self: ship it.' }, from: 'this corpus' },
  { tool: 'wait_for_messages', args: {}, from: `${SERVER_README} (wait_for_messages { timeoutSeconds? })` },
  { tool: 'wait_for_messages', args: { timeoutSeconds: 0 }, from: 'test/messages.test.ts' },
];

/** The question tools' calls: ask_user under raider's names, AskUserQuestion under Claude Code's. */
export const QUESTION_CALLS: readonly ExampleCall[] = [
  {
    tool: 'ask_user',
    args: { question: 'Which database?', options: ['Postgres', 'SQLite'] },
    from: `${ASK_TOOLS_README} (Usage); test/board.test.ts`,
    only: 'raider',
  },
  {
    tool: 'ask_user',
    args: { question: 'Which database?' },
    from: `${ASK_TOOLS_README} (the plain refusal); seed 004 (@options empty without choices)`,
    only: 'raider',
  },
  { tool: 'ask_user', args: { question: 'Which?' }, from: `${ASK_TOOLS_README} (on the wire)`, only: 'raider' },
  {
    tool: 'ask_user',
    args: { question: 'Ship today?' },
    from: `${SERVER_README} (Waits that outlive the host); test/waits.test.ts`,
    only: 'raider',
    away: true,
  },
  {
    tool: 'ask_user',
    args: { resume: 'ask_3' },
    from: `${SERVER_README} (ask_user { "resume": "ask_3" }); docs/glossary.md`,
    only: 'raider',
    resumes: true,
  },
  {
    tool: 'AskUserQuestion',
    args: {
      questions: [
        {
          question: 'Which test runner?',
          header: 'Tests',
          options: [
            { label: 'Vitest', description: 'fast' },
            { label: 'Jest', description: 'classic' },
          ],
        },
      ],
    },
    from: 'test/stdio.test.ts',
    only: 'claude',
  },
  {
    tool: 'AskUserQuestion',
    args: {
      questions: [
        {
          question: 'Which library?',
          header: 'Library',
          options: [
            { label: 'date-fns', description: 'small, functional' },
            { label: 'luxon', description: 'time zones' },
          ],
          multiSelect: false,
        },
        {
          question: 'Which features?',
          header: 'Features',
          options: [
            { label: 'Parsing', description: '' },
            { label: 'Formatting', description: '' },
            { label: 'Zones', description: '' },
          ],
          multiSelect: true,
        },
      ],
    },
    from: 'packages/ask-tools/src/testing/ask-tools-suite/ask-user-question.ts',
    only: 'claude',
  },
];
