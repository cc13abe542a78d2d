import { Transform } from 'class-transformer';

/** Trims strings before validation, so '  Ann ' is stored as 'Ann' and '   ' fails a not-empty rule. */
export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** Lower-cases and trims an email address. */
export const NormalizeEmail = () =>
  Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));
