/**
 * Did you mean: the known flags nearest to one the command line does not know (`--databse-url` ->
 * `--database-url`), by edit distance, so a typo is answered with the flag that was meant.
 */

/**
 * The edit distance between two words: insertions, deletions, substitutions and swaps of two
 * neighbouring characters each count one (the optimal string alignment distance), so `prot` is
 * one from `port`.
 */
export function editDistance(from: string, to: string): number {
  // rows[i][j]: the distance between the first i characters of `from` and the first j of `to`.
  const rows: number[][] = Array.from({ length: from.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= to.length; j += 1) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= from.length; i += 1) {
    const row = rows[i] as number[];
    const above = rows[i - 1] as number[];
    for (let j = 1; j <= to.length; j += 1) {
      const cost = from[i - 1] === to[j - 1] ? 0 : 1;
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && from[i - 1] === to[j - 2] && from[i - 2] === to[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (rows[from.length] as number[])[to.length] as number;
}

/** The shortest word taken as the start of flags (`--data` for `--data-dir`). */
const MIN_PREFIX = 4;

/**
 * The known flags nearest to `given` (without their dashes, any case), at most three, in the
 * order of `known`: those fewest edits away, when that is few enough to be a typo (a third of the
 * longer word, rounded down, from one to three edits); else the flags it begins (at least four
 * characters: `--database` for `--database-url`, `--database-pool-size`, …); else none.
 *
 * @example nearestFlags('databse-url', ['database-url', 'data-dir']) // ['database-url']
 * @example nearestFlags('frobnicate', ['port'])                      // []
 */
export function nearestFlags(given: string, known: readonly string[]): string[] {
  const word = given.replace(/^-+/, '').split('=')[0]?.toLowerCase() ?? '';
  if (word === '') return [];
  const scored = known.map((flag) => ({ flag, distance: editDistance(word, flag) }));
  const best = Math.min(...scored.map((entry) => entry.distance));
  const typos = scored
    .filter(({ flag, distance }) => distance === best && distance <= allowedEdits(word, flag))
    .map(({ flag }) => flag);
  const begun = word.length >= MIN_PREFIX ? known.filter((flag) => flag.startsWith(word)) : [];
  return (typos.length ? typos : begun).slice(0, 3);
}

/** How many edits still make `word` a typo of `flag`: a third of the longer one, from one to three. */
function allowedEdits(word: string, flag: string): number {
  return Math.min(3, Math.max(1, Math.floor(Math.max(word.length, flag.length) / 3)));
}
