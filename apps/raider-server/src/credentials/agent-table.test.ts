// The table of agents: what it accepts (JSON object or array, TOML, sha256 entries, defaults),
// what it refuses (each message pinned, none holding a token), and how identify answers.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AgentTable, CredentialsError } from './agent-table.js';

const SECRET = 'alice-secret-token-0001';
const OTHER = 'bob-secret-token-000002';
const hex = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const json = (value: unknown) => AgentTable.parse(JSON.stringify(value), 'json', 'agents.json');

/** The message `build` throws, checked to be a CredentialsError of one line that holds no secret. */
function refusal(build: () => unknown, secrets: string[] = [SECRET, OTHER]): string {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(CredentialsError);
    const { message } = error as Error;
    expect(message).not.toContain('\n');
    for (const secret of secrets) expect(message).not.toContain(secret);
    return message;
  }
  throw new Error('expected a CredentialsError, received none');
}

describe('AgentTable.parse accepts', () => {
  it('a JSON object of agents, with lists absent (every list) and board false by default', () => {
    const table = json({
      agents: [
        { name: 'alice', token: SECRET },
        { name: 'bob', token: OTHER, lists: ['a', 'b'], board: true },
      ],
    });
    expect(table.entries).toEqual([
      { name: 'alice', lists: undefined, board: false },
      { name: 'bob', lists: ['a', 'b'], board: true },
    ]);
    expect(table.byName('bob')?.board).toBe(true);
    expect(table.byName('carol')).toBeUndefined();
  });

  it('a bare JSON array, and TOML [[agents]] tables', () => {
    expect(json([{ name: 'alice', token: SECRET }]).entries.map((e) => e.name)).toEqual(['alice']);
    const toml = AgentTable.parse(
      `[[agents]]\nname = "alice"\ntoken = "${SECRET}"\n\n[[agents]]\nname = "bob"\nsha256 = "${hex(OTHER)}"\nlists = ["team"]\nboard = true\n`,
      'toml',
      'agents.toml',
    );
    expect(toml.entries).toEqual([
      { name: 'alice', lists: undefined, board: false },
      { name: 'bob', lists: ['team'], board: true },
    ]);
    expect(toml.identify(OTHER)?.name).toBe('bob');
  });

  it('a sha256 entry (upper or lower case hex) matches its token and no other', () => {
    const table = json([
      { name: 'alice', sha256: hex(SECRET) },
      { name: 'bob', sha256: hex(OTHER).toUpperCase() },
    ]);
    expect(table.identify(SECRET)?.name).toBe('alice');
    expect(table.identify(OTHER)?.name).toBe('bob');
    expect(table.identify(hex(SECRET))).toBeUndefined();
  });

  it("a file with an editor's byte order mark", () => {
    expect(AgentTable.parse(`\uFEFF[{"name":"alice","token":"${SECRET}"}]`, 'json', 'a.json').entries).toHaveLength(1);
  });
});

