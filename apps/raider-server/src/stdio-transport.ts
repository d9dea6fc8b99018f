/**
 * The SDK's stdio transport, writing what it sends as the SDK does (one line of JSON per message),
 * except that the JSON of a `todo` list is made once per version of the list, not once per answer.
 *
 * Every `todo` answer carries the whole list in `structuredContent.tasks` (rpiv-todo's contract):
 * 490 kB of JSON at 10 000 tasks, which `JSON.stringify` takes about 1.3 ms to make and the pipe
 * write as long again to encode. The list's array is immutable and shared by every answer while
 * the list is unchanged (`isImmutableTasks`), so its encoded JSON is kept by the array's identity
 * and spliced into the line. The bytes written are exactly `JSON.stringify(message) + '\n'`.
 */
import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isImmutableTasks } from '@raider/todo-tools';

/** Below this many tasks a list's JSON is made per answer: small, and not worth the splice. */
const SPLICE_FROM = 64;

/** Stands in for the list while the rest of the message is serialised; random, so no text holds it. */
const PLACEHOLDER = `raider-tasks-${randomUUID()}`;
const QUOTED_PLACEHOLDER = JSON.stringify(PLACEHOLDER);

/** The encoded JSON of each immutable list array seen, while the array lives. */
const encoded = new WeakMap<readonly unknown[], Buffer>();

type WithTasks = { result: { structuredContent: { tasks: readonly unknown[] } } };

/** The message's `result.structuredContent.tasks`, when it is a big immutable `todo` list. */
function bigImmutableTasks(message: JSONRPCMessage): readonly unknown[] | undefined {
  const tasks = (message as Partial<WithTasks>).result?.structuredContent?.tasks;
  return isImmutableTasks(tasks) && tasks.length >= SPLICE_FROM ? tasks : undefined;
}

/**
 * `JSON.stringify(message) + '\n'`, as a string or, for an answer that carries a big immutable
 * `todo` list, as the same bytes in a Buffer built around the list's JSON made once.
 */
export function messageLine(message: JSONRPCMessage): string | Buffer {
  const tasks = bigImmutableTasks(message);
  if (!tasks) return `${JSON.stringify(message)}\n`;
  let json = encoded.get(tasks);
  if (!json) {
    json = Buffer.from(JSON.stringify(tasks));
    encoded.set(tasks, json);
  }
  const { result } = message as unknown as WithTasks;
  // Spreads keep each key where it was, so the line is the message's own JSON with the placeholder
  // where the list goes.
  const line = `${JSON.stringify({
    ...message,
    result: { ...result, structuredContent: { ...result.structuredContent, tasks: PLACEHOLDER } },
  })}\n`;
  const at = line.indexOf(QUOTED_PLACEHOLDER);
  return Buffer.concat([
    Buffer.from(line.slice(0, at)),
    json,
    Buffer.from(line.slice(at + QUOTED_PLACEHOLDER.length)),
  ]);
}

/** `StdioServerTransport` that writes each message with `messageLine`. */
export class RaiderStdioTransport extends StdioServerTransport {
  readonly #out: Writable;

  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout) {
    super(stdin, stdout);
    this.#out = stdout;
  }

  /** Writes the message's line; resolves once written, or once the stream drains (as the SDK's). */
  override send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#out.write(messageLine(message))) resolve();
      else this.#out.once('drain', resolve);
    });
  }
}
