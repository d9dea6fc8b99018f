import { describe, expect, it } from 'vitest';
import { hello } from './hello.js';

describe('hello', () => {
  it('greets by name', () => {
    expect(hello('raider')).toBe('Hello, raider');
  });
});
