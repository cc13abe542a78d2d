import { EMAIL_PATTERN, MESSAGES, MIN_PASSWORD_LENGTH } from '@forkvote/contracts';
import type { Rule } from '../../components/plain-form';

export const emailRule: Rule = (value) => (value && EMAIL_PATTERN.test(value) ? null : MESSAGES.invalidEmail);

export const passwordRule: Rule = (value) =>
  value && value.length >= MIN_PASSWORD_LENGTH ? null : MESSAGES.passwordTooShort;

/** Something other than spaces, or `message`. */
export const required =
  (message: string): Rule =>
  (value) =>
    value.trim() ? null : message;
