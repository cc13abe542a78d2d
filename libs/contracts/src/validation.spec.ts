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
    expect(errorsOf({ name: 'abcdef' })).toEqual(['too long']);
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

describe("class-validator's rule lookup, kept", () => {
  it('gives a class the rules it and its parents declare, per set of options, as the scan does', () => {
    class Parent {
      @Text(3, { message: 'parent' })
      a!: string;
    }
    class Child extends Parent {
      @Text(3, { message: 'child', groups: ['strict'] })
      b!: string;
    }
    const errors = (value: object, groups?: string[]) =>
      validateSync(Object.assign(new Child(), value), { groups }).flatMap((e) =>
        Object.values(e.constraints ?? {}),
      );
    // Twice each: the second answer comes from what was kept.
    for (let i = 0; i < 2; i++) {
      expect(errors({ a: 'long', b: 'long' }).sort()).toEqual(['child', 'parent']);
      expect(errors({ a: 'long', b: 'long' }, ['strict'])).toEqual(['child']);
    }
    expect(errors({ a: 'ok', b: 'ok' })).toEqual([]);
  });

  it('sees a rule registered after a class was first validated', () => {
    class Late {
      @Text(3, { message: 'first' })
      a!: string;
      b!: string;
    }
    const errors = () =>
      validateSync(Object.assign(new Late(), { a: 'long', b: 'long' })).flatMap((e) =>
        Object.values(e.constraints ?? {}),
      );
    expect(errors()).toEqual(['first']);
    Text(3, { message: 'late' })(Late.prototype, 'b');
    expect(errors()).toEqual(['first', 'late']);
  });
});
