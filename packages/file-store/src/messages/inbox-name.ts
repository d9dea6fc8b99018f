/**
 * The folder an agent's inbox lives in (`.messages/<inbox>/`): its name encoded so that any
 * agent name (an arbitrary string of up to 200 characters) is a safe folder name of its own.
 */
import { createHash } from 'node:crypto';

/** Kept as they are: lower-case letters, digits, `_` and `-` (never `.`, so no `.` or `..`). */
const KEPT = /^[a-z0-9_-]$/;

/** The longest encoded name used whole, in bytes; a longer one is cut and given a digest. */
const MAX_WHOLE_BYTES = 200;

/** What is kept of a longer name before its digest, in bytes (so a person can still tell whose it is). */
const KEPT_BEFORE_DIGEST = 100;

/** `char` (one code point, or a lone surrogate) as it appears in an inbox's folder name. */
function encoded(char: string): string {
  if (KEPT.test(char)) return char;
  const unit = char.charCodeAt(0);
  // A lone surrogate has no UTF-8 form (Buffer would make it U+FFFD, which two of them would share).
  if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) return `%u${unit.toString(16).toUpperCase()}`;
  return [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/**
 * The folder name of `agent`'s inbox: every character but lower-case letters, digits, `_` and `-`
 * percent-encoded (upper-case letters too, so that `Alice` and `alice` stay apart on a file system
 * that ignores case, as macOS's does; non-ASCII too, so none that normalises names can merge two),
 * and, when that passes 200 bytes, its first 100 bytes, `~` and the SHA-256 of the name (`~` is
 * never kept as it is, so no whole name looks like a cut one). Distinct names never share a folder
 * (but for a SHA-256 collision); no name is empty, `.`, `..`, holds a separator, or passes 255 bytes.
 * The caller checks `agent` is a non-empty string of at most 200 characters.
 *
 * @example inboxFolderName('team-lead') // 'team-lead'
 * @example inboxFolderName('Alice B.') // '%41lice%20%42%2E'
 */
export function inboxFolderName(agent: string): string {
  const parts: string[] = [];
  for (const char of agent) parts.push(encoded(char));
  const whole = parts.join('');
  if (whole.length <= MAX_WHOLE_BYTES) return whole;
  let kept = '';
  for (const part of parts) {
    if (kept.length + part.length > KEPT_BEFORE_DIGEST) break;
    kept += part;
  }
  // The digest of the UTF-16 code units: lone surrogates included, every string its own input.
  const digest = createHash('sha256').update(Buffer.from(agent, 'utf16le')).digest('hex');
  return `${kept}~${digest}`;
}
