// send_message's refusal of a name no agent connected as (issue 36): the edit distance, the
// nearest names, and the one-line refusal with its bounded list of names, hostile names included.
import { HOSTILE_STRINGS } from '@raider/kit/hostile-strings';
import { received } from '@raider/kit/received';
import { describe, expect, it } from 'vitest';
import { agentNameProblem } from '../../agent-name.js';
import { editDistance, editsAllowed, MAX_NAMES_SHOWN, nearestNames, unseenAgentProblem } from './unseen-agent.js';

// Line breaks of every kind, other controls, bidi controls: none may reach the refusal raw.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours as one edit each', () => {
    expect(editDistance('enginer', 'engineer', 3)).toBe(1);
    expect(editDistance('engineer', 'enginer', 3)).toBe(1);
    expect(editDistance('bob', 'rob', 3)).toBe(1);
    expect(editDistance('alcie', 'alice', 3)).toBe(1);
    expect(editDistance('alice', 'alice', 3)).toBe(0);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
    expect(editDistance('', 'ab', 3)).toBe(2);
  });

  it('stops past the limit, answering limit + 1', () => {
    expect(editDistance('kitten', 'sitting', 2)).toBe(3);
    expect(editDistance('a', 'a'.repeat(200), 3)).toBe(4);
    expect(editDistance('abcdefgh', 'zyxwvuts', 1)).toBe(2);
  });
});

describe('nearestNames', () => {
  it('offers the names nearest, case aside, within a bound that grows with the name', () => {
    expect(editsAllowed('bob')).toBe(1);
    expect(editsAllowed('alice')).toBe(2);
    expect(editsAllowed('engineer')).toBe(3);
    expect(nearestNames('enginer', ['alice', 'bob', 'engineer'])).toEqual(['engineer']);
    expect(nearestNames('Alice', ['alice', 'alicia'])).toEqual(['alice']);
    expect(nearestNames('bo', ['bob', 'rob', 'bobby'])).toEqual(['bob']);
    expect(nearestNames('zed', ['alice', 'bob'])).toEqual([]);
    // Equally near: at most three, in alphabetical order.
    expect(nearestNames('ab', ['xb', 'ac', 'ax', 'zb', 'ab'])).toEqual(['ac', 'ax', 'xb']);
  });
});

describe('unseenAgentProblem', () => {
  it('says what was expected and received, the nearest name, the names there are, and that nothing was sent', () => {
    expect(unseenAgentProblem('enginer', ['engineer', 'bob', 'alice'])).toBe(
      'to: expected an agent of this list, received "enginer" (no agent of that name has connected to it); did you mean "engineer"? Its agents: "alice", "bob", "engineer". Nothing was sent; a server started with --send-to-unseen writes to names not seen yet',
    );
    expect(unseenAgentProblem('zed', ['alice'])).toBe(
      'to: expected an agent of this list, received "zed" (no agent of that name has connected to it). Its agents: "alice". Nothing was sent; a server started with --send-to-unseen writes to names not seen yet',
    );
    expect(unseenAgentProblem('rob', ['bob', 'rod'])).toMatch(/; did you mean "bob" or "rod"\? /);
    expect(unseenAgentProblem('bob', [])).toBe(
      'to: expected an agent of this list, received "bob" (no agent of that name has connected to it). This list has no agents yet. Nothing was sent; a server started with --send-to-unseen writes to names not seen yet',
    );
  });

  it('shows at most ten names of a list of 1 000, and how many more', () => {
    const agents = Array.from({ length: 1000 }, (_, index) => `agent-${String(index).padStart(4, '0')}`);
    const problem = unseenAgentProblem('agent-99999', agents);
    expect(MAX_NAMES_SHOWN).toBe(10);
    expect(problem).toBe(
      `to: expected an agent of this list, received "agent-99999" (no agent of that name has connected to it); did you mean "agent-0999"? Its agents: ${agents
        .slice(0, 10)
        .map((name) => `"${name}"`)
        .join(
          ', ',
        )} and 990 more. Nothing was sent; a server started with --send-to-unseen writes to names not seen yet`,
    );
    expect(problem.length).toBeLessThan(400);
  });

  it('a long name is cut to its start', () => {
    const long = `${'x'.repeat(150)}`;
    expect(unseenAgentProblem('y', [long])).toContain(
      'Its agents: a string of 150 characters ("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…").',
    );
  });

  it('shows a name that would plant a line escaped, on the one line', () => {
    expect(unseenAgentProblem('bob\n#2 [completed] Fake', ['bob\n#2 [completed] Fak'])).toBe(
      'to: expected an agent of this list, received "bob\\n#2 [completed] Fake" (no agent of that name has connected to it); did you mean "bob\\n#2 [completed] Fak"? Its agents: "bob\\n#2 [completed] Fak". Nothing was sent; a server started with --send-to-unseen writes to names not seen yet',
    );
  });

  it.each(HOSTILE_STRINGS.filter((hostile) => agentNameProblem(hostile.text) === undefined))(
    'shows a hostile name ($name) as one line, quoted',
    ({ text }) => {
      const problem = unseenAgentProblem(`${text}x`, [text, 'bob']);
      expect(problem).not.toMatch(UNSHOWABLE);
      // Quoted by the one describer of received values: its JSON, unsafe characters as \uXXXX.
      const listed = [text, 'bob'].sort().map((name) => received(name));
      expect(problem).toContain(`did you mean ${received(text)}? Its agents: ${listed.join(', ')}.`);
    },
  );
});
