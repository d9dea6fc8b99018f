// A call still running after a while sends progress (Claude Code cuts a call silent for too long,
// and moves one past 120 s to the background): here a task_create waiting on a list lock that
// another process holds.
import { mkdirSync, mkdtempSync, rmdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { listFolderPath } from '@raider/file-store';
import { describe, expect, it } from 'vitest';
import { folderList } from '../lists/folder-lists.js';
import { createConversation } from './conversation.js';

/** The text of a tool result. */
const textOf = (result: unknown): string | undefined =>
  (result as { content?: { type: string; text: string }[] }).content?.[0]?.text;

describe('progress while a call waits', () => {
  it('a task_create waiting on a list lock held elsewhere sends progress until it answers, and stops when it does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'raider-progress-'));
    const lockDir = join(listFolderPath(dir, 'team'), '.lock.lock');
    mkdirSync(lockDir, { recursive: true });
    // Another process's lock, kept fresh for a while, then released.
    const keepFresh = setInterval(() => utimesSync(lockDir, new Date(), new Date()), 50);
    const conversation = createConversation({
      family: 'tasks',
      names: 'raider',
      askTimeoutMs: 60_000,
      list: folderList(dir, 'team', undefined),
      progressEveryMs: 100,
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([conversation.newServer('legacy').connect(serverSide), client.connect(clientSide)]);
    try {
      const progress: number[] = [];
      const call = client.callTool(
        { name: 'task_create', arguments: { subject: 'Waited for', description: '' } },
        undefined,
        { onprogress: (event) => progress.push(event.progress), timeout: 60_000 },
      );
      await expect.poll(() => progress.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(3);
      clearInterval(keepFresh);
      rmdirSync(lockDir);
      expect(textOf(await call)).toBe('Task #1 created successfully: Waited for');
      expect(progress.slice(0, 3)).toEqual([1, 2, 3]);
      const after = progress.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(progress.length).toBe(after);
    } finally {
      clearInterval(keepFresh);
      await conversation.close('test over');
    }
  }, 60_000);
});
