/**
 * The `X-Raider-List` header: how a client names its list over HTTP. A header is bytes, and Node
 * reads them as latin1, so a name sent as raw UTF-8 would arrive as mojibake (`team Î²`) and land in
 * another list than the same name sent percent-encoded. One way only: the value is percent-decoded
 * (`team%20%CE%B2` names `team β`, the list `--list 'team β'` names), and a value that carries raw
 * bytes outside printable ASCII, or a malformed percent-encoding, is refused.
 */

/** The header a client names its list with (ignored when the server has --list). */
export const LIST_HEADER = 'x-raider-list';

/** How a refusal shows the name the client meant. */
const EXAMPLE = 'X-Raider-List: team%20%CE%B2 for "team β"';

/** The first character outside printable ASCII (space to `~`), as its index, or -1. */
function firstUnprintable(value: string): number {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code > 0x7e) return index;
  }
  return -1;
}

/**
 * The list id a header value names, percent-decoded, or why it is refused (a one-line message
 * saying what was expected and what was received, never quoting a long value). Raw non-ASCII
 * bytes and control characters are refused, not guessed at: the same name must reach the same
 * list however the client's HTTP stack encodes headers. The id is not yet checked as a list id
 * (the caller's listFolderName does that).
 *
 * @example
 * listFromHeader('team%20%CE%B2'); // { listId: 'team β' }
 * listFromHeader('team Î²');        // { refused: 'expected … received byte 0xCE at byte 6 of 7' }
 */
export function listFromHeader(value: string): { listId: string } | { refused: string } {
  const read = nameFromHeader(value, 'a list name', EXAMPLE);
  return 'name' in read ? { listId: read.name } : read;
}

/**
 * The name a header value carries, percent-decoded, or why it is refused, as `listFromHeader`
 * reads X-Raider-List (X-Raider-Agent is read the same way): `what` and `example` word the refusal.
 */
export function nameFromHeader(value: string, what: string, example: string): { name: string } | { refused: string } {
  const at = firstUnprintable(value);
  if (at !== -1) {
    const code = value.charCodeAt(at);
    const hex = code.toString(16).toUpperCase();
    // Node reads header bytes as latin1: one character is one byte on the wire. A character past
    // latin1 comes only from a caller in process.
    const received =
      code > 0xff
        ? `character U+${hex.padStart(4, '0')} at character ${at + 1} of ${value.length}`
        : `${code < 0x20 || code === 0x7f ? 'control character' : 'byte'} 0x${hex.padStart(2, '0')} at byte ${at + 1} of ${value.length}`;
    return {
      refused: `expected ${what} in printable ASCII, anything else percent-encoded as UTF-8 (${example}), received ${received}`,
    };
  }
  try {
    return { name: decodeURIComponent(value) };
  } catch {
    const received = value.length <= 80 ? JSON.stringify(value) : `a value of ${value.length} characters`;
    return {
      refused: `expected ${what} percent-encoded as UTF-8, %XX for each byte (${example}), received a malformed percent-encoding: ${received}`,
    };
  }
}
