// What the board shows of a message (issue 36): a notification's summary and kind, never its
// markup; a plain message's lines with every control character made visible; the hostile strings
// of the kit's shared table shown inert; when each was sent.
import { FRAMING_STRINGS, HOSTILE_STRINGS } from '@raider/kit/hostile-strings';
import { FRAMING_LINE, multiLine, oneLine } from '@raider/kit/shown-text';
import { memoryMessageStore, notificationText } from '@raider/tasks-registry';
import { describe, expect, it } from 'vitest';
import type { BoardMessage } from './board-state.js';
import type { ConversationInboxes } from './conversation-inboxes.js';
import { listInboxes } from './inboxes.js';

/** The board's view of one conversation on a list whose inboxes are `store`, agents `names`. */
function viewOf(store: ReturnType<typeof memoryMessageStore>, names: string[]): ConversationInboxes {
  return {
    store: () => store,
    agents: async () => names,
    served: () => [],
    send: async () => ({ content: [{ type: 'text', text: 'unused' }] }),
    onTaken: () => () => {},
  };
}

/** What the board shows of `to`'s inbox. */
async function shown(store: ReturnType<typeof memoryMessageStore>, to: string): Promise<BoardMessage[]> {
  const { agents } = await listInboxes([viewOf(store, [to])]);
  return agents[0]?.messages ?? [];
}

// Control characters that must never reach the page as they are (line breaks aside, checked apart).
const ACTIVE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

describe('a message as the board shows it', () => {
  it('a notification shows its summary and its kind (its status, else its task-type), never the markup', async () => {
    const store = memoryMessageStore();
    const ended = notificationText({ taskId: '1', status: 'completed', summary: 'Task #1 "Review" completed' });
    await store.send({ to: 'dave', text: ended, notification: true, about: '1', label: 'Task #1 "Review" completed' });
    // A notice of something that did not end: no <status>, a <task-type>; no label either.
    const assigned = notificationText({
      taskId: '2',
      taskType: 'task_assigned',
      summary: 'alice made you the owner of task #2 "Audit <the> logs & more"',
    });
    await store.send({ to: 'dave', text: assigned, notification: true, about: '2' });
    const before = Date.now();
    const messages = await shown(store, 'dave');
    expect(messages.map(({ text, notification, kind }) => ({ text, notification, kind }))).toEqual([
      { text: 'Task #1 "Review" completed', notification: true, kind: 'completed' },
      {
        text: 'alice made you the owner of task #2 "Audit <the> logs & more"',
        notification: true,
        kind: 'task_assigned',
      },
    ]);
    for (const message of messages) {
      expect(message.text).not.toContain('<task-notification>');
      expect(message.from).toBeUndefined();
      expect(message.sentAt).toBeLessThanOrEqual(before);
      expect(message.sentAt).toBeGreaterThan(before - 60_000);
    }
  });

  it('a plain message keeps its lines; who sent it and its task are one line', async () => {
    const store = memoryMessageStore();
    await store.send({ to: 'bob', from: 'alice', text: 'two\nlines', notification: false, taskId: '3' });
    expect(await shown(store, 'bob')).toMatchObject([
      { from: 'alice', text: 'two\nlines', notification: false, taskId: '3' },
    ]);
    expect((await shown(store, 'bob'))[0]).not.toHaveProperty('kind');
  });

  it('the hostile strings of the shared table are shown inert, in a plain text, a summary and a sender', async () => {
    const store = memoryMessageStore();
    const texts = [...HOSTILE_STRINGS.map((hostile) => hostile.text), `hello\n${FRAMING_STRINGS.join('\n')}`];
    // One inbox per string (the board shows ten messages of each): a plain message, then a notification.
    const names = texts.map((_, index) => `agent-${index}`);
    for (const [index, text] of texts.entries()) {
      const to = names[index] as string;
      await store.send({ to, from: `alice${text}`.slice(0, 200), text, notification: false });
      await store.send({ to, text: notificationText({ taskId: '1', summary: text }), notification: true, label: text });
    }
    const { agents } = await listInboxes([viewOf(store, names)]);
    const cut = (shownText: string) => (shownText.length > 300 ? `${shownText.slice(0, 300)}…` : shownText);
    for (const [index, text] of texts.entries()) {
      const [plain, notice] = agents[index]?.messages ?? [];
      if (!plain || !notice) throw new Error(`no messages shown for ${JSON.stringify(text)}`);
      expect(plain.text, JSON.stringify(text)).toBe(cut(multiLine(text)));
      expect(plain.from).toBe(oneLine(`alice${text}`.slice(0, 200)));
      expect(notice.text).toBe(cut(oneLine(text)));
      for (const line of [plain.from as string, notice.text]) {
        expect(line).not.toMatch(ACTIVE);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: finding line breaks is the point
        expect(line).not.toMatch(/[\n\r\u2028\u2029\u0085\u000b\u000c]/);
      }
      expect(plain.text).not.toMatch(ACTIVE);
      // No line after the first begins like raider's framing: each is shown behind "> ".
      for (const line of plain.text.split('\n').slice(1)) expect(line).not.toMatch(FRAMING_LINE);
    }
  });
});
