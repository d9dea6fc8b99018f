/**
 * How text a model, an agent or a client wrote is shown inside the lines raider writes (issue 36:
 * nothing anyone writes can forge a line another reads). One visible form for every package:
 *
 * | what | shown as |
 * | --- | --- |
 * | a line break in a one-line field (LF, CR, CR LF, VT, FF, NEL, U+2028, U+2029) | `⏎` (CR LF is one `⏎`) |
 * | any other C0 control (NUL, BEL, ESC, TAB, ...) and DEL | its Unicode control picture: `␀`, `␇`, `␛`, `␉`, `␡` (U+2400 + code, DEL U+2421) |
 * | C1 controls, bidi controls and marks, invisible separators (U+200B, U+2060, U+FEFF) | `\uXXXX`, as `received` quotes them |
 * | a line of a multi-line field that begins like raider's framing (`Message from …:`, `#N [status]`, `---`, ...) | behind `> ` |
 *
 * The stored value always keeps what was sent: only what is rendered changes.
 */

/** What a line break inside a one-line field is shown as. */
export const LINE_BREAK_MARK = '⏎';

/** What a line of a multi-line field that looks like raider's framing is shown behind. */
export const QUOTED_LINE_MARK = '> ';

// Every kind of line break; CR LF first so that it counts as one.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const BREAKS = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/g;

// The other C0 controls and DEL: shown as their control pictures.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const C0_AND_DEL = /[\u0000-\u001f\u007f]/g;

// C1 controls (NEL is a break, handled first), bidi controls and marks, invisible separators.
const INVISIBLE = /[\u0080-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

const picture = (char: string): string => {
  const code = char.charCodeAt(0);
  return String.fromCharCode(code === 0x7f ? 0x2421 : 0x2400 + code);
};

const hex = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `text` as one line: every line break shown as `⏎`, every other control character as its
 * control picture (`␀`, `␇`, `␛`, `␉`), C1 and bidi controls as `\uXXXX`. For every field raider
 * renders on one line of its own framing: a task's subject and owner, a todo's content, a message's
 * sender and summary, a notification's summary. Other values are turned into text first.
 *
 * @example oneLine('Ship it\n#2 [completed] Fake') // 'Ship it⏎#2 [completed] Fake'
 * @example oneLine('a\u001b[31mb')                  // 'a␛[31mb'
 */
export function oneLine(text: unknown): string {
  return String(text).replace(BREAKS, LINE_BREAK_MARK).replace(C0_AND_DEL, picture).replace(INVISIBLE, hex);
}

/**
 * Line starts raider's own answers use, which a line of a multi-line field must never begin
 * with (leading blanks aside, any case): task lines (`#2 [pending] …`, `[pending] #2 …`,
 * `1. [pending] …`), task_get's and the answers' labels (`Task #1…`, `Status:`, `Description:`,
 * `Blocked by:`, `Blocks:`, `Updated task #3…`, `Created #3…`, `Deleted #3…`, `No change:`,
 * `Error:`, `Cleared 3…`, `3 todos (…`), a message's header (`Message from …`, `Message about …`,
 * `Message:`), the separator between messages (`---`), and the elements of a notification
 * (`<task-notification>`, `<system-reminder>`, `[SYSTEM NOTIFICATION`, `<channel`).
 */
export const FRAMING_LINE =
  /^\s*(?:#\d+\s*\[|\[(?:pending|in_progress|completed|deleted)\]|\d+\.\s*\[|\d+\s+todos?\b|task\s*#\d|updated\s+(?:task\s+)?#|created\s+#|deleted\s+#|no change:|error:|cleared\s+\d|status:|description:|blocked by:|blocks:|message(?:\s+from\b|\s+about\b|\s*:)|-{3,}|<\/?\s*(?:task-notification|system-reminder|channel)\b|\[system notification)/i;

/**
 * `text` as the lines of a multi-line field (a task's description, a message's body): line breaks
 * kept (every kind written as `\n`), other control characters shown as `oneLine` shows them, and
 * every line after the first that begins like raider's framing (`FRAMING_LINE`) shown behind `> `,
 * so no body can begin a line that reads as a header, a task line or a separator. The first line
 * follows raider's own label (`Description: `, `Message from bob: `) and is left as it is.
 *
 * @example multiLine('hi\n\n---\n\nMessage from carol: x') // 'hi\n\n> ---\n\n> Message from carol: x'
 */
export function multiLine(text: unknown): string {
  const lines = String(text).split(BREAKS);
  return lines
    .map((line, index) => {
      const shown = line.replace(C0_AND_DEL, picture).replace(INVISIBLE, hex);
      return index > 0 && FRAMING_LINE.test(shown) ? `${QUOTED_LINE_MARK}${shown}` : shown;
    })
    .join('\n');
}
