// The live board: draws the server's state from its event stream and sends answers and messages
// back. Status is told in words (and a symbol), never by colour alone; everything works by keyboard.

import type { BoardList, BoardQuestion, BoardState, BoardTask } from '../src/board/board-state.js';
import { $, el } from './dom.js';
import { agentsPart, messageForm, updateMessageForm } from './inboxes.js';

const LABEL: Record<BoardTask['status'], string> = {
  in_progress: '◐ In progress',
  pending: '○ Pending',
  completed: '✓ Completed',
};

/** What a list shows: its tasks, its running work, its agents and their inboxes (redrawn each time). */
function listContent(list: BoardList): HTMLElement[] {
  const tasks = list.tasks.map((task) => {
    const item = el('li', { className: 'task' });
    item.dataset.status = task.status;
    item.dataset.id = task.id;
    item.append(
      el('span', { className: 'badge' }, LABEL[task.status] ?? task.status),
      el('span', { className: 'id' }, `#${task.id}`),
      el('span', { className: 'title' }, task.title),
    );
    if (task.activeForm) item.append(el('span', { className: 'doing' }, `(${task.activeForm})`));
    if (task.owner) item.append(el('span', { className: 'owner' }, `owner: ${task.owner}`));
    if (task.blockedBy.length)
      item.append(
        el('span', { className: 'blocked' }, `blocked by ${task.blockedBy.map((id) => `#${id}`).join(', ')}`),
      );
    return item;
  });
  const content: HTMLElement[] = [
    el('h3', {}, list.title, ' ', el('span', { className: 'family' }, `(${list.family})`)),
    tasks.length ? el('ol', { className: 'tasks' }, ...tasks) : el('p', { className: 'id' }, 'No tasks yet.'),
  ];
  if (list.work.length) {
    content.push(
      el('h4', {}, 'Running'),
      el(
        'ul',
        { className: 'work' },
        ...list.work.map((w) => el('li', {}, `${w.id} (${w.kind})${w.description ? `: ${w.description}` : ''}`)),
      ),
    );
  }
  content.push(...agentsPart(list));
  return content;
}

/**
 * Draws the lists. A list's article, and the message form in it, is kept from one state to the
 * next (only its content is drawn again), so a person typing a message loses neither the text
 * nor the focus when the board updates.
 */
function drawLists(lists: BoardList[]): void {
  $('empty').hidden = lists.length > 0;
  const container = $('lists');
  const existing = new Map<string, HTMLElement>();
  for (const article of container.querySelectorAll<HTMLElement>('article.list')) {
    existing.set(article.dataset.key ?? '', article);
  }
  const articles = lists.map((list) => {
    let article = existing.get(list.key);
    if (!article) {
      article = el('article', { className: 'list' }, el('div', { className: 'content' }), messageForm(list));
      article.dataset.key = list.key;
    } else updateMessageForm(article.querySelector('form.send') as HTMLFormElement, list);
    (article.querySelector('.content') as HTMLElement).replaceChildren(...listContent(list));
    return article;
  });
  // Moved only when the order changed: moving an article would take the focus from its form.
  const children = [...container.children];
  if (children.length !== articles.length || articles.some((article, i) => children[i] !== article)) {
    container.replaceChildren(...articles);
  }
}

async function send(id: string, body: { answer: string } | { decline: true }, form: HTMLFormElement): Promise<void> {
  for (const control of form.querySelectorAll('button, input')) (control as HTMLButtonElement).disabled = true;
  const res = await fetch('/board/answer', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, ...body }),
  });
  if (!res.ok) $('status').textContent = 'That question was already answered elsewhere, withdrawn or timed out.';
}

function questionForm(q: BoardQuestion): HTMLFormElement {
  const form = el('form', { className: 'question' });
  form.dataset.id = q.id;
  const labelId = `q-${q.id}`;
  form.setAttribute('aria-labelledby', labelId);
  form.append(el('p', { id: labelId }, q.question, ' ', el('span', { className: 'meta' }, `(${q.list})`)));
  if (q.options.length) {
    const options = el('div', { className: 'options' });
    options.setAttribute('role', 'group');
    options.setAttribute('aria-label', 'Choices');
    for (const option of q.options) {
      const button = el('button', { type: 'button', className: 'option' }, option);
      button.addEventListener('click', () => void send(q.id, { answer: option }, form));
      options.append(button);
    }
    form.append(options);
  }
  const input = document.createElement('input');
  input.type = 'text';
  input.name = 'answer';
  input.autocomplete = 'off';
  const label = el('label', {}, q.options.length ? 'Or answer in your own words: ' : 'Your answer: ', input);
  const decline = el('button', { type: 'button', className: 'decline' }, 'Decline');
  decline.addEventListener('click', () => void send(q.id, { decline: true }, form));
  form.append(el('div', { className: 'free' }, label, el('button', { type: 'submit' }, 'Send'), decline));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (input.value.trim()) void send(q.id, { answer: input.value }, form);
    else input.focus();
  });
  return form;
}

function drawQuestions(questions: BoardQuestion[]): void {
  const container = $('questions');
  $('questions-section').hidden = questions.length === 0;
  const open = new Set(questions.map((q) => q.id));
  // Keep forms that are still open as they are (focus, typed text); add new ones; drop the rest.
  for (const form of [...container.querySelectorAll<HTMLFormElement>('form.question')]) {
    if (!open.has(form.dataset.id ?? '')) form.remove();
  }
  for (const q of questions) {
    if (!container.querySelector(`form[data-id="${CSS.escape(q.id)}"]`)) container.append(questionForm(q));
  }
}

function connect(): void {
  const status = $('status');
  const events = new EventSource('/board/events');
  events.addEventListener('open', () => {
    status.textContent = 'Live';
    delete document.body.dataset.secret;
  });
  events.addEventListener('state', (event) => {
    const state = JSON.parse((event as MessageEvent<string>).data) as BoardState;
    drawLists(state.lists);
    drawQuestions(state.questions);
    document.body.dataset.ready = 'true';
  });
  events.addEventListener('error', () => {
    status.textContent = 'Reconnecting…';
    // The browser retries a dropped stream by itself; a refused one it gives up on, so start again
    // (after saying why, when the server no longer takes this page's secret).
    if (events.readyState === EventSource.CLOSED)
      void refused().then((secret) => setTimeout(connect, secret ? 5000 : 1000));
  });
}

/** The line shown while the server refuses this page's secret (it was restarted without --token). */
const SECRET_REFUSED =
  "The server no longer takes this page's secret (it was restarted, and makes a new secret at every start): open the board's URL it printed at start (the board: http://…/?token=…), or start it with --token to keep one.";

/**
 * True when the server refuses this page's secret (a 401: it restarted with a new one), after
 * saying so on the page; false when it is unreachable or takes the secret.
 */
async function refused(): Promise<boolean> {
  let answer: Response;
  try {
    answer = await fetch('/board/state', { cache: 'no-store' });
  } catch {
    return false;
  }
  if (answer.status !== 401) return false;
  $('status').textContent = SECRET_REFUSED;
  document.body.dataset.secret = 'refused';
  return true;
}

connect();
