/** Printing a readable transcript: colour only on a TTY, and never when NO_COLOR is set. */

/** Writes lines, with colour helpers that are plain text when colour is off. */
export interface Printer {
  line(text?: string): void;
  green(text: string): string;
  red(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

/** A printer for `stream` (default stdout). */
export function printer(stream: NodeJS.WriteStream = process.stdout, env = process.env): Printer {
  const colour = Boolean(stream.isTTY) && env.NO_COLOR === undefined;
  const wrap = (open: number, close: number) => (text: string) =>
    colour ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    line: (text = '') => {
      stream.write(`${text}\n`);
    },
    green: wrap(32, 39),
    red: wrap(31, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}

/** Shortens a text for one transcript line. */
export function clip(text: string, max = 100): string {
  const flat = text.replace(/\n/g, '⏎');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
