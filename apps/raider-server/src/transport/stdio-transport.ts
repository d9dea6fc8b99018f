/**
 * The SDK's (v2) stdio transport, writing what it sends as the SDK does (one line of JSON per message),
 * except that the JSON of a `todo` list read again unchanged is made once, not once per answer.
 *
 * Every `todo` answer carries the whole list in `structuredContent.tasks` (rpiv-todo's contract):
 * 490 kB of JSON at 10 000 tasks, which `JSON.stringify` takes about 1.3 ms to make and the pipe
 * write as long again to encode. The list's array is immutable and shared by every answer while
 * the list is unchanged (`isImmutableTodoTasks`), so from its second answer on its UTF-8 JSON is kept
 * by the array's identity and written between the text before and after it. The bytes written are
 * exactly `JSON.stringify(message) + '\n'`.
 *
 * What it reads goes through a `LineGate` first: a line that nests deeper than `MAX_MESSAGE_DEPTH`
 * never reaches the SDK's reader (whose zod validation walks it) and is answered with a JSON-RPC
 * error line; the transport reads on.
 */
import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { isImmutableTodoTasks } from '@raider/todo-tools/internal';
import { LineGate } from './line-gate.js';

/**
 * The longest line read, in bytes: the SDK's own default (10 MiB), set here so the gate and the
 * SDK's reader agree on it.
 */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** Below this many tasks a list's JSON is made per answer: small, and not worth the splice. */
const SPLICE_FROM = 64;

/** Stands in for the list while the rest of the message is serialised; random, so no text holds it. */
const PLACEHOLDER = `raider-tasks-${randomUUID()}`;
const QUOTED_PLACEHOLDER = JSON.stringify(PLACEHOLDER);

/**
 * The lists sent, each with its UTF-8 JSON once it was sent a second time, while the list's array
 * lives. A list sent again is being read while unchanged (a client polling, a get after a get), so
 * from then on its bytes are kept. A list sent only once (every change makes a new one) is
 * serialised as any message is, and nothing of it outlives the write: keeping each version's JSON
 * would only have the garbage collector copy and promote it. A cache of immutable values by their
 * frozen array, holding nothing of a server, so it lives at module level.
 */
const sent = new WeakMap<readonly unknown[], Buffer | undefined>();

type WithTasks = { result: { structuredContent: { tasks: readonly unknown[] } } };

/** The message's `result.structuredContent.tasks`, when it is a big immutable `todo` list. */
function bigImmutableTasks(message: JSONRPCMessage): readonly unknown[] | undefined {
  const tasks = (message as Partial<WithTasks>).result?.structuredContent?.tasks;
  return isImmutableTodoTasks(tasks) && tasks.length >= SPLICE_FROM ? tasks : undefined;
}

/** The message's line, without its list: the text before the list and the text after it. */
function around(message: JSONRPCMessage): [string, string] {
  const { result } = message as unknown as WithTasks;
  // Spreads keep each key where it was, so this is the message's own JSON with the placeholder
  // where the list goes.
  const line = `${JSON.stringify({
    ...message,
    result: { ...result, structuredContent: { ...result.structuredContent, tasks: PLACEHOLDER } },
  })}\n`;
  const at = line.indexOf(QUOTED_PLACEHOLDER);
  return [line.slice(0, at), line.slice(at + QUOTED_PLACEHOLDER.length)];
}

/**
 * `JSON.stringify(message) + '\n'` in the pieces to write, one after the other: the line itself,
 * or, for an answer that carries a big immutable `todo` list sent before, the text before the list,
 * the list's bytes made once, and the text after it (written together, not copied into one new
 * buffer: a fresh 490 kB buffer per answer would only make work for the garbage collector).
 */
export function messageLine(message: JSONRPCMessage): (string | Buffer)[] {
  const tasks = bigImmutableTasks(message);
  if (!tasks || !sent.has(tasks)) {
    if (tasks) sent.set(tasks, undefined);
    return [`${JSON.stringify(message)}\n`];
  }
  let bytes = sent.get(tasks);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(tasks));
    sent.set(tasks, bytes);
  }
  const [head, tail] = around(message);
  return [head, bytes, tail];
}

/**
 * `StdioServerTransport` that writes each message with `messageLine`, and answers a line that
 * nests too deep itself (`LineGate`). Whoever owns it hears when it closed and why it failed
 * through the tap in front of it (transport-tap.ts: `whenClosed`, `onFailure`).
 */
export class RaiderStdioTransport extends StdioServerTransport {
  readonly #out: Writable;
  readonly #gate: LineGate;

  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout) {
    super(stdin, stdout, { maxBufferSize: MAX_LINE_BYTES });
    this.#out = stdout;
    // The SDK's reader of stdin's chunks (a public field, which start() listens with and close()
    // removes), overridden as a subclass may: the gate takes the chunks first and hands the SDK's
    // reader whole lines within the limit.
    const sdkReader = this._ondata;
    this.#gate = new LineGate(MAX_LINE_BYTES, {
      pass: sdkReader,
      // Written past the tap: a refused message was never a request in flight, and its id may be
      // one a call in flight has (the tap would take this answer for that call's).
      refuse: (answer) => void this.#write(answer as JSONRPCMessage).catch(() => {}),
    });
    this._ondata = (chunk) => {
      try {
        this.#gate.take(chunk);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    };
  }

  /** Stops reading, and forgets a line begun. */
  override async close(): Promise<void> {
    this.#gate.clear();
    await super.close();
  }

  /** Writes the message's line; resolves once written, or once the stream drains (as the SDK's). */
  override send(message: JSONRPCMessage): Promise<void> {
    return this.#write(message);
  }

  /** `send`'s writing, which an owner's wrapper of `send` (the tap) does not see. */
  #write(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      const pieces = messageLine(message);
      const out = this.#out;
      // Several pieces go out in one write (writev) once uncorked.
      if (pieces.length > 1) out.cork();
      let flowing = true;
      for (const piece of pieces) flowing = out.write(piece);
      if (pieces.length > 1) out.uncork();
      if (flowing) resolve();
      else out.once('drain', resolve);
    });
  }
}
