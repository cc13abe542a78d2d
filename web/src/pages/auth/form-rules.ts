import { EMAIL_PATTERN, MESSAGES, MIN_PASSWORD_LENGTH } from '@forkvote/contracts';
import type { Rule } from 'antd/es/form';

export const emailRules: Rule[] = [
  { required: true, message: MESSAGES.invalidEmail },
  { pattern: EMAIL_PATTERN, message: MESSAGES.invalidEmail },
];

export const passwordRules: Rule[] = [
  { required: true, message: MESSAGES.passwordTooShort },
  { min: MIN_PASSWORD_LENGTH, message: MESSAGES.passwordTooShort },
];
