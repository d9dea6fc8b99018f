import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/cleanup.js';
import { inboxFolderName } from './inbox-name.js';

const SAFE_NAME = /^[a-z0-9_%A-F~u-]+$/;

describe('inboxFolderName', () => {
  it('keeps lower-case names of letters, digits, _ and - as they are', () => {
    expect(inboxFolderName('team-lead')).toBe('team-lead');
    expect(inboxFolderName('agent_2')).toBe('agent_2');
  });

  it('encodes everything else, upper-case letters and dots included: no path trick, no case or normalisation clash', () => {
    expect(inboxFolderName('Alice B.')).toBe('%41lice%20%42%2E');
    expect(inboxFolderName('..')).toBe('%2E%2E');
    expect(inboxFolderName('.')).toBe('%2E');
    expect(inboxFolderName('../../etc/passwd')).toBe('%2E%2E%2F%2E%2E%2Fetc%2Fpasswd');
    expect(inboxFolderName('a\\b\0c')).toBe('a%5Cb%00c');
    expect(inboxFolderName('ünï')).toBe('%C3%BCn%C3%AF');
    // NFC and NFD of one name are two names: two folders (macOS would otherwise merge them).
    expect(inboxFolderName('é'.normalize('NFC'))).not.toBe(inboxFolderName('é'.normalize('NFD')));
    const names = ['Alice', 'alice', 'ALICE', 'alIce'].map(inboxFolderName);
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(4);
  });

  it('lone surrogates get names of their own (UTF-8 would make both U+FFFD)', () => {
    const names = ['\ud800', '\udfff', '\ufffd', 'x\ud83d'].map(inboxFolderName);
    expect(new Set(names).size).toBe(4);
    expect(inboxFolderName('\ud800')).toBe('%uD800');
  });

  it('a name whose encoding passes 200 bytes is cut, with its digest: every 200-character name fits a folder name', () => {
    const longest = [
      'a'.repeat(200),
      'A'.repeat(200),
      '任'.repeat(200),
      '🚀'.repeat(100),
      '\ud800'.repeat(200),
      `${'A'.repeat(199)}b`,
      `${'A'.repeat(199)}c`,
    ];
    const names = longest.map(inboxFolderName);
    expect(new Set(names).size).toBe(longest.length);
    for (const name of names) {
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
      expect(name).toMatch(SAFE_NAME);
    }
    expect(names[0]).toBe('a'.repeat(200));
    expect(names[1]).toMatch(/^(%41){33}~[0-9a-f]{64}$/);
    // A name that ends in what looks like a digest is encoded, never taken for a cut one.
    expect(inboxFolderName(`x~${'0'.repeat(64)}`)).toBe(`x%7E${'0'.repeat(64)}`);
  });

  it('every name is one the file system takes, and distinct names make distinct folders', () => {
    const dir = tempDir();
    const agents = ['a', 'A', '.', '..', '/', ' ', '~', '%41', 'x'.repeat(200), '💥'.repeat(100), 'CON', 'nul'];
    for (const agent of agents) mkdirSync(join(dir, inboxFolderName(agent)));
    expect(readdirSync(dir)).toHaveLength(agents.length);
  });
});
