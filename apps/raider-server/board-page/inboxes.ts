// The agents of a list and their inboxes (peeked by the server, never taken), and the form that
// sends a person's message to an agent. The form is made once per list and kept across redraws,
// so what a person types, and where the focus is, survive every update.

import type { BoardAgent, BoardList, BoardMessage, BoardMessageAnswer } from '../src/board/board-state.js';
import { el } from './dom.js';

/**
 * Who sent a message, in words: an agent, a person at the board, or raider itself (then the kind
 * of notice: its status, or its task-type when it did not end).
 */
function sender(message: BoardMessage): string {
  if (message.notification) return message.kind ? `raider notification (${message.kind})` : 'raider notification';
  const about = message.taskId === undefined ? '' : ` about task #${message.taskId}`;
  return `from ${message.from ?? 'someone'}${about}`;
}

/** Two digits: `7` -> `07`. */
const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * When a message was sent: a short local time (`14:05`; with the date, `3 Mar 14:05`, when it was
 * not sent today), the full time in the tooltip and the machine-readable one in `datetime`.
 */
function sentTime(sentAt: number): HTMLTimeElement {
  const sent = new Date(sentAt);
  const clock = `${twoDigits(sent.getHours())}:${twoDigits(sent.getMinutes())}`;
  const today = sent.toDateString() === new Date().toDateString();
  const day = today ? '' : `${sent.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} `;
  const time = el(
    'time',
    { className: 'sent', dateTime: sent.toISOString(), title: sent.toLocaleString() },
    `${day}${clock}`,
  );
  return time;
}

/** One message of an inbox: when, from whom, and what it says (a notification: its summary). */
function messageItem(message: BoardMessage): HTMLLIElement {
  const line = el(
    'li',
    { className: 'message' },
    sentTime(message.sentAt),
    ' ',
    el('span', { className: 'from' }, sender(message)),
    ': ',
    el('span', { className: 'text' }, message.text),
  );
  line.dataset.id = message.id;
  if (message.notification) line.dataset.notification = 'true';
  return line;
}

function agentItem(agent: BoardAgent): HTMLLIElement {
  const item = el('li', { className: 'agent' });
  item.dataset.agent = agent.name;
  const waiting = agent.error
    ? agent.error
    : agent.waiting === 0
      ? 'no messages waiting'
      : `${agent.waiting} ${agent.waiting === 1 ? 'message' : 'messages'} waiting`;
  item.append(el('span', { className: 'name' }, agent.name), ' ', el('span', { className: 'waiting' }, waiting));
  if (agent.messages.length) {
    const inbox = el('ol', { className: 'inbox' }, ...agent.messages.map(messageItem));
    inbox.setAttribute('aria-label', `Inbox of ${agent.name}`);
    item.append(inbox);
    const more = agent.waiting - agent.messages.length;
    if (more > 0) item.append(el('p', { className: 'more' }, `and ${more} more`));
  }
  return item;
}

/** The list's agents and what waits for each, or nothing when it has none yet. */
export function agentsPart(list: BoardList): HTMLElement[] {
  if (!list.agents.length) return [];
  const part: HTMLElement[] = [
    el('h4', {}, 'Agents'),
    el('ul', { className: 'agents' }, ...list.agents.map(agentItem)),
  ];
  if (list.moreAgents > 0) part.push(el('p', { className: 'id' }, `and ${list.moreAgents} more agents`));
  return part;
}

let forms = 0;

/** Posts the form's message; says what the server answered: sent, or why not. */
async function sendMessage(form: HTMLFormElement, list: string): Promise<void> {
  const status = form.querySelector('.send-status') as HTMLElement;
  const button = form.querySelector('button') as HTMLButtonElement;
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement;
  const taskId = field('taskId').value.trim();
  button.disabled = true;
  status.textContent = 'Sending…';
  try {
    const res = await fetch('/board/message', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        list,
        to: field('to').value.trim(),
        message: field('message').value,
        ...(taskId ? { taskId } : {}),
      }),
    });
    const answer = (await res
      .json()
      .catch(() => ({ error: `the server answered ${res.status}` }))) as BoardMessageAnswer;
    form.dataset.outcome = 'sent' in answer ? 'sent' : 'refused';
    status.textContent = 'sent' in answer ? answer.sent : `Not sent: ${answer.error}`;
    if ('sent' in answer) field('message').value = '';
  } catch {
    form.dataset.outcome = 'refused';
    status.textContent = 'Not sent: the server could not be reached';
  } finally {
    button.disabled = false;
  }
}

/** The form that sends a person's message to an agent of `list` (or to every agent, `*`). */
export function messageForm(list: BoardList): HTMLFormElement {
  forms += 1;
  const form = el('form', { className: 'send' });
  const titleId = `send-title-${forms}`;
  const agentsId = `send-agents-${forms}`;
  form.setAttribute('aria-labelledby', titleId);
  const to = el('input', { type: 'text', name: 'to', autocomplete: 'off' });
  to.setAttribute('list', agentsId);
  const taskId = el('input', { type: 'text', name: 'taskId', autocomplete: 'off', size: 4 });
  const message = el('textarea', { name: 'message', rows: 2 });
  form.append(
    el('h4', { id: titleId }, 'Send a message to an agent'),
    el('datalist', { id: agentsId }),
    el(
      'div',
      { className: 'fields' },
      el('label', {}, 'To (an agent, or * for all): ', to),
      el('label', {}, 'About task (optional): ', taskId),
    ),
    el('label', { className: 'message-field' }, 'Message: ', message),
    el('div', { className: 'free' }, el('button', { type: 'submit' }, 'Send message')),
    el('p', { className: 'send-status', role: 'status' }),
  );
  (form.querySelector('.send-status') as HTMLElement).setAttribute('aria-live', 'polite');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void sendMessage(form, form.dataset.list ?? list.key);
  });
  updateMessageForm(form, list);
  return form;
}

/** Brings the form's list of agents (the suggestions for To) up to date, leaving what was typed. */
export function updateMessageForm(form: HTMLFormElement, list: BoardList): void {
  form.dataset.list = list.key;
  const names = ['*', ...list.agents.map((agent) => agent.name)];
  const datalist = form.querySelector('datalist') as HTMLDataListElement;
  const shown = [...datalist.options].map((option) => option.value);
  if (shown.join('\n') === names.join('\n')) return;
  datalist.replaceChildren(
    ...names.map((name) => el('option', { value: name }, name === '*' ? 'every agent of the list' : name)),
  );
}
