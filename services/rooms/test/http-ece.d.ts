/** The part of http_ece (Encrypted Content-Encoding, RFC 8188) the push test uses to decrypt, as a browser. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  const ece: {
    decrypt(content: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer;
  };
  export default ece;
}
