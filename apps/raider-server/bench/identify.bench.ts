// What identify costs on a table of 100 agents, for a right token, a wrong one of the same
// length and a wrong one ten times longer: the first two should take the same time (the work
// does not depend on which entry matches, or whether one does); the long one costs only its
// longer hash. Run with `pnpm --filter @raider/server bench`.
import { bench, describe } from 'vitest';
import { AgentTable } from '../src/credentials/agent-table.js';

const ENTRIES = 100;
const tokenOf = (i: number) => `bench-token-${String(i).padStart(3, '0')}-`.padEnd(40, 'k');
const table = AgentTable.parse(
  JSON.stringify({ agents: Array.from({ length: ENTRIES }, (_, i) => ({ name: `agent-${i}`, token: tokenOf(i) })) }),
  'json',
  'bench',
);
const right = tokenOf(ENTRIES / 2);
const wrongSameLength = `${right.slice(0, -1)}x`;
const wrongLong = wrongSameLength.repeat(10);

// Each bench checks its answer, so a broken identify cannot pass for a fast one.
describe('identify on a table of 100 entries', () => {
  bench('right token', () => {
    if (table.identify(right) === undefined) throw new Error('expected the right token to be identified');
  });
  bench('wrong token, same length', () => {
    if (table.identify(wrongSameLength) !== undefined) throw new Error('expected a wrong token to be refused');
  });
  bench('wrong token, 10x longer', () => {
    if (table.identify(wrongLong) !== undefined) throw new Error('expected a wrong token to be refused');
  });
});
