// The public surface is intentional: every name the package exports is one its README documents.
// A new export fails this test until it is added here on purpose (and to the README).
import { describe, expect, it } from 'vitest';
import * as server from '../src/index.js';

describe('@raider/server exports', () => {
  it('exactly the documented names', () => {
    expect(Object.keys(server).sort()).toEqual(
      ['OptionsError', 'createConversation', 'createLogger', 'readOptions', 'startHttp', 'startStdio'].sort(),
    );
  });
});
