#ifndef ROWKIT_CCRYPTO_SHIM_H
#define ROWKIT_CCRYPTO_SHIM_H
#include <stddef.h>
#include <openssl/evp.h>

/// Writes the SHA-256 of `count` bytes at `data` into `digest` (32 bytes); returns 1, or 0 on
/// failure. OpenSSL's SHA-256 uses the CPU's SHA instructions where it has them: about five
/// times GLib's speed, which matters when a check hashes every reference it passes.
static inline int ccrypto_sha256(const void *data, size_t count, unsigned char *digest) {
  unsigned int length = 0;
  static const unsigned char empty = 0;
  return EVP_Digest(count ? data : &empty, count, digest, &length, EVP_sha256(), NULL) == 1 && length == 32;
}
#endif
