/**
 * send_message's refusal of a name no agent of the list has connected as (issue 36: no phantom
 * agents): what was expected, what was received, the nearest names as a "did you mean", and the
 * names the list has, bounded, so a roster of 1 000 agents is never echoed whole. One line: every
 * name is quoted by `received` of @raider/kit/received (JSON, controls and line breaks escaped).
 */
import { received } from '@raider/kit/received';

/** The most names of the list a refusal shows; the rest are counted. */
export const MAX_NAMES_SHOWN = 10;

/** The most names a "did you mean" offers (those nearest, equally near). */
const MAX_SUGGESTIONS = 3;

/** The flag that lets send_message write to names not seen yet. */
export const SEND_TO_UNSEEN_FLAG = '--send-to-unseen';

/** How a name reads in the refusal: one quoted line, a long one cut to its start. */
const shown = (name: string) => received(name, { excerpt: true });

/**
 * The most edits a name may be from `name` to be offered for it: 1 for a name of up to 3
 * characters, 2 up to 6, else 3 (a short name is near every other short name).
 */
export function editsAllowed(name: string): number {
  if (name.length <= 3) return 1;
  return name.length <= 6 ? 2 : 3;
}

/**
 * The edit distance of `from` and `to` (insertions, deletions, substitutions and swaps of two
 * neighbours, each one edit: the optimal string alignment distance), or `limit + 1` as soon as it
 * is sure to be more than `limit`, so a long name far from every other costs little.
 *
 * @example editDistance('enginer', 'engineer', 3) // 1
 * @example editDistance('alcie', 'alice', 3)      // 1 (a swap)
 */
export function editDistance(from: string, to: string, limit: number): number {
  if (Math.abs(from.length - to.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: to.length + 1 }, (_, index) => index);
  for (let row = 1; row <= from.length; row += 1) {
    const current = [row];
    let best = row;
    for (let column = 1; column <= to.length; column += 1) {
      const cost = from[row - 1] === to[column - 1] ? 0 : 1;
      let value = Math.min(
        (previous[column] as number) + 1,
        (current[column - 1] as number) + 1,
        (previous[column - 1] as number) + cost,
      );
      const swapped = row > 1 && column > 1 && from[row - 1] === to[column - 2] && from[row - 2] === to[column - 1];
      if (swapped) value = Math.min(value, (before[column - 2] as number) + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[to.length] as number, limit + 1);
}

/**
 * The names of `names` nearest to `name` (case aside: `Alice` is nearest to `alice`), within
 * `editsAllowed(name)` edits: those at the least distance, at most three, in alphabetical order.
 *
 * @example nearestNames('enginer', ['alice', 'bob', 'engineer']) // ['engineer']
 */
export function nearestNames(name: string, names: readonly string[]): string[] {
  const limit = editsAllowed(name);
  const folded = name.toLowerCase();
  let least = limit + 1;
  let nearest: string[] = [];
  for (const candidate of names) {
    if (candidate === name) continue;
    const distance = editDistance(folded, candidate.toLowerCase(), limit);
    if (distance < least) [least, nearest] = [distance, [candidate]];
    else if (distance === least && distance <= limit) nearest.push(candidate);
  }
  return nearest.sort().slice(0, MAX_SUGGESTIONS);
}

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
function either(names: readonly string[]): string {
  const quoted = names.map(shown);
  return quoted.length === 1 ? (quoted[0] as string) : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** `Its agents: "alice", "bob".`, the first MAX_NAMES_SHOWN in alphabetical order and how many more. */
function agentsOfList(names: readonly string[]): string {
  if (names.length === 0) return 'This list has no agents yet.';
  const sorted = [...names].sort();
  const listed = sorted.slice(0, MAX_NAMES_SHOWN).map(shown).join(', ');
  const more = sorted.length - MAX_NAMES_SHOWN;
  return `Its agents: ${listed}${more > 0 ? ` and ${more} more` : ''}.`;
}

/**
 * send_message's refusal (after `to: `) of `to`, a name none of `agents` (the list's agents) is:
 *
 * `to: expected an agent of this list, received "enginer" (no agent of that name has connected to
 * it); did you mean "engineer"? Its agents: "alice", "bob", "engineer". Nothing was sent; a server
 * started with --send-to-unseen writes to names not seen yet`
 */
export function unseenAgentProblem(to: string, agents: readonly string[]): string {
  const nearest = nearestNames(to, agents);
  const guess = nearest.length > 0 ? `; did you mean ${either(nearest)}?` : '.';
  return [
    `to: expected an agent of this list, received ${shown(to)} (no agent of that name has connected to it)${guess}`,
    agentsOfList(agents),
    `Nothing was sent; a server started with ${SEND_TO_UNSEEN_FLAG} writes to names not seen yet`,
  ].join(' ');
}
