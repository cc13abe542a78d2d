import { getMetadataStorage, ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';
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
          // A string never has more code points than UTF-16 units: only a longer one is counted.
          (value.length <= max || [...value].length <= max),
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

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type Lookup = MetadataStorage['getTargetValidationMetadatas'];
const CACHED: unique symbol = Symbol.for('forkvote.cachedValidationMetadata');

/**
 * class-validator finds a class's rules by scanning every registered class, on every object it validates
 * (typestack/class-validator#2686): a ballot's command, body and five votes cost seven scans, a sixth of
 * rooms' CPU per ballot under load. A class's rules are registered when the class is defined, before
 * anything can be validated against it, so the answer for a class and options does not change; it is kept,
 * and all of it dropped if a rule is ever registered later. Done here, where the DTOs' rules are defined,
 * so every process that validates them has it.
 */
function cacheRuleLookup(storage: MetadataStorage & { [CACHED]?: true }): void {
  if (storage[CACHED]) return;
  storage[CACHED] = true;
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const addRule = storage.addValidationMetadata.bind(storage);
  let kept = new WeakMap<object, Map<string, ReturnType<Lookup>>>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // Every validation in the product asks with no schema, groups or flags: its key is made once.
    const key =
      schema === undefined && !always && !strictGroups && !groups?.length
        ? ''
        : `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0000') ?? ''}`;
    let byOptions = kept.get(target);
    if (!byOptions) kept.set(target, (byOptions = new Map()));
    let rules = byOptions.get(key);
    if (!rules) byOptions.set(key, (rules = lookup(target, schema, always, strictGroups, groups)));
    return rules;
  };
  storage.addValidationMetadata = (rule) => {
    kept = new WeakMap();
    addRule(rule);
  };
}

cacheRuleLookup(getMetadataStorage());
