// The X-Raider-List header's one reading, in milliseconds (the HTTP server's use of it: http.test.ts).
import { describe, expect, it } from 'vitest';
import { listFromHeader } from './list-header.js';

describe('listFromHeader', () => {
  it('percent-decodes the name; plain ASCII names are themselves', () => {
    expect(listFromHeader('team%20%CE%B2')).toEqual({ listId: 'team β' });
    expect(listFromHeader('team%20%ce%b2')).toEqual({ listId: 'team β' });
    expect(listFromHeader('team')).toEqual({ listId: 'team' });
    expect(listFromHeader('my list')).toEqual({ listId: 'my list' });
    expect(listFromHeader('100%25')).toEqual({ listId: '100%' });
  });

  it('refuses raw bytes past ASCII, control characters and malformed percent-encodings, saying what it expected', () => {
    const mojibake = Buffer.from('team β', 'utf8').toString('latin1');
    expect(listFromHeader(mojibake)).toEqual({
      refused:
        'expected a list name in printable ASCII, anything else percent-encoded as UTF-8 (X-Raider-List: team%20%CE%B2 for "team β"), received byte 0xCE at byte 6 of 7',
    });
    expect(listFromHeader('team β')).toMatchObject({
      refused: expect.stringMatching(/received character U\+03B2 at character 6 of 6$/),
    });
    expect(listFromHeader('a\u007fb')).toMatchObject({ refused: expect.stringContaining('control character 0x7F') });
    expect(listFromHeader('a\u0000b')).toMatchObject({ refused: expect.stringContaining('control character 0x00') });
    expect(listFromHeader('%E0%A4%A')).toEqual({
      refused:
        'expected a list name percent-encoded as UTF-8, %XX for each byte (X-Raider-List: team%20%CE%B2 for "team β"), received a malformed percent-encoding: "%E0%A4%A"',
    });
    // A long value is described, never quoted.
    const long = `${'é'.repeat(500)}`;
    const refused = listFromHeader(long);
    expect('refused' in refused && refused.refused).not.toContain('éé');
    expect(listFromHeader('%'.repeat(500))).toMatchObject({
      refused: expect.stringMatching(/received a malformed percent-encoding: a value of 500 characters$/),
    });
  });
});
