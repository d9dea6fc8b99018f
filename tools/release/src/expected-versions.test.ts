import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type Bump,
  expectedReleases,
  parseChangeset,
  publishedRange,
  readChangesets,
  readWorkspace,
  type WorkspacePackage,
} from './expected-versions.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function pkg(name: string, version: string, extra: Partial<WorkspacePackage> = {}): [string, WorkspacePackage] {
  return [name, { name, version, private: false, dir: name, dependencies: {}, peerDependencies: {}, ...extra }];
}

describe('parseChangeset', () => {
  it('reads quoted and unquoted names of every bump', () => {
    const bumps = parseChangeset(
      '---\n\'@raider/a\': minor\n"@raider/b": patch\nc: major\n---\n\nText: with colons.\n',
    );
    expect([...bumps]).toEqual([
      ['@raider/a', 'minor'],
      ['@raider/b', 'patch'],
      ['c', 'major'],
    ]);
  });

  it('refuses a file without front matter or with a line that is not name: bump', () => {
    expect(() => parseChangeset('# no front matter', 'x.md')).toThrow('x.md: expected front matter');
    expect(() => parseChangeset("---\n'@raider/a': huge\n---\n", 'y.md')).toThrow(
      'y.md: expected "name": major|minor|patch|none, received "\'@raider/a\': huge"',
    );
  });
});

describe('publishedRange', () => {
  it('writes workspace: specifiers as pnpm publish does', () => {
    expect(publishedRange('workspace:^', '0.1.0')).toBe('^0.1.0');
    expect(publishedRange('workspace:~', '0.1.0')).toBe('~0.1.0');
    expect(publishedRange('workspace:*', '0.1.0')).toBe('0.1.0');
    expect(publishedRange('workspace:0.x', '0.1.0')).toBe('0.x');
    expect(publishedRange('^4.0.0', '0.1.0')).toBe('^4.0.0');
  });
});

describe('expectedReleases', () => {
  it('gives a named package its highest bump, and a dependent whose range is left a patch', () => {
    const workspace = new Map([
      pkg('lib', '0.1.0'),
      pkg('app', '0.1.0', { dependencies: { lib: 'workspace:^' } }),
      pkg('store', '0.1.0', { peerDependencies: { lib: 'workspace:0.x' } }),
      pkg('other', '0.1.0'),
    ]);
    expect(expectedReleases(workspace, new Map<string, Bump>([['lib', 'minor']]))).toEqual([
      { name: 'app', from: '0.1.0', to: '0.1.1', reason: 'its dependency range ^0.1.0 leaves lib@0.2.0' },
      { name: 'lib', from: '0.1.0', to: '0.2.0', reason: 'changesets: minor' },
      { name: 'other', from: '0.1.0', to: '0.1.0', reason: 'not released' },
      { name: 'store', from: '0.1.0', to: '0.1.0', reason: 'not released' },
    ]);
  });

  it('leaves a patch inside a caret range alone', () => {
    const workspace = new Map([pkg('lib', '0.1.0'), pkg('app', '0.1.0', { dependencies: { lib: 'workspace:^' } })]);
    expect(expectedReleases(workspace, new Map<string, Bump>([['lib', 'patch']])).map(({ to }) => to)).toEqual([
      '0.1.0',
      '0.1.1',
    ]);
  });

  it('refuses a peer range a minor of a 0.x package leaves (changesets would make the dependent 1.0.0)', () => {
    const workspace = new Map([
      pkg('lib', '0.0.0'),
      pkg('store', '0.0.0', { peerDependencies: { lib: 'workspace:^' } }),
    ]);
    expect(() =>
      expectedReleases(
        workspace,
        new Map<string, Bump>([
          ['lib', 'minor'],
          ['store', 'minor'],
        ]),
      ),
    ).toThrow('store: its peer range "^0.0.0" for lib (workspace:^) does not admit lib@0.1.0');
  });

  it('leaves private and ignored packages out', () => {
    const workspace = new Map([pkg('lib', '0.0.0'), pkg('internal', '0.0.0', { private: true }), pkg('demo', '0.0.0')]);
    const bumps = new Map<string, Bump>([['lib', 'minor']]);
    expect(expectedReleases(workspace, bumps, ['demo']).map(({ name }) => name)).toEqual(['lib']);
  });

  it("holds for this repository's pending changesets: no peer range of a published package is left", () => {
    const workspace = readWorkspace(ROOT);
    const { ignore } = JSON.parse(readFileSync(join(ROOT, '.changeset', 'config.json'), 'utf8')) as {
      ignore: string[];
    };
    const releases = expectedReleases(workspace, readChangesets(ROOT), ignore);
    expect(releases.map(({ name }) => name)).toContain('@raider/file-store');
    expect(releases.map(({ name }) => name)).not.toContain('@raider/kit');
  });
});
