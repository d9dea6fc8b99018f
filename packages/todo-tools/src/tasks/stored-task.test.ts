// The three shapes of a task: in memory, as a store keeps it, as onUpdate hands it out.
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../store/task-store.js';
import { PLAIN_ITEM, PLAIN_RECORD } from '../testing/plain-task.js';
import { copyTask, fromRecord, type StoredTask, toItem, toRecord } from './stored-task.js';

const record: TaskRecord = {
  id: '3',
  subject: 'Write the parser',
  description: 'In one pass',
  activeForm: 'Writing the parser',
  owner: 'alice',
  status: 'in_progress',
  blocks: ['4'],
  blockedBy: ['1', '2'],
  metadata: { deep: { list: [1] } },
  claim: { owner: 'alice', session: 's', leaseSeconds: 60, expiresAt: 1_000 },
};

describe('fromRecord and toRecord', () => {
  it('round-trip a record, key for key in Claude Code order', () => {
    const again = toRecord(fromRecord(record));
    expect(again).toEqual(record);
    expect(Object.keys(again)).toEqual([
      'id',
      'subject',
      'description',
      'activeForm',
      'owner',
      'status',
      'blocks',
      'blockedBy',
      'metadata',
      'claim',
    ]);
  });

  it('drop a link of a task to itself and leave out the optional fields that are not set', () => {
    const task = fromRecord({
      id: '1',
      subject: 'A',
      description: '',
      status: 'pending',
      blocks: ['1'],
      blockedBy: [],
    });
    expect(task.blocks).toEqual(new Set());
    expect(Object.keys(toRecord(task))).toEqual(['id', 'subject', 'description', 'status', 'blocks', 'blockedBy']);
  });

  it('share nothing with what they were given', () => {
    const task = fromRecord(record);
    (task.metadata as { deep: { list: number[] } }).deep.list.push(2);
    expect(record.metadata).toEqual({ deep: { list: [1] } });
    const copy = toRecord(task);
    copy.blocks.push('9');
    expect(task.blocks).toEqual(new Set(['4']));
  });
});

describe('toItem', () => {
  it("hands out todo_write's item shape plus the task's fields, activeForm defaulting to the subject", () => {
    expect(toItem(fromRecord(record))).toEqual({
      id: '3',
      content: 'Write the parser',
      status: 'in_progress',
      activeForm: 'Writing the parser',
      description: 'In one pass',
      blocks: ['4'],
      blockedBy: ['1', '2'],
      owner: 'alice',
      metadata: { deep: { list: [1] } },
    });
    expect(toItem(fromRecord(PLAIN_RECORD))).toEqual(PLAIN_ITEM);
  });
});

describe('copyTask', () => {
  it('copies the sets and the metadata, and keeps a task without metadata without the key', () => {
    const task = fromRecord(record);
    const copy = copyTask(task);
    expect(copy).toEqual(task);
    copy.blocks.add('9');
    (copy.metadata as { deep: { list: number[] } }).deep.list.push(2);
    expect(task.blocks).toEqual(new Set(['4']));
    expect(task.metadata).toEqual({ deep: { list: [1] } });
    const bare: StoredTask = {
      id: '1',
      subject: 'A',
      description: '',
      status: 'pending',
      blocks: new Set(),
      blockedBy: new Set(),
    };
    expect(Object.keys(copyTask(bare))).not.toContain('metadata');
  });
});
