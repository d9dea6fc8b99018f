/**
 * The board inside the chat: an MCP App (ui://raider/board) that a host renders in the
 * conversation. It shows the list live (the in-progress task apart, statuses, owners, blockers),
 * lets the person change a task's status, and answers the open questions. It talks only to the
 * host, through the app bridge, and calls the server's app-only tools: `board_state` (a long
 * poll: it answers when the list changes), `board_set_status` and `board_answer`. Built on
 * `@modelcontextprotocol/ext-apps` 2.x (on MCP SDK v2); the host may speak either protocol era.
 */
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import type { AppQuestion, AppState, BoardTask } from './app-state.js';
import css from './style.css?inline';

const STATUSES = ['pending', 'in_progress', 'completed'] as const;
const root = document.getElementById('app') as HTMLElement;
const style = document.createElement('style');
style.textContent = css;
document.head.append(style);

/** An element with its text and attributes; children appended. */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

// ext-apps 2.x: `strict` makes a call to the host before the handshake an error (the app calls
// only after `connect`); `allowUnsafeEval` stays off, as the page's CSP has no 'unsafe-eval' (the
// SDK's zod then parses without generated code).
const app = new App({ name: 'raider-board', version: '1.0.0' }, {}, { autoResize: true, strict: true });

/** The host's theme, style variables, fonts and size hints. */
function followHost(context: McpUiHostContext | undefined): void {
  if (!context) return;
  if (context.theme) {
    applyDocumentTheme(context.theme);
    document.documentElement.dataset.theme = context.theme;
  }
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
  const box = context.containerDimensions as { maxHeight?: number; maxWidth?: number } | undefined;
  document.body.style.maxHeight = box?.maxHeight ? `${box.maxHeight}px` : '';
  document.body.style.maxWidth = box?.maxWidth ? `${box.maxWidth}px` : '';
}

/** Calls an app-only tool of the server; its structured result, or throws its text. */
async function call<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = await app.callServerTool({ name, arguments: args });
  const text = result.content?.find((block) => block.type === 'text')?.text ?? '';
  if (result.isError) throw new Error(text);
  return (result.structuredContent ?? {}) as T;
}

function showError(message: string): void {
  root.querySelector('.error')?.remove();
  root.prepend(el('p', { class: 'error', role: 'alert' }, message));
}

function taskRow(task: BoardTask, editable: boolean, now: boolean): HTMLLIElement {
  const row = el('li', { class: `task ${task.status}${now ? ' now' : ''}`, 'data-id': task.id });
  const title = el('span', { class: 'title' }, `#${task.id} ${task.title}`);
  row.append(title);
  if (now && task.activeForm) row.append(el('span', { class: 'active' }, task.activeForm));
  if (task.owner) row.append(el('span', { class: 'meta owner' }, task.owner));
  if (task.blockedBy.length) {
    row.append(el('span', { class: 'meta blocked' }, `blocked by ${task.blockedBy.map((id) => `#${id}`).join(', ')}`));
  }
  if (editable) {
    const select = el('select', { 'aria-label': `Status of task #${task.id}`, class: 'status' });
    for (const status of STATUSES) {
      const option = el('option', { value: status }, status.replace('_', ' '));
      if (status === task.status) option.selected = true;
      select.append(option);
    }
    select.addEventListener('change', () => {
      select.disabled = true;
      call('board_set_status', { taskId: task.id, status: select.value }).catch((error: Error) => {
        showError(error.message);
        select.disabled = false;
      });
    });
    row.append(select);
  } else row.append(el('span', { class: 'meta' }, task.status.replace('_', ' ')));
  return row;
}

function questionForm(question: AppQuestion): HTMLFormElement {
  const form = el('form', { class: 'question', 'data-id': question.id });
  form.append(el('p', {}, question.question));
  const choices = el('div', { class: 'choices' });
  const send = (args: Record<string, unknown>) => {
    for (const control of form.querySelectorAll('button, input')) (control as HTMLButtonElement).disabled = true;
    call('board_answer', { questionId: question.id, ...args }).catch((error: Error) => showError(error.message));
  };
  for (const option of question.options) {
    const button = el('button', { type: 'button', class: 'choice' }, option);
    button.addEventListener('click', () => send({ answer: option }));
    choices.append(button);
  }
  const free = el('input', {
    type: 'text',
    name: 'answer',
    'aria-label': 'Your answer',
    placeholder: 'Or type an answer',
  });
  const submit = el('button', { type: 'submit' }, 'Send');
  const decline = el('button', { type: 'button', class: 'decline' }, 'Decline');
  decline.addEventListener('click', () => send({ decline: true }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (free.value.trim()) send({ answer: free.value });
  });
  choices.append(free, submit, decline);
  form.append(choices);
  return form;
}

function render(state: AppState): void {
  const focused = document.activeElement as HTMLElement | null;
  const focusKey = focused?.closest('[data-id]')?.getAttribute('data-id');
  const nodes: Node[] = [];
  if (state.questions.length) {
    nodes.push(el('h2', {}, 'Questions'));
    for (const question of state.questions) nodes.push(questionForm(question));
  }
  const now = state.tasks.filter((task) => task.status === 'in_progress');
  if (now.length) {
    nodes.push(el('h2', {}, 'In progress'));
    nodes.push(el('ul', { class: 'now-list' }, ...now.map((task) => taskRow(task, state.editable, true))));
  }
  const rest = state.tasks.filter((task) => task.status !== 'in_progress');
  nodes.push(el('h2', {}, 'Tasks'));
  nodes.push(
    rest.length || now.length
      ? el('ul', { class: 'tasks' }, ...rest.map((task) => taskRow(task, state.editable, false)))
      : el('p', { class: 'empty' }, 'No tasks yet'),
  );
  root.replaceChildren(...nodes);
  // Keyboard users keep their place across a redraw.
  if (focusKey)
    (
      root.querySelector(
        `[data-id="${CSS.escape(focusKey)}"] select, [data-id="${CSS.escape(focusKey)}"] button`,
      ) as HTMLElement | null
    )?.focus();
  document.body.dataset.ready = 'true';
}

/** Follows the list: each `board_state` answers when it changed after the version drawn. */
async function follow(): Promise<void> {
  let version = -1;
  for (;;) {
    try {
      const state = await call<AppState>('board_state', { after: version });
      if (state.version !== version) render(state);
      version = state.version;
    } catch (error) {
      showError(error instanceof Error ? error.message : String(error));
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

app.onhostcontextchanged = (context) => followHost(context as McpUiHostContext);
app.ontoolresult = () => {
  // The model listed the tasks: the long poll shows the list; nothing else to do.
};
await app.connect();
followHost(app.getHostContext());
void follow();
