import { watch } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/cleanup.js';
import { FolderWaiting } from './folder-waiting.js';

/** A waiting with a real parent's watch (on a temporary folder) and a poll that counts its closes. */
function waitingWithBoth() {
  const waiting = new FolderWaiting();
  let closed = 0;
  const parent = watch(tempDir(), { persistent: false });
  const close = parent.close.bind(parent);
  parent.close = () => {
    closed += 1;
    close();
  };
  waiting.parent = parent;
  waiting.poll = setInterval(() => {}, 60_000);
  return { waiting, closed: () => closed };
}

describe('FolderWaiting', () => {
  it('stops both ways of waiting at once', () => {
    const { waiting, closed } = waitingWithBoth();
    waiting.stop();
    expect(waiting.parent).toBeUndefined();
    expect(waiting.poll).toBeUndefined();
    expect(closed()).toBe(1);
    waiting.stop();
    expect(closed()).toBe(1);
  });

  it('closes the parent alone, or stops the poll alone', () => {
    const first = waitingWithBoth();
    first.waiting.closeParent();
    expect(first.waiting.parent).toBeUndefined();
    expect(first.waiting.poll).toBeDefined();
    first.waiting.stop();
    const second = waitingWithBoth();
    second.waiting.stopPolling();
    expect(second.waiting.poll).toBeUndefined();
    expect(second.waiting.parent).toBeDefined();
    second.waiting.stop();
  });
});
