/**
 * Asking the client's user on the MCP TypeScript SDK v2, in the style of protocol revision
 * 2026-07-28: the tool returns `input_required` with the question's form, the client asks the
 * person and retries the call with the answer, and the retry reads it. Toward a 2025-era client
 * the SDK's legacy shim turns the same return into a real `elicitation/create` request and
 * re-enters the tool with the answer, so this is written once for both eras.
 */
import { createHash } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ElicitationForm, FormResponse } from '../core/elicitation-form.js';

/**
 * The key of a question among a round's `inputRequests`: `question@<when it was asked, in ms
 * since the epoch>`. The client answers under the same key, so the retry knows how long the
 * person took without any `requestState` (which a server's own `requestState.verify` hook would
 * refuse, not having minted it). Only a late answer rides on it: a client that lies about the
 * time gains nothing it could not have by answering at once.
 */
const QUESTION_KEY = /^question@(\d{1,15})$/;

/** The key a question asked at `askedAt` (ms since the epoch) goes out under. */
export function questionKey(askedAt: number): string {
  return `question@${askedAt}`;
}

/** The answer a retry carries: the person's response and when the question was asked. */
export type ClientAnswer =
  | { kind: 'form'; response: FormResponse; askedAt: number }
  | { kind: 'unreadable'; askedAt: number | undefined };

/**
 * The answer the retry of this call carries, or `undefined` on a first call (nothing under a
 * question key). A response that is not an elicitation result, or one the SDK dropped as
 * malformed, is `unreadable`.
 */
export function clientAnswer(ctx: ServerContext): ClientAnswer | undefined {
  const responses = ctx.mcpReq.inputResponses ?? {};
  for (const key of Object.keys(responses)) {
    const askedAt = QUESTION_KEY.exec(key)?.[1];
    if (askedAt === undefined) continue;
    const view = inputResponse(responses, key);
    if (view.kind !== 'elicit') return { kind: 'unreadable', askedAt: Number(askedAt) };
    return { kind: 'form', response: { action: view.action, content: view.content }, askedAt: Number(askedAt) };
  }
  if (ctx.mcpReq.droppedInputResponseKeys?.some((key) => QUESTION_KEY.test(key))) {
    return { kind: 'unreadable', askedAt: undefined };
  }
  return undefined;
}

/**
 * True when the request comes from a 2026-era client: the per-request `_meta` envelope is
 * required on that revision and absent from every conforming 2025-era request.
 */
export const isModernRequest = (ctx: ServerContext): boolean => ctx.mcpReq.envelope !== undefined;

/**
 * Whether the client can answer a form: the capabilities it declared on this request (2026
 * era) or at `initialize` (2025 era), as the SDK's own gate reads them; a bare `elicitation: {}`
 * is form elicitation, its meaning before modes existed.
 */
export function clientCanAnswerForms(server: Pick<Server, 'getClientCapabilities'>, ctx: ServerContext): boolean {
  // The envelope's keys are hidden from the SDK's public types (RequestMetaEnvelope is `{}`).
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared =
    (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ??
    // Deprecated for the 2026 era, where the envelope answers; the 2025 era's only source.
    server.getClientCapabilities();
  const elicitation = declared?.elicitation;
  if (!elicitation) return false;
  return elicitation.form !== undefined || Object.keys(elicitation).length === 0;
}

/**
 * What a signed `requestState` carries across the client (`AskToolsOptions.requestState`): when
 * the question was asked, and a digest of the tool and arguments it was asked for, so the retry's
 * answer is bound to its question and its lateness cannot be forged.
 */
export interface QuestionState {
  /** When the question was asked, in ms since the epoch. */
  askedAt: number;
  /** sha256 of the tool's name and its arguments' JSON, hex, first 32 characters. */
  asked: string;
}

/** The digest a QuestionState binds: the tool's name and the call's arguments. */
export function questionDigest(tool: string, args: unknown): string {
  return createHash('sha256')
    .update(`${tool}\0${JSON.stringify(args) ?? ''}`)
    .digest('hex')
    .slice(0, 32);
}

/** The `input_required` result that asks `form` of the client, under the key of `askedAt` (and with `requestState`, when given). */
export function askClient(form: ElicitationForm, askedAt: number, requestState?: string): InputRequiredResult {
  return inputRequired({
    inputRequests: {
      [questionKey(askedAt)]: inputRequired.elicit({
        mode: 'form',
        message: form.message,
        // The forms are flat objects of string and multiple-choice fields, as the wire wants them.
        requestedSchema: form.requestedSchema as ElicitRequestFormParams['requestedSchema'],
      }),
    },
    ...(requestState === undefined ? {} : { requestState }),
  });
}
