// The structure that makes identify constant time: whatever token is presented, it is hashed once
// and its 32-byte digest is compared with every entry's, with no early exit. Counted with a
// comparison put in place of timingSafeEqual (the times themselves are the bench's:
// bench/identify.bench.ts).
import { timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AgentTable } from './agent-table.js';

const ENTRIES = 7;
const tokenOf = (i: number) => `token-of-agent-${i}-`.padEnd(24, 'x');
const table = AgentTable.parse(
  JSON.stringify(Array.from({ length: ENTRIES }, (_, i) => ({ name: `agent-${i}`, token: tokenOf(i) }))),
  'json',
  'test',
);

/** What identify does with `presented`: the comparisons made (their buffer sizes) and the answer. */
function comparisons(presented: string): { sizes: number[]; found: string | undefined } {
  const sizes: number[] = [];
  const counting = table.withComparisonForTests((a, b) => {
    sizes.push(a.length, b.length);
    return timingSafeEqual(a, b);
  });
  return { sizes, found: counting.identify(presented)?.name };
}

describe('identify compares with every entry, whatever the token', () => {
  it('the same number of 32-byte comparisons for a right token of the first or last entry, and wrong ones', () => {
    const presented = {
      first: tokenOf(0),
      last: tokenOf(ENTRIES - 1),
      wrongShort: 'x',
      wrongLong: 'y'.repeat(100_000),
      empty: '',
    };
    const seen = Object.fromEntries(Object.entries(presented).map(([what, token]) => [what, comparisons(token)]));
    for (const { sizes } of Object.values(seen)) {
      expect(sizes).toHaveLength(ENTRIES * 2);
      expect(sizes.every((size) => size === 32)).toBe(true);
    }
    expect(seen.first?.found).toBe('agent-0');
    expect(seen.last?.found).toBe(`agent-${ENTRIES - 1}`);
    expect(seen.wrongShort?.found).toBeUndefined();
    expect(seen.wrongLong?.found).toBeUndefined();
  });

  it('the table used for counting answers as the table does', () => {
    const counting = table.withComparisonForTests(timingSafeEqual);
    expect(counting.entries).toEqual(table.entries);
    expect(counting.identify(tokenOf(3))?.name).toBe('agent-3');
  });
});
