/**
 * The gate between stdin and the SDK's stdio reader: it hands on whole lines (one JSON-RPC
 * message each) and keeps back the ones that nest too deep. The SDK's reader parses a line and
 * validates it with zod in one step, so the line's text is the one place a message can be
 * measured before anything walks it.
 */
import { type TooDeepAnswer, tooDeepAnswer } from '../message-depth.js';

const NEWLINE = 0x0a;

/** Where the gate sends what it read. */
export interface LineGateOutlets {
  /** Takes bytes holding whole lines, each within the depth limit, in the order they came. */
  pass(bytes: Buffer): void;
  /** Takes the JSON-RPC error that answers a line that nests too deep (the line itself is dropped). */
  refuse(answer: TooDeepAnswer): void;
}

/**
 * Splits the bytes read from stdin into lines and judges each with `tooDeepAnswer` once it is
 * whole: a line within the limit is passed on (a run of them in one piece), a deeper one is
 * dropped and its answer refused. A line that grows past `maxLineBytes` before its newline is
 * passed on unjudged, so the SDK's reader refuses it with its own error ("ReadBuffer exceeded
 * maximum size"), as it would without the gate: what the gate holds stays bounded.
 *
 * @example
 * const gate = new LineGate(10 * 1024 * 1024, { pass: (bytes) => sdkOnData(bytes), refuse: (answer) => write(answer) });
 * stdin.on('data', (chunk) => gate.take(chunk));
 */
export class LineGate {
  /** The start of a line whose newline has not come yet. */
  #held: Buffer[] = [];
  #heldBytes = 0;

  constructor(
    private readonly maxLineBytes: number,
    private readonly outlets: LineGateOutlets,
  ) {}

  /** Takes the next chunk read. */
  take(chunk: Buffer): void {
    if (chunk.indexOf(NEWLINE) === -1) {
      this.#hold(chunk);
      return;
    }
    const bytes = this.#held.length > 0 ? Buffer.concat([...this.#held, chunk]) : chunk;
    this.clear();
    // The start of the lines judged fine and not passed on yet.
    let run = 0;
    let at = 0;
    for (let newline = bytes.indexOf(NEWLINE); newline !== -1; newline = bytes.indexOf(NEWLINE, at)) {
      const answer = tooDeepAnswer(bytes.toString('utf8', at, newline));
      if (answer) {
        // The lines before it first: they are answered in the order they came.
        if (run < at) this.outlets.pass(bytes.subarray(run, at));
        this.outlets.refuse(answer);
        run = newline + 1;
      }
      at = newline + 1;
    }
    if (run < at) this.outlets.pass(bytes.subarray(run, at));
    if (at < bytes.length) this.#hold(bytes.subarray(at));
  }

  /** Forgets the line begun (the transport closed). */
  clear(): void {
    this.#held = [];
    this.#heldBytes = 0;
  }

  #hold(bytes: Buffer): void {
    this.#held.push(bytes);
    this.#heldBytes += bytes.length;
    if (this.#heldBytes <= this.maxLineBytes) return;
    const line = Buffer.concat(this.#held);
    this.clear();
    this.outlets.pass(line);
  }
}