describe('AgentTable.parse refuses, saying where and what', () => {
  it('unknown keys, in an entry and at the top', () => {
    expect(refusal(() => json([{ name: 'alice', token: SECRET, tokn: 'x' }]))).toBe(
      'agents.json: agents[0]: expected only the keys name, token, sha256, lists and board, received the key "tokn"',
    );
    expect(refusal(() => json({ agents: [], agent: [] }))).toBe(
      'agents.json: expected only the key agents at the top, received the key "agent"',
    );
  });

  it('a missing or bad name', () => {
    expect(refusal(() => json([{ token: SECRET }]))).toBe(
      'agents.json: agents[0]: expected a name, received an entry without one',
    );
    expect(refusal(() => json([{ name: '../x', token: SECRET }]))).toBe(
      'agents.json: agents[0]: expected an agent name without path separators, NUL, "." or "..", of at most 200 characters (the rules of a list id), received "../x"',
    );
    expect(refusal(() => json([{ name: 7, token: SECRET }]))).toBe(
      'agents.json: agents[0]: expected an agent name (a string), received 7',
    );
  });

  it('duplicate names and duplicate tokens (a token and the sha256 of it count as the same)', () => {
    expect(
      refusal(() =>
        json([
          { name: 'alice', token: SECRET },
          { name: 'alice', token: OTHER },
        ]),
      ),
    ).toBe('agents.json: agents[1] ("alice"): expected each name once, received the name of agents[0] again');
    expect(
      refusal(() =>
        json([
          { name: 'alice', token: SECRET },
          { name: 'bob', sha256: hex(SECRET) },
        ]),
      ),
    ).toBe('agents.json: agents[1] ("bob"): expected a token of its own, received the token of agents[0] ("alice")');
  });

  it('a missing, short or non-string token, and both or neither of token and sha256', () => {
    expect(refusal(() => json([{ name: 'alice' }]))).toBe(
      'agents.json: agents[0] ("alice"): expected a token (the secret itself) or sha256 (the SHA-256 of it in hex), received neither',
    );
    expect(refusal(() => json([{ name: 'alice', token: 'short-secret' }]), ['short-secret'])).toBe(
      'agents.json: agents[0] ("alice"): expected token to be a string of at least 16 characters, received one of 12 characters',
    );
    expect(refusal(() => json([{ name: 'alice', token: 1234567890123456 }]))).toBe(
      'agents.json: agents[0] ("alice"): expected token to be a string of at least 16 characters, received a number',
    );
    expect(refusal(() => json([{ name: 'alice', token: SECRET, sha256: hex(SECRET) }]))).toBe(
      'agents.json: agents[0] ("alice"): expected exactly one of token or sha256, received both',
    );
  });

  it('bad hex: too short, not hex, the digest of an empty token', () => {
    const short = hex(SECRET).slice(0, 63);
    expect(refusal(() => json([{ name: 'alice', sha256: short }]), [short])).toBe(
      'agents.json: agents[0] ("alice"): expected sha256 to be 64 hex characters (the SHA-256 of the token, as printf %s "$TOKEN" | sha256sum prints it), received a string of 63 characters',
    );
    const notHex = `${hex(SECRET).slice(0, 63)}g`;
    expect(refusal(() => json([{ name: 'alice', sha256: notHex }]), [notHex])).toBe(
      'agents.json: agents[0] ("alice"): expected sha256 to be 64 hex characters (the SHA-256 of the token, as printf %s "$TOKEN" | sha256sum prints it), received characters that are not hex',
    );
    expect(refusal(() => json([{ name: 'alice', sha256: hex('') }]))).toBe(
      'agents.json: agents[0] ("alice"): expected sha256 of a token of at least 16 characters, received the SHA-256 of an empty token',
    );
  });

  it('bad lists and board', () => {
    expect(refusal(() => json([{ name: 'alice', token: SECRET, lists: 'team' }]))).toBe(
      'agents.json: agents[0] ("alice"): expected lists to be an array of list ids, received a string',
    );
    expect(refusal(() => json([{ name: 'alice', token: SECRET, lists: ['ok', '..'] }]))).toBe(
      'agents.json: agents[0] ("alice"): lists[1]: list id "..": expected a name without path separators, NUL, "." or "..", received one that would escape the data dir',
    );
    expect(refusal(() => json([{ name: 'alice', token: SECRET, lists: [3] }]))).toBe(
      'agents.json: agents[0] ("alice"): expected lists[0] to be a list id (a string), received a number',
    );
    expect(refusal(() => json([{ name: 'alice', token: SECRET, board: 'yes' }]))).toBe(
      'agents.json: agents[0] ("alice"): expected board to be true or false, received "yes"',
    );
  });

  it('an empty table, an entry that is not a table, agents that are not an array', () => {
    expect(refusal(() => json([]))).toBe('agents.json: expected at least one agent, received a table without any');
    expect(refusal(() => json({}))).toBe('agents.json: expected at least one agent, received a table without any');
    expect(refusal(() => AgentTable.parse('', 'toml', 'a.toml'))).toBe(
      'a.toml: expected at least one agent, received a table without any',
    );
    expect(refusal(() => json([SECRET]))).toBe(
      'agents.json: agents[0]: expected an agent (a table with a name and a token or sha256), received a string',
    );
    expect(refusal(() => json({ agents: { name: 'alice' } }))).toBe(
      'agents.json: expected agents to be an array of agents ([[agents]] tables in TOML), received one table',
    );
    expect(refusal(() => json(42))).toBe(
      'agents.json: expected an agent table ({"agents": [...]} or [...]), received a number',
    );
  });

  it('malformed JSON, saying where, without quoting the text', () => {
    const cases: [string, string][] = [
      [
        `{"agents": [{"name": "a", "token": "${SECRET}" x}]}`,
        "Expected ',' or '}' after property value at line 1 column 62",
      ],
      [
        `{"agents": [{"name": "a", "token": "${SECRET}"}`,
        "Expected ',' or ']' after array element at line 1 column 62",
      ],
      [`{"agents": [{"name": "a", "token": "${SECRET}`, 'Unterminated string at line 1 column 60'],
      [`{"agents": [{"name": "a", "token": `, 'the text ends before the JSON does at line 1 column 36'],
      [`[\n  {"name": "a",\n   "token": "${SECRET}",}\n]`, 'Expected double-quoted property name at line 3 column 39'],
      [`[{"name": "a", "token": "${SECRET}"},]`, 'an unexpected character at line 1 column 52'],
      [
        `[{"name": "a", "token": "${SECRET}"}] ${SECRET}`,
        'Unexpected non-whitespace character after JSON at line 1 column 53',
      ],
    ];
    for (const [text, where] of cases) {
      expect(refusal(() => AgentTable.parse(text, 'json', 'agents.json'))).toBe(
        `agents.json: expected an agent table in JSON, received text that does not parse: ${where}`,
      );
    }
  });

  it('malformed TOML, saying where, without its code block', () => {
    const text = `[[agents]]\nname = "a"\ntoken = "${SECRET}`;
    expect(refusal(() => AgentTable.parse(text, 'toml', 'agents.toml'))).toBe(
      'agents.toml: expected an agent table in TOML ([[agents]] tables), received text that does not parse: unfinished string at line 3 column 9',
    );
    expect(refusal(() => AgentTable.parse('[agents]\nname = "a"\n', 'toml', 'agents.toml'))).toBe(
      'agents.toml: expected agents to be an array of agents ([[agents]] tables in TOML), received one table',
    );
  });
});

