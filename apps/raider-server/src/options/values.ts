/**
 * How the command line's texts become values: each reader names the flag (or variable) it read in
 * the OptionsError it throws.
 */
import { readFileSync } from 'node:fs';
import { OptionsError } from '../errors.js';

/** `value` if it is one of `allowed`. @throws OptionsError naming `name` otherwise. */
export function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) {
    throw new OptionsError(`${name}: expected one of ${allowed.join(', ')}, received ${JSON.stringify(value)}`);
  }
  return value as T;
}

/** A whole number from `min` to `max` (digits only). @throws OptionsError naming `flagName` otherwise. */
export function integer(flagName: string, value: string, min: number, max: number): number {
  const parsed = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new OptionsError(
      `${flagName}: expected a whole number from ${min} to ${max}, received ${JSON.stringify(value)}`,
    );
  }
  return parsed;
}

/** A whole number of seconds from `min` to `max`, in ms. @throws OptionsError as integer does. */
export function seconds(flagName: string, value: string, min: number, max: number): number {
  return integer(flagName, value, min, max) * 1000;
}

/** 1/true/yes/on or 0/false/no/off (or empty), any case. @throws OptionsError naming `name` otherwise. */
export function bool(name: string, value: string): boolean {
  if (['1', 'true', 'yes', 'on'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off', ''].includes(value.toLowerCase())) return false;
  throw new OptionsError(`${name}: expected 1 or 0 (true or false), received ${JSON.stringify(value)}`);
}

/** A comma-separated list, each item trimmed, the empty ones dropped. */
export const commaList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Three quarters of this process's file descriptor limit (its soft limit, read from
 * /proc/self/limits on Linux; 1024 where it cannot be read), at most 4096 and at least 64.
 */
export function defaultMaxConnections(): number {
  let soft = 1024;
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const value = Number(line?.split(/\s{2,}/)[1]);
    if (Number.isSafeInteger(value) && value > 0) soft = value;
  } catch {
    // Not Linux: keep the common default.
  }
  return Math.max(64, Math.min(4096, Math.floor(soft * 0.75)));
}

/** True for 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}
