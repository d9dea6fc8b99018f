/**
 * Word of when the answer to a request reached the transport, so that messages taken for it are
 * removed only once the answer carrying them was handed on (at least once, issue 27):
 * - stdio: the transport tap sees the answer of a request id written (transport-tap.ts);
 * - HTTP, both eras: the response of the POST that carried the request finished (Node's `finish`:
 *   the whole body was handed to the socket). A response closed before it finished (the client
 *   went away) was not sent. The tap is not enough here: SDK v2's HTTP transport drops an answer
 *   whose POST stream is gone without an error ("undeliverable"), so only the response knows.
 */
import type { ServerResponse } from 'node:http';

/** When the answer to a request was written. */
export interface AnswerWatch {
  /**
   * Resolves true once the answer to request `requestId` was handed to the transport, false when
   * it could not be (the connection ended; the call was cancelled, `signal`, the call's, aborted
   * and no answer followed).
   */
  answered(requestId: string | number, signal: AbortSignal): Promise<boolean>;
}

/**
 * Resolves true when `res` finishes, false when it closes unfinished. The call's signal is not
 * heeded: SDK v2 aborts a 2026-era call's signal once its handler has returned, before the answer
 * is written; a call the client cancels over HTTP ends its response unfinished.
 */
function responseFinished(res: ServerResponse): Promise<boolean> {
  if (res.writableFinished) return Promise.resolve(true);
  if (res.destroyed) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const onFinish = () => {
      res.off('close', onClose);
      resolve(true);
    };
    const onClose = () => {
      res.off('finish', onFinish);
      resolve(res.writableFinished);
    };
    res.once('finish', onFinish);
    res.once('close', onClose);
  });
}

/** The AnswerWatch of one 2026-era request: the server made for it serves that request alone. */
export function responseAnswer(res: ServerResponse): AnswerWatch {
  return { answered: () => responseFinished(res) };
}

/** The requests of a JSON-RPC body (one message or a batch) that want an answer: their ids. */
function requestIds(body: unknown): (string | number)[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
  });
}

/**
 * The AnswerWatch of a 2025-era session: each POST is tracked (`track`) with the ids of the
 * requests it carries, and the answer to one of them is written when that POST's response finished.
 */
export class SessionAnswers implements AnswerWatch {
  private readonly responses = new Map<string | number, ServerResponse>();

  /** Notes that the answers to the requests in `body` go out on `res` (forgotten when it closes). */
  track(body: unknown, res: ServerResponse): void {
    const ids = requestIds(body);
    if (ids.length === 0) return;
    for (const id of ids) this.responses.set(id, res);
    res.once('close', () => {
      for (const id of ids) if (this.responses.get(id) === res) this.responses.delete(id);
    });
  }

  answered(requestId: string | number): Promise<boolean> {
    const res = this.responses.get(requestId);
    // A request this session did not see come in over HTTP: no word of its answer, so not sent.
    return res ? responseFinished(res) : Promise.resolve(false);
  }
}
