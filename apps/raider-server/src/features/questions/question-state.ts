/**
 * The key that signs what a question carries across a 2026-era client (`requestState`: when it was
 * asked, which call asked it): `--state-secret` / RAIDER_STATE_SECRET when given, which replicas
 * behind a balancer share so any of them takes another's retry; else a key made once per process.
 */
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';
import type { QuestionState } from '@raider/ask-tools/v2';

/** Made once: the key of a process that was given none. */
const processKey = randomBytes(32);
const codecs = new Map<string, RequestStateCodec<QuestionState>>();
let processCodec: RequestStateCodec<QuestionState> | undefined;

/**
 * The codec for `secret` (the process's own key without one), made once per secret. Its state
 * lives as long as a question may wait (the tools answer a late one with the timed-out result).
 */
export function questionStateCodec(secret: string | undefined, askTimeoutMs: number): RequestStateCodec<QuestionState> {
  // The codec's own expiry is a backstop past the question's timeout, which the tools check.
  const ttlSeconds = Math.ceil(askTimeoutMs / 1000) + 3600;
  if (secret === undefined) {
    processCodec ??= createRequestStateCodec<QuestionState>({ key: processKey, ttlSeconds });
    return processCodec;
  }
  const key = `${ttlSeconds}:${secret}`;
  let codec = codecs.get(key);
  if (!codec) {
    codec = createRequestStateCodec<QuestionState>({ key: secret, ttlSeconds });
    codecs.set(key, codec);
  }
  return codec;
}
