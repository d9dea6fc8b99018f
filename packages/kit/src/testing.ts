/**
 * Shared tests for every raider package: its coded errors and its intentional public surface.
 * Imported by the packages' own test files (never by their src), so it is never bundled.
 */
import { describe, expect, it } from 'vitest';
import { markError } from './coded-error.js';

/** A class made by `codedErrors`: a constructor with a static `isInstance`. */
export interface CodedErrorClass {
  // biome-ignore lint/suspicious/noExplicitAny: any error class, whatever its constructor takes.
  new (...args: any[]): Error;
  readonly name: string;
  isInstance(error: unknown): boolean;
}

/**
 * Registers the tests every coded error class passes: `throwIt` (a real call of the package that
 * fails) throws an instance with `code`; `isInstance` recognises it, refuses a plain Error, and
 * recognises an error marked by another copy of `packageName` (no shared class).
 */
export function describeCodedError(
  ErrorClass: CodedErrorClass,
  options: { packageName: string; code: string; throwIt: () => unknown },
): void {
  describe(`${ErrorClass.name}`, () => {
    it('is thrown with its stable code and recognised by isInstance', () => {
      let thrown: unknown;
      try {
        options.throwIt();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ErrorClass);
      expect((thrown as { code: unknown }).code).toBe(options.code);
      expect((thrown as Error).name).toBe(ErrorClass.name);
      expect(ErrorClass.isInstance(thrown)).toBe(true);
      expect(ErrorClass.isInstance(new Error('plain'))).toBe(false);
    });

    it('isInstance recognises one from another copy of the package, and no other code', () => {
      expect(ErrorClass.isInstance(markError(new Error('elsewhere'), options.packageName, options.code))).toBe(true);
      expect(ErrorClass.isInstance(markError(new Error('elsewhere'), options.packageName, 'OTHER_CODE'))).toBe(false);
      expect(ErrorClass.isInstance(markError(new Error('elsewhere'), '@raider/other', options.code))).toBe(false);
    });
  });
}

/**
 * Registers the test that pins a package's public surface: `api` (its index module) exports
 * exactly `names`. A new export fails it until it is added on purpose (and to the README).
 */
export function describeExports(api: Record<string, unknown>, names: readonly string[]): void {
  describe('the package exports', () => {
    it('exactly the documented names', () => {
      expect(Object.keys(api).sort()).toEqual([...names].sort());
    });
  });
}
