import { validateSync } from 'class-validator';
import { MESSAGES } from './messages';
import { Optional, Text } from './validation';

class Sample {
  @Optional()
  @Text(5, { message: 'too long' })
  name?: string | null;

  @Optional()
  @Text(20, { multiline: true })
  note?: string;
}

const errorsOf = (value: Partial<Sample>) =>
  validateSync(Object.assign(new Sample(), value)).flatMap((e) => Object.values(e.constraints ?? {}));

describe('Text', () => {
  it('counts characters as PostgreSQL does (code points), not as class-validator MaxLength does', () => {
    expect(errorsOf({ name: 'abcde' })).toEqual([]);
    expect(errorsOf({ name: '👍👍👍👍👍' })).toEqual([]);
    // Three thumbs with variation selectors are six code points: a varchar(5) would refuse them.
    expect(errorsOf({ name: '👍\uFE0F👍\uFE0F👍\uFE0F' })).toEqual(['too long']);
  });

  it('refuses NUL and other control characters, allowing line breaks only in multi-line text', () => {
    expect(errorsOf({ name: 'a\u0000' })).toEqual(['too long']);
    expect(errorsOf({ note: 'a\u0000' })).toEqual([MESSAGES.controlCharacters]);
    expect(errorsOf({ note: 'line\nline\ttab' })).toEqual([]);
    expect(errorsOf({ name: 'a\nb' })).toEqual(['too long']);
  });

  it('refuses what is not a string', () => {
    expect(errorsOf({ note: 42 as unknown as string })).toEqual(['note must be text']);
  });
});

describe('Optional', () => {
  it('lets a missing field through but not null', () => {
    expect(errorsOf({})).toEqual([]);
    expect(errorsOf({ name: null })).toEqual(['too long']);
  });
});
