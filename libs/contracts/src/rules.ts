/** Validation rules and constants shared by the services and the web app (no decorators here). */

/** The SPEC's "simple pattern" for email addresses. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const ZIPCODE_PATTERN = /^\d{5}$/;
export const MIN_PASSWORD_LENGTH = 6;

/**
 * Which failed rule speaks for a field when several fail: "missing" before "wrong type" before "too long",
 * so an absent subject reads 'Please enter a subject', not a length complaint.
 */
const RULE_PRIORITY = [
  'whitelistValidation',
  'isNotEmpty',
  'equals',
  'isDefined',
  'isIn',
  'matches',
  'isString',
  'isBoolean',
  'isArray',
  'minLength',
];

export function firstMessage(constraints: Record<string, string>): string {
  const rule = RULE_PRIORITY.find((name) => name in constraints) ?? Object.keys(constraints)[0];
  return constraints[rule];
}
