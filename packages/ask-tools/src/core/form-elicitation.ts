/**
 * The elicitation answerer's asker, the same on both SDKs: ask_user's question, or
 * AskUserQuestion's questions, sent as one form through the adapter's `elicitInput`, related to
 * the tool call, with the call's signal and the answerer's timeout. An adapter says only how to
 * send a request with its SDK and which of its SDK's errors mean a timeout or a closed connection.
 */
import { ASK_USER } from './ask-user.js';
import { ASK_USER_QUESTION } from './ask-user-question.js';
import { callContext } from './context.js';
import { acceptedForm, type ElicitationForm, type FormResponse } from './elicitation-form.js';
import { AskError } from './errors.js';
import type { Asker } from './types.js';

/** One form request as the asker hands it to the adapter: the request's params and its options. */
export interface FormRequest {
  params: { mode: 'form'; message: string; requestedSchema: ElicitationForm['requestedSchema'] };
  /** The answerer's timeout, the call's signal, and the tools/call request the form belongs to (when known). */
  options: { timeout: number; signal: AbortSignal; relatedRequestId?: string | number };
}

/** How an adapter elicits with its SDK. */
export interface FormElicitation {
  /** Sends `request` with the SDK's `elicitInput`; resolves to the client's answer (an action and content). */
  elicitInput(request: FormRequest): Promise<unknown>;
  /** What an error of `elicitInput` means: its SDK's timeout, its closed connection, or neither (undefined). */
  failure(error: unknown): 'timeout' | 'disconnected' | undefined;
}

/**
 * The asker that puts questions to the client's user through `elicitation`, each call one form,
 * waiting up to `timeout` ms. Outcomes: the answer read from the accepted form; AskErrors for a
 * declined or dismissed form (`declined`, `cancelled`), a timeout and a closed connection
 * (`timeout`, `disconnected`); any other error, or any error once the call's signal aborted, as
 * it came.
 */
export function formAsker(elicitation: FormElicitation, timeout: number): Asker {
  const asker: Asker = async (question, choices, signal) => {
    const input = { question, options: choices };
    return ASK_USER.read(input, await elicit(elicitation, ASK_USER.form(input), signal, timeout));
  };
  asker.form = async (questions, signal) => {
    const input = { questions };
    return ASK_USER_QUESTION.read(input, await elicit(elicitation, ASK_USER_QUESTION.form(input), signal, timeout));
  };
  return asker;
}

/** Sends one form and maps every outcome that is not an accepted form to an AskError. */
async function elicit(
  elicitation: FormElicitation,
  form: ElicitationForm,
  signal: AbortSignal,
  timeout: number,
): Promise<Record<string, unknown>> {
  const relatedRequestId = callContext.getStore()?.requestId;
  let result: unknown;
  try {
    result = await elicitation.elicitInput({
      params: { mode: 'form', message: form.message, requestedSchema: form.requestedSchema },
      options: { timeout, signal, ...(relatedRequestId !== undefined ? { relatedRequestId } : {}) },
    });
  } catch (error) {
    if (signal.aborted) throw error;
    const failure = elicitation.failure(error);
    if (failure) throw new AskError(failure);
    throw error;
  }
  return acceptedForm(result as FormResponse);
}
