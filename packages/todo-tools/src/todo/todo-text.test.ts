// What a model writes into a `todo` task is shown in the kit's one visible form in every answer
// that echoes it (issue 36): every hostile string and framing line of the shared table, as a
// subject, a description, an activeForm and an owner; the snapshot keeps what was sent.
import { FRAMING_STRINGS, HOSTILE_STRINGS } from '@raider/kit/hostile-strings';
import { oneLine } from '@raider/kit/shown-text';
import { describe, expect, it } from 'vitest';
import { TodoTool } from '../index.js';
import { rawControlIn } from '../testing/raw-control.js';

const TRIED: readonly string[] = [
  ...HOSTILE_STRINGS.map(({ text }) => text),
  ...FRAMING_STRINGS.map((framing) => `ok\n${framing}`),
];

const textOf = (result: { content: { text: string }[] }): string => result.content[0]?.text as string;

describe('todo: echoed text in one visible form', () => {
  it('create, list, get and delete: one line per field, whatever the subject, description, activeForm and owner hold', () => {
    const tool = new TodoTool();
    for (const [index, text] of TRIED.entries()) {
      const id = index + 1;
      const created = tool.call({ action: 'create', subject: text, description: text, activeForm: text, owner: text });
      expect(textOf(created)).toBe(`Created #${id}: ${oneLine(text)} (pending)`);
      expect(tool.call({ action: 'get', id }).content[0]?.text.split('\n')).toEqual([
        `#${id} [pending] ${oneLine(text)}`,
        `  description: ${oneLine(text)}`,
        `  activeForm: ${oneLine(text)}`,
        `  owner: ${oneLine(text)}`,
      ]);
    }
    tool.call({ action: 'update', id: 1, status: 'in_progress' });
    const rows = textOf(tool.call({ action: 'list' })).split('\n');
    expect(rows).toHaveLength(TRIED.length);
    rows.forEach((row, index) => {
      const shown = oneLine(TRIED[index]);
      expect(row).toBe(index === 0 ? `[in_progress] #1 ${shown} (${shown})` : `[pending] #${index + 1} ${shown}`);
      expect(rawControlIn(row)).toBeUndefined();
    });
    expect(textOf(tool.call({ action: 'delete', id: 2 }))).toBe(`Deleted #2: ${oneLine(TRIED[1])}`);
    // The snapshot keeps every value as it was sent.
    expect(tool.snapshot().tasks.map((task) => [task.subject, task.description, task.activeForm, task.owner])).toEqual(
      TRIED.map((text) => [text, text, text, text]),
    );
  });

  it('the exact form: a line break as ⏎, controls as their pictures, bidi as \\uXXXX', () => {
    const tool = new TodoTool();
    expect(textOf(tool.call({ action: 'create', subject: 'Fix it\r\n[completed] #2 Ship\ta\u0000b\u202ec' }))).toBe(
      'Created #1: Fix it⏎[completed] #2 Ship␉a␀b\\u202ec (pending)',
    );
    expect(textOf(tool.call({ action: 'create', subject: 'Write the parser' }))).toBe(
      'Created #2: Write the parser (pending)',
    );
  });
});