describe('AgentTable.fromRows (the PostgreSQL table)', () => {
  const row = (name: string, token: string, lists: string[] | null = null, board = false) => ({
    name,
    sha256: hex(token),
    lists,
    board,
  });

  it('builds entries, null lists meaning every list', () => {
    const table = AgentTable.fromRows([row('alice', SECRET), row('bob', OTHER, ['team'], true)], 'raider_agents');
    expect(table.entries).toEqual([
      { name: 'alice', lists: undefined, board: false },
      { name: 'bob', lists: ['team'], board: true },
    ]);
    expect(table.identify(OTHER)?.name).toBe('bob');
  });

  it('refuses no rows with how to add one, and bad hex under its column name', () => {
    expect(refusal(() => AgentTable.fromRows([], 'raider_agents'))).toBe(
      `raider_agents has no agents: add one with INSERT INTO raider_agents (name, token_sha256) VALUES ('<name>', '<the SHA-256 of its token, as printf %s "$TOKEN" | sha256sum prints it>')`,
    );
    expect(refusal(() => AgentTable.fromRows([{ ...row('bob', OTHER), sha256: 'abc' }], 'raider_agents'))).toBe(
      'raider_agents: row 1 ("bob"): expected token_sha256 to be 64 hex characters (the SHA-256 of the token, as printf %s "$TOKEN" | sha256sum prints it), received a string of 3 characters',
    );
    expect(refusal(() => AgentTable.fromRows([row('alice', SECRET), row('bob', SECRET)], 'raider_agents'))).toBe(
      'raider_agents: row 2 ("bob"): expected a token of its own, received the token of row 1 ("alice")',
    );
  });
});

describe('identify and mayUseList', () => {
  const table = json([
    { name: 'alice', token: SECRET, lists: ['team'] },
    { name: 'bob', token: OTHER },
    { name: 'zoë', token: 'café-ключ-🔑-token' },
  ]);

  it('finds the entry of a right token, and none for a wrong, empty, very long or near one', () => {
    expect(table.identify(SECRET)?.name).toBe('alice');
    expect(table.identify(OTHER)?.name).toBe('bob');
    expect(table.identify('')).toBeUndefined();
    expect(table.identify(SECRET.slice(0, -1))).toBeUndefined();
    expect(table.identify(`${SECRET} `)).toBeUndefined();
    expect(table.identify(SECRET.repeat(100_000))).toBeUndefined();
    expect(table.identify(undefined as unknown as string)).toBeUndefined();
  });

  it('compares unicode tokens by their UTF-8 bytes', () => {
    expect(table.identify('café-ключ-🔑-token')?.name).toBe('zoë');
    // The same text in another normal form is other bytes: another token.
    expect(table.identify('café-ключ-🔑-token'.normalize('NFD'))).toBeUndefined();
    expect(json([{ name: 'u', sha256: hex('café-ключ-🔑-token') }]).identify('café-ключ-🔑-token')?.name).toBe('u');
  });

  it('mayUseList: an entry with lists uses those only; one without uses every list', () => {
    const alice = table.byName('alice');
    const bob = table.byName('bob');
    if (!alice || !bob) throw new Error('expected alice and bob in the table');
    expect(AgentTable.mayUseList(alice, 'team')).toBe(true);
    expect(AgentTable.mayUseList(alice, 'other')).toBe(false);
    expect(AgentTable.mayUseList(bob, 'anything')).toBe(true);
  });

  it('entries cannot be changed through the table', () => {
    expect(Object.isFrozen(table.entries)).toBe(true);
    expect(Object.isFrozen(table.entries[0])).toBe(true);
    expect(Object.isFrozen(table.entries[0]?.lists)).toBe(true);
  });
});
