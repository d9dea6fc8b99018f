// The READMEs' lines the release test runs are found and parse (so that a README edit which the
// release test could no longer read fails here, in the quick tests, not only in test:release).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  claudeAddCommands,
  codeBlocks,
  expand,
  mcpServerEntries,
  npxCommands,
  section,
  words,
} from './readme-commands.js';

const ROOT_README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const SERVER_README = readFileSync(new URL('../../../apps/raider-server/README.md', import.meta.url), 'utf8');
const USAGE = '## Usage: client configuration';

describe('the helpers', () => {
  it('section stops at the next heading of its level, not at a deeper one', () => {
    const text = '# A\n\n## B\nb\n### C\nc\n## D\nd\n';
    expect(section(text, '## B')).toBe('b\n### C\nc');
    expect(() => section(text, '## E')).toThrow('no heading "## E"');
  });

  it('codeBlocks finds fenced blocks by language', () => {
    expect(codeBlocks('```sh\na\nb\n```\n```json\n{}\n```\n', 'sh')).toEqual(['a\nb\n']);
  });

  it('words refuses what a plain split would get wrong', () => {
    expect(words(' npx -y @raider/server --http ')).toEqual(['npx', '-y', '@raider/server', '--http']);
    expect(() => words('node "$PWD/cli.js"')).toThrow('not a plain command line');
  });

  it('expand fills each placeholder and refuses a name without a value', () => {
    // The placeholders as the README writes them (not template literals).
    const [token, unknown] = ['RAIDER_TOKEN', 'X'].map((name) => `$${'{'}${name}}`);
    expect(expand(`Bearer ${token}`, { RAIDER_TOKEN: 't' })).toBe('Bearer t');
    expect(() => expand(unknown as string, {})).toThrow(`${unknown} has no value`);
  });
});

describe("the READMEs' lines", () => {
  it('the root README gives npx -y @raider/server with --version, stdio and --http, and the claude mcp add line', () => {
    const { npx, claudeAdd } = npxCommands(ROOT_README);
    expect(npx).toContainEqual(['npx', '-y', '@raider/server', '--version']);
    expect(npx).toContainEqual(['npx', '-y', '@raider/server']);
    expect(npx.some((line) => line.includes('--http'))).toBe(true);
    expect(claudeAdd).toContainEqual(['claude', 'mcp', 'add', 'raider', '--', 'npx', '-y', '@raider/server']);
  });

  it("the server README's client configuration: claude mcp add lines and mcpServers blocks on npx -y @raider/server", () => {
    const added = claudeAddCommands(SERVER_README, USAGE);
    expect(added.filter((line) => line.includes('npx')).length).toBeGreaterThan(0);
    const entries = mcpServerEntries(SERVER_README, USAGE);
    const stdio = entries.filter((entry) => entry.command);
    expect(stdio.length).toBeGreaterThan(0);
    for (const entry of stdio)
      expect([entry.command, ...(entry.args ?? []).slice(0, 2)]).toEqual(['npx', '-y', '@raider/server']);
  });
});
