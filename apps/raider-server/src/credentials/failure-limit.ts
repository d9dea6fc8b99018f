/**
 * The limit on refused credentials (issue 38): an address that keeps presenting wrong tokens is
 * answered 429 for a while, so a token cannot be guessed at the speed of the network. Per address,
 * so an agent with a wrong token does not lock the others out.
 */

/** What a limiter is built with. */
export interface FailureLimiterOptions {
  /** Refusals within the window that block an address (default 50). */
  max?: number;
  /** The window, in ms (default 60 000). */
  windowMs?: number;
  /** Addresses tracked at most (default 10 000): past it, the one seen longest ago is forgotten. */
  maxAddresses?: number;
  /** The clock, in ms (default Date.now); tests pass a fake one. */
  now?: () => number;
}

/** A positive whole number option, checked. @throws RangeError */
function whole(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(
      `FailureLimiter: expected ${name} to be a whole number of at least 1, received ${String(value)}`,
    );
  }
  return value;
}

/**
 * Counts refused credentials per client address: after `max` (default 50) refusals within
 * `windowMs` (default 60 000) from one address, that address is blocked until its oldest refusal
 * in the window leaves it; other addresses are not affected. Memory is bounded: at most
 * `maxAddresses` (default 10 000) addresses are tracked (the one seen longest ago goes first);
 * each address keeps at most `max` timestamps.
 */
export class FailureLimiter {
  readonly #max: number;
  readonly #windowMs: number;
  readonly #maxAddresses: number;
  readonly #now: () => number;
  // Each address's refusals in the window, oldest first. A Map keeps insertion order: an address
  // is moved to the end at each refusal, so the first key is the one seen longest ago.
  readonly #refusals = new Map<string, number[]>();

  /** @throws RangeError for a max, windowMs or maxAddresses that is not a whole number of at least 1 */
  constructor(options: FailureLimiterOptions = {}) {
    this.#max = whole('max', options.max, 50);
    this.#windowMs = whole('windowMs', options.windowMs, 60_000);
    this.#maxAddresses = whole('maxAddresses', options.maxAddresses, 10_000);
    this.#now = options.now ?? Date.now;
  }

  /** The refusals of `address` still in the window at `now` (older ones dropped), or undefined. */
  #inWindow(address: string, now: number): number[] | undefined {
    const times = this.#refusals.get(address);
    if (times === undefined) return undefined;
    const start = now - this.#windowMs;
    let gone = 0;
    while (gone < times.length && (times[gone] as number) <= start) gone += 1;
    if (gone > 0) times.splice(0, gone);
    if (times.length === 0) {
      this.#refusals.delete(address);
      return undefined;
    }
    return times;
  }

  /** Seconds until `address` may try again (at least 1), or undefined when it is not blocked. */
  retryAfter(address: string): number | undefined {
    const now = this.#now();
    const times = this.#inWindow(address, now);
    if (times === undefined || times.length < this.#max) return undefined;
    const until = (times[0] as number) + this.#windowMs;
    return Math.max(1, Math.ceil((until - now) / 1000));
  }

  /** Records one refused credential from `address`. */
  fail(address: string): void {
    const now = this.#now();
    const times = this.#inWindow(address, now) ?? [];
    times.push(now);
    if (times.length > this.#max) times.splice(0, times.length - this.#max);
    this.#refusals.delete(address);
    this.#refusals.set(address, times);
    while (this.#refusals.size > this.#maxAddresses) {
      const oldest = this.#refusals.keys().next().value as string;
      this.#refusals.delete(oldest);
    }
  }

  /** How many addresses are tracked now: for the test of the address cap. */
  get trackedAddressesForTests(): number {
    return this.#refusals.size;
  }
}
