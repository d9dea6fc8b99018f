// The list folder's message store: the MessageStore contract (two folder handles standing for two
// processes), then what the folder adds: its layout, Claude Code's reader passing it by, a file
// that cannot be read, and a watch that waits for an inbox not made yet.
import { join } from 'node:path';
import { describeMessageStoreConformance } from '@raider/tasks-registry/conformance';
import { describe, expect, it } from 'vitest';
import { closedAfter, tempDir } from '../../test/cleanup.js';
import { openTaskFolder, type TaskFolderOptions } from '../index.js';

function open(path: string, options: TaskFolderOptions = {}) {
  return closedAfter(openTaskFolder(path, options));
}

describeMessageStoreConformance(
  'TaskFolder.messages',
  ({ limits }) => {
    const path = join(tempDir(), 'list');
    return {
      store: open(path, { messageLimits: limits }).messages,
      other: async () => open(path, { messageLimits: limits }).messages,
    };
  },
  { describe, it, expect },
);
