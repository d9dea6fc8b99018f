// What the HTTP server says at start: why it could not listen, and which list each era works on without --list.
import { describe, expect, it } from 'vitest';
import { projectListId } from '../lists/project-list.js';
import { listenProblem, listsLine } from './start-lines.js';

const failed = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

describe('the start-up lines of the HTTP server', () => {
  it('a port that cannot be bound says why and what to do', () => {
    expect(listenProblem(failed('EADDRINUSE'), '127.0.0.1', 3333)).toBe(
      'cannot listen on 127.0.0.1:3333: the port is in use (another raider-server?); give --port 0 for a free one, or another --port',
    );
    expect(listenProblem(failed('EACCES'), '127.0.0.1', 80)).toBe(
      'cannot listen on 127.0.0.1:80: this user may not use that port (EACCES; ports below 1024 need privileges); give --port 0 for a free one, or a port above 1023',
    );
    expect(listenProblem(failed('EADDRNOTAVAIL'), '10.9.9.9', 3333)).toBe(
      'cannot listen on 10.9.9.9:3333: 10.9.9.9 is not an address of this machine (EADDRNOTAVAIL); check --host',
    );
    expect(listenProblem(failed('ENOTFOUND'), 'nohost', 3333)).toBe(
      'cannot listen on nohost:3333: the host nohost is not known (ENOTFOUND); check --host',
    );
    expect(listenProblem(new Error('something else'), '127.0.0.1', 3333)).toBe(
      'cannot listen on 127.0.0.1:3333: something else',
    );
  });

  it('without --list: every 2026-era client shares the default list, each 2025-era session has its own', () => {
    expect(listsLine({ list: undefined }, { CLAUDE_PROJECT_DIR: '/work/my-app' })).toBe(
      `no --list: every 2026-era client shares the default list ${projectListId('/work/my-app')} (they have no session), while each 2025-era session gets a list of its own; a client names another list with the X-Raider-List header`,
    );
    expect(listsLine({ list: 'team' })).toBeUndefined();
  });
});
