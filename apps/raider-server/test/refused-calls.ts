// The calls of the schema test (test/advertised-schemas.test.ts) that are not valid, beside the
// valid ones of test/valid-calls.ts: those the tools refuse and the listed schema refuses too (it
// can say so: an unknown key, a wrong type, a value out of its enum or range), those the tools
// answer though the schema refuses them (Claude Code's repairs, documented), and the fields each
// tool requires, which the listed schema must name.
import type { ExampleCall, NameMode } from './valid-calls.js';

/** A call both the tool and the listed schema refuse. */
export interface RefusedCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** What the schema says that refuses it. */
  readonly why: string;
  /** The argument the tool's refusal names. */
  readonly names: string;
  readonly only?: NameMode;
}

const q = (options: number) => ({
  question: 'Which?',
  header: 'Which',
  options: Array.from({ length: options }, (_, i) => ({ label: `option ${i + 1}`, description: '' })),
});

/** Calls refused by the tools' own checks and by the listed schema alike. */
export const REFUSED_CALLS: readonly RefusedCall[] = [
  {
    tool: 'task_create',
    args: { subject: 'A', description: 'a', priority: 'high' },
    why: 'additionalProperties',
    names: 'priority',
  },
  { tool: 'task_create', args: { subject: 3, description: 'a' }, why: 'type', names: 'subject' },
  { tool: 'task_update', args: { taskId: '1', status: 'done' }, why: 'enum', names: 'status' },
  { tool: 'task_update', args: { taskId: '1', addBlocks: '2' }, why: 'type', names: 'addBlocks' },
  { tool: 'task_list', args: { all: true }, why: 'additionalProperties', names: 'all' },
  { tool: 'task_get', args: { taskId: '1', verbose: true }, why: 'additionalProperties', names: 'verbose' },
  { tool: 'task_claim', args: { owner: 3 }, why: 'type', names: 'owner' },
  { tool: 'task_claim', args: { owner: 'alice', leaseSeconds: 0 }, why: 'minimum', names: 'leaseSeconds' },
  { tool: 'task_claim', args: { owner: 'alice', leaseSeconds: 1.5 }, why: 'type', names: 'leaseSeconds' },
  { tool: 'todo_write', args: { todos: 'Run the tests' }, why: 'type', names: 'todos' },
  { tool: 'todo_write', args: { todos: [{ content: 'a', status: 'done' }] }, why: 'enum', names: 'status' },
  {
    tool: 'todo_write',
    args: { todos: [{ content: 'a', status: 'pending', priority: 1 }] },
    why: 'additionalProperties',
    names: 'priority',
  },
  { tool: 'todo', args: { action: 'archive' }, why: 'enum', names: 'action' },
  { tool: 'todo', args: { action: 'get', id: 1.5 }, why: 'type', names: 'id' },
  { tool: 'todo', args: { action: 'list', verbose: true }, why: 'additionalProperties', names: 'verbose' },
  {
    tool: 'send_message',
    args: { to: 'bob', message: { type: 'shutdown_request' } },
    why: 'type',
    names: 'message',
  },
  { tool: 'send_message', args: { to: 42, message: 'm' }, why: 'type', names: 'to' },
  {
    tool: 'send_message',
    args: { to: 'bob', summary: 'parser handoff', message: 'm' },
    why: 'additionalProperties (summary is SendMessage’s alone)',
    names: 'summary',
    only: 'raider',
  },
  { tool: 'wait_for_messages', args: { timeoutSeconds: 90 }, why: 'maximum', names: 'timeoutSeconds' },
  { tool: 'wait_for_messages', args: { timeoutSeconds: '5' }, why: 'type', names: 'timeoutSeconds' },
  {
    tool: 'ask_user',
    args: { question: 'q', choices: ['a'] },
    why: 'additionalProperties',
    names: 'choices',
    only: 'raider',
  },
  { tool: 'ask_user', args: { question: 'q', options: 'a,b' }, why: 'type', names: 'options', only: 'raider' },
  {
    tool: 'ask_user',
    args: { question: 'q', options: Array.from({ length: 21 }, (_, i) => `option ${i}`) },
    why: 'maxItems',
    names: 'options',
    only: 'raider',
  },
  { tool: 'ask_user', args: { resume: 3 }, why: 'type', names: 'resume', only: 'raider' },
  { tool: 'ask_user', args: { resume: 'three' }, why: 'pattern', names: 'resume', only: 'raider' },
  { tool: 'AskUserQuestion', args: { questions: [] }, why: 'minItems', names: 'questions', only: 'claude' },
  { tool: 'AskUserQuestion', args: { questions: [q(1)] }, why: 'minItems', names: 'options', only: 'claude' },
  {
    tool: 'AskUserQuestion',
    args: { questions: [{ ...q(2), multiSelect: 'yes' }] },
    why: 'type',
    names: 'multiSelect',
    only: 'claude',
  },
  {
    tool: 'AskUserQuestion',
    args: { questions: [{ ...q(2), other: true }] },
    why: 'additionalProperties',
    names: 'other',
    only: 'claude',
  },
];

