/**
 * The key that signs what a question carries across a 2026-era client (`requestState`: when it was
 * asked, which call asked it): `--state-secret` / RAIDER_STATE_SECRET when given, which replicas
 * behind a balancer share so any of them takes another's retry; else a key made once per server.
 */
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';
import type { QuestionState } from '@raider/ask-tools/v2';

/**
 * The codecs of one server (its runtime): one per secret, and one with a key of the server's own
 * for a server given none, made once. Replicas given the same secret take each other's retries; a
 * server without one refuses every other server's.
 */
export class StateCodecs {
  /** The key of a server that was given none. */
  private readonly ownKey = randomBytes(32);
  private readonly codecs = new Map<string, RequestStateCodec<QuestionState>>();
  private ownCodec: RequestStateCodec<QuestionState> | undefined;

  /**
   * The codec for `secret` (the server's own key without one), made once per secret. Its state
   * lives as long as a question may wait (the tools answer a late one with the timed-out result).
   */
  codec(secret: string | undefined, askTimeoutMs: number): RequestStateCodec<QuestionState> {
    // The codec's own expiry is a backstop past the question's timeout, which the tools check.
    const ttlSeconds = Math.ceil(askTimeoutMs / 1000) + 3600;
    if (secret === undefined) {
      this.ownCodec ??= createRequestStateCodec<QuestionState>({ key: this.ownKey, ttlSeconds });
      return this.ownCodec;
    }
    const key = `${ttlSeconds}:${secret}`;
    let codec = this.codecs.get(key);
    if (!codec) {
      codec = createRequestStateCodec<QuestionState>({ key: secret, ttlSeconds });
      this.codecs.set(key, codec);
    }
    return codec;
  }
}
