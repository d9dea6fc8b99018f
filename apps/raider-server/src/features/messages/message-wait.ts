/**
 * wait_for_messages at work: a take of what waits for an agent, else a wait for the first message
 * (to timeoutSeconds, or the call's deadline first), and the hand-on of what was taken: removed
 * (`done`) once the answer carrying it was written, given back (`release`) when it could not be.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { received } from '@raider/kit/received';
import type { MessageDelivery, MessageStore } from '@raider/tasks-registry';
import type { ToolCallResult } from '@raider/todo-tools/v2';
import type { CallContext } from '../../conversation/call-pipeline.js';
import type { Logger } from '../../log.js';
import type { AnswerWatch } from '../../transport/answer-watch.js';
import { deliveryText, NO_MESSAGES_YET } from './message-texts.js';
import { MAX_WAIT_SECONDS, refusal, text, unknownArgument } from './message-tools.js';

/** How long a take reserves what it takes: time enough to hand the answer on. */
export const DELIVERY_LEASE_MS = 30_000;

/** How often a waiting wait_for_messages looks again when no watch woke it (a watch can miss). */
const LOOK_AGAIN_MS = 5_000;

/**
 * How long after a failed `done` or `release` it is tried again, while the take's lease holds. A
 * store down for a moment (a database restarting) must not leave the messages of an answer
 * already written reserved: once the lease lapsed they would be taken again, a duplicate.
 */
const SETTLE_RETRY_MS = 1_000;

/** What a wait reads and tells. */
export interface WaitInboxes {
  store(): MessageStore;
  log: Logger;
  /** Told after a take took messages of `agent`. */
  taken(agent: string): void;
}

/** Removes (written) or gives back (not) what `delivery` took, tried again while its lease holds. */
async function settle(delivery: MessageDelivery, written: boolean, lapses: number, log: Logger): Promise<void> {
  const what = written ? 'removed' : 'given back';
  for (;;) {
    try {
      await (written ? delivery.done() : delivery.release());
      return;
    } catch (error) {
      if (Date.now() + SETTLE_RETRY_MS >= lapses) {
        log.warn(`messages taken could not be ${what}: ${(error as Error).message}`);
        return;
      }
      log.debug(`messages taken could not be ${what} yet (tried again): ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_RETRY_MS).unref());
    }
  }
}

/** Hands `delivery` on with the answer of the call `ctx`: done once it was written, released if not. */
export function handOn(
  delivery: MessageDelivery,
  ctx: ServerContext,
  answers: AnswerWatch | undefined,
  log: Logger,
): ToolCallResult {
  // The store may be down for a moment (a database restarting): tried again while the lease
  // holds. Past it another take may have the messages already, and trying is pointless.
  const lapses = Date.now() + DELIVERY_LEASE_MS;
  const settled = (written: boolean) => settle(delivery, written, lapses, log);
  if (answers) void answers.answered(ctx.mcpReq.id, ctx.mcpReq.signal).then(settled);
  else setImmediate(() => void settled(!ctx.mcpReq.signal.aborted));
  return text(deliveryText(delivery.messages));
}

/** Resolves after `ms`, when the signal aborts, or when `setWake`'s function is called, whichever is first. */
function sleep(ms: number, signal: AbortSignal, setWake: (wake: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    setWake(done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The seconds wait_for_messages' `args` ask for, or the refusal of its arguments. */
function waitSeconds(args: Record<string, unknown>): number | ToolCallResult {
  const unknown = unknownArgument(args, ['timeoutSeconds']);
  if (unknown) return refusal(unknown);
  const seconds = args.timeoutSeconds ?? MAX_WAIT_SECONDS;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_WAIT_SECONDS) {
    return refusal(`timeoutSeconds: expected a number from 0 to ${MAX_WAIT_SECONDS}, received ${received(seconds)}`);
  }
  return seconds;
}

/** What a wait reads of its call: the SDK's context, word of its answer, its deadline (CallContext). */
export type WaitCall = Pick<CallContext, 'request' | 'answers' | 'deadlineMs'>;

/** wait_for_messages for `agent`: what waits, else the first message to come before the wait ends. */
export async function waitForMessages(
  inbox: WaitInboxes,
  agent: string,
  args: Record<string, unknown>,
  call: WaitCall,
): Promise<ToolCallResult> {
  const seconds = waitSeconds(args);
  if (typeof seconds !== 'number') return seconds;
  const ctx = call.request;
  const signal = ctx.mcpReq.signal;
  // The call's deadline (issue 28) may come before timeoutSeconds: then it answers "No messages yet".
  const cutMs = call.deadlineMs;
  const cut = cutMs < seconds * 1000;
  const deadline = Date.now() + Math.min(seconds * 1000, cutMs);
  let arrived = false;
  let wake = () => {};
  // Watched before each take, so a message sent between a take and the wait is not missed.
  const stop = inbox.store().watch(agent, () => {
    arrived = true;
    wake();
  });
  try {
    for (;;) {
      arrived = false;
      let delivery: MessageDelivery;
      try {
        delivery = await inbox.store().take(agent, { leaseMs: DELIVERY_LEASE_MS });
      } catch (error) {
        return refusal(`the messages could not be read: ${(error as Error).message}; none was taken`);
      }
      if (delivery.messages.length > 0) {
        inbox.taken(agent);
        if (!signal.aborted) return handOn(delivery, ctx, call.answers, inbox.log);
        await delivery.release().catch(() => {});
      }
      const left = deadline - Date.now();
      if (left <= 0 || signal.aborted) return text(cut && !signal.aborted ? NO_MESSAGES_YET : deliveryText([]));
      if (arrived) continue;
      await sleep(Math.min(left, LOOK_AGAIN_MS), signal, (done) => {
        wake = done;
      });
      wake = () => {};
    }
  } finally {
    stop();
  }
}
