#ifndef ROWKIT_CPIXELS_SHIM_H
#define ROWKIT_CPIXELS_SHIM_H
// Pixel loops that Swift cannot vectorize for the baseline x86-64 processor, which has no byte
// shuffle (SSSE3's pshufb): compiled for SSSE3 here and called only where the processor has it.
// Every other processor, and every pixel these leave, goes through RowKit's Swift loops, which
// give the same bytes.
#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <immintrin.h>

/// Whether the processor has SSSE3.
static inline int cpixels_has_ssse3(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("ssse3");
}

/// Converts Cairo's BGRA pixels (premultiplied; alpha dropped) to PNG's RGB, 16 at a time:
/// `count` pixels at `source` are read, and the largest multiple of 16 of them converted into
/// `target` (3 bytes a pixel); returns how many. `*alphas` is ANDed with every converted
/// pixel as a little-endian word, so its top byte is 0xFF only if all their alphas were.
__attribute__((target("ssse3")))
static inline size_t cpixels_bgra_to_rgb_ssse3(const uint8_t *source, uint8_t *target, size_t count, uint32_t *alphas) {
  // Each pixel's R, G, B (bytes 2, 1, 0 of its four) into the first 12 bytes.
  const __m128i order = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  __m128i all = _mm_set1_epi32(-1);
  size_t done = 0;
  for (; done + 16 <= count; done += 16) {
    const __m128i *in = (const __m128i *)(source + done * 4);
    __m128i p0 = _mm_loadu_si128(in), p1 = _mm_loadu_si128(in + 1);
    __m128i p2 = _mm_loadu_si128(in + 2), p3 = _mm_loadu_si128(in + 3);
    all = _mm_and_si128(all, _mm_and_si128(_mm_and_si128(p0, p1), _mm_and_si128(p2, p3)));
    __m128i a = _mm_shuffle_epi8(p0, order), b = _mm_shuffle_epi8(p1, order);
    __m128i c = _mm_shuffle_epi8(p2, order), d = _mm_shuffle_epi8(p3, order);
    __m128i *out = (__m128i *)(target + done * 3);
    _mm_storeu_si128(out, _mm_or_si128(a, _mm_slli_si128(b, 12)));
    _mm_storeu_si128(out + 1, _mm_or_si128(_mm_srli_si128(b, 4), _mm_slli_si128(c, 8)));
    _mm_storeu_si128(out + 2, _mm_or_si128(_mm_srli_si128(c, 8), _mm_slli_si128(d, 4)));
  }
  uint32_t lanes[4];
  _mm_storeu_si128((__m128i *)lanes, all);
  *alphas &= lanes[0] & lanes[1] & lanes[2] & lanes[3];
  return done;
}
#endif

#endif
