/**
 * Redis keys of session revocation, written by auth (logout, password reset) and read by every gateway
 * replica on each authenticated request, so a copied cookie stops working everywhere at once.
 */
export const sessionKeys = {
  /** Present while a logged-out token would still be valid. */
  revoked: (prefix: string, jti: string) => `${prefix}:session:revoked:${jti}`,
  /** Tokens of this user issued before this epoch second are refused (set on password reset). */
  validAfter: (prefix: string, userId: string) => `${prefix}:session:valid-after:${userId}`,
};
