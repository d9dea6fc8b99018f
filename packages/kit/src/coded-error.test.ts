import { describe, expect, it } from 'vitest';
import { codedErrors, errorMark, markError } from './coded-error.js';
import { describeCodedError, describeExports } from './testing.js';

const coded = codedErrors('@raider/example');
class ExampleRangeError extends coded(RangeError, 'OUT_OF_RANGE', 'ExampleRangeError') {}
class ExampleOtherError extends coded(Error, 'OTHER', 'ExampleOtherError') {
  readonly extra: number;
  constructor(message: string, extra: number) {
    super(message);
    this.extra = extra;
  }
}

describe('codedErrors', () => {
  it('makes a subclass of the base with code, name, message and its own fields', () => {
    const error = new ExampleOtherError('what went wrong', 7);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('what went wrong');
    expect(error.name).toBe('ExampleOtherError');
    expect(error.code).toBe('OTHER');
    expect(error.extra).toBe(7);
    expect(new ExampleRangeError('x')).toBeInstanceOf(RangeError);
  });

  it('tells the classes of one package apart', () => {
    expect(ExampleRangeError.isInstance(new ExampleOtherError('x', 1))).toBe(false);
    expect(ExampleOtherError.isInstance(new ExampleOtherError('x', 1))).toBe(true);
    expect(ExampleOtherError.isInstance('OTHER')).toBe(false);
    expect(ExampleOtherError.isInstance(null)).toBe(false);
  });

  it('marks as package:code', () => {
    expect(errorMark('@raider/example', 'OTHER')).toBe('@raider/example:OTHER');
    expect(ExampleOtherError.isInstance(markError(new Error('y'), '@raider/example', 'OTHER'))).toBe(true);
  });
});

describeCodedError(ExampleRangeError, {
  packageName: '@raider/example',
  code: 'OUT_OF_RANGE',
  throwIt: () => {
    throw new ExampleRangeError('out');
  },
});

describeExports({ codedErrors, errorMark, markError }, ['codedErrors', 'errorMark', 'markError']);
