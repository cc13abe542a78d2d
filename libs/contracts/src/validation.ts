import { ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';
import { MESSAGES } from './messages';
import { Transform } from 'class-transformer';

/** Trims strings before validation, so '  Ann ' is stored as 'Ann' and '   ' fails a not-empty rule. */
export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** Lower-cases and trims an email address. */
export const NormalizeEmail = () =>
  Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));

/**
 * Sizes of the text columns a request can reach, in characters as PostgreSQL counts them (code points).
 * The entities declare their columns with these, and the DTOs check against them, so no valid request can
 * overflow a column.
 */
export const TEXT_COLUMNS = {
  email: 320,
  personName: 100,
  feedbackSubject: 200,
  roomUserName: 50,
  userId: 64,
  placeId: 300,
} as const;

/** C0 control characters and DEL; tab, newline and carriage return only where text may span lines. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_SINGLE_LINE = /[\u0000-\u001F\u007F]/;

/**
 * A string of at most `max` characters counted as PostgreSQL counts them (code points: class-validator's
 * MaxLength counts an emoji with a variation selector as one, where the database sees two), with no
 * control characters (PostgreSQL cannot even store NUL). The SPEC's message, where a field has one, is kept
 * for every failure; otherwise the message says which rule failed.
 */
export const Text = (
  max: number,
  options: ValidationOptions & { multiline?: boolean } = {},
): PropertyDecorator =>
  ValidateBy(
    {
      name: 'text',
      constraints: [max],
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          !(options.multiline ? CONTROL : CONTROL_SINGLE_LINE).test(value) &&
          [...value].length <= max,
        defaultMessage: (args) => {
          const value = args?.value;
          if (typeof value !== 'string') return `${args?.property} must be text`;
          if ((options.multiline ? CONTROL : CONTROL_SINGLE_LINE).test(value))
            return MESSAGES.controlCharacters;
          return `${args?.property} must be at most ${max} characters long`;
        },
      },
    },
    options,
  );

/**
 * The field may be left out; when it is present it is validated, and `null` is not "left out" (class-validator's
 * IsOptional lets null through, which then reaches a NOT NULL column as a 500).
 */
export const Optional = (): PropertyDecorator => ValidateIf((_, value) => value !== undefined);