/**
 * Calls the tools answer though the listed schema refuses them, on purpose: Claude Code 2.1.332
 * repairs these shapes before it validates (claude-code-behaviour.md, TaskCreate and TaskUpdate),
 * and the tools make the same repairs (packages/todo-tools/README.md); the schema shows the shape
 * a call should have. A client that validates first refuses them, as Claude Code's own schema does.
 */
export const TOLERATED_CALLS: readonly (ExampleCall & { readonly why: string })[] = [
  {
    tool: 'task_create',
    args: { subject: 'Only a subject' },
    from: 'claude-code-behaviour.md (a missing description becomes a copy of the subject)',
    why: 'required',
  },
  {
    tool: 'task_create',
    args: { title: 'A title' },
    from: 'claude-code-behaviour.md (title/name → subject)',
    why: 'additionalProperties',
  },
  {
    tool: 'task_update',
    args: { id: '1', status: 'in_progress' },
    from: 'claude-code-behaviour.md (id/task_id → taskId)',
    why: 'additionalProperties',
  },
  {
    tool: 'task_get',
    args: { taskId: 1 },
    from: 'packages/todo-tools/README.md (a numeric id, as the MCP Inspector’s CLI sends it)',
    why: 'type',
  },
  {
    tool: 'todo',
    args: { action: 'get', id: '1' },
    from: 'packages/todo-tools/README.md (numeric strings are read as the ids they spell)',
    why: 'type',
  },
];

/** Fields a tool requires: a call without them is refused by the tool, naming each. */
export interface RequiredFields {
  readonly tool: string;
  /** Each a property of the listed schema: `a` at the top, `a[].b` inside the items of array `a`. */
  readonly fields: readonly string[];
  /** A call without them. */
  readonly without: Readonly<Record<string, unknown>>;
  /**
   * Whether the listed schema refuses `without` as well (its `required`). Where it cannot say so
   * without a conditional, which the schemas must not carry at the top (the Anthropic API refuses
   * a tool schema with a top-level oneOf, anyOf or allOf, and Claude Code hands MCP schemas to it),
   * the tool alone refuses.
   */
  readonly schemaRefuses: boolean;
  readonly only?: NameMode;
}

/** Every field a tool's handler requires. */
export const REQUIRED_FIELDS: readonly RequiredFields[] = [
  // Either one is enough (the other is made from it, as Claude Code repairs); a call with neither is refused.
  { tool: 'task_create', fields: ['subject', 'description'], without: {}, schemaRefuses: true },
  { tool: 'task_update', fields: ['taskId'], without: { status: 'completed' }, schemaRefuses: true },
  { tool: 'task_get', fields: ['taskId'], without: {}, schemaRefuses: true },
  { tool: 'task_claim', fields: ['owner'], without: { taskId: '1' }, schemaRefuses: true },
  { tool: 'todo_write', fields: ['todos'], without: {}, schemaRefuses: true },
  { tool: 'todo_write', fields: ['todos[].status'], without: { todos: [{ content: 'a' }] }, schemaRefuses: true },
  {
    tool: 'todo_write',
    fields: ['todos[].content'],
    without: { todos: [{ status: 'pending' }] },
    schemaRefuses: true,
  },
  { tool: 'todo', fields: ['action'], without: { subject: 'a' }, schemaRefuses: true },
  // Required by one action only: the schema names them, the tool refuses.
  { tool: 'todo', fields: ['subject'], without: { action: 'create' }, schemaRefuses: false },
  { tool: 'todo', fields: ['id'], without: { action: 'get' }, schemaRefuses: false },
  { tool: 'send_message', fields: ['to'], without: { message: 'm' }, schemaRefuses: true },
  { tool: 'send_message', fields: ['message'], without: { to: 'bob' }, schemaRefuses: true },
  // ask_user takes a question, or a resume alone: neither is required in its schema.
  { tool: 'ask_user', fields: ['question'], without: { options: ['a', 'b'] }, schemaRefuses: false, only: 'raider' },
  { tool: 'AskUserQuestion', fields: ['questions'], without: {}, schemaRefuses: true, only: 'claude' },
  {
    tool: 'AskUserQuestion',
    fields: ['questions[].header'],
    without: { questions: [{ question: 'Which?', options: q(2).options }] },
    schemaRefuses: true,
    only: 'claude',
  },
  {
    tool: 'AskUserQuestion',
    fields: ['questions[].options[].description'],
    without: {
      questions: [
        {
          question: 'Which?',
          header: 'Which',
          options: [{ label: 'a' }, { label: 'b' }],
        },
      ],
    },
    schemaRefuses: true,
    only: 'claude',
  },
];
