// The public surface is intentional: every name the package exports is one its README documents.
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('the package exports', () => {
  it('exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual(['hello']);
  });
});
