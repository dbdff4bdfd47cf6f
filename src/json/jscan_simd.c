/* jscan_simd: the byte-run kernels of the scanner (whitespace runs, string
 * bodies) at each vector width, chosen per call from the CPU's features.
 *
 * Every kernel answers exactly what the scalar loop answers. A kernel of
 * width W loads W bytes only while at least W remain before end, then hands
 * the rest to the next narrower one, so no load reaches past the window.
 * The AVX2 and AVX-512BW kernels are compiled with a target attribute and
 * run only when __builtin_cpu_supports says the CPU (and the OS) has them. */
#include "json/jscan.h"

#if defined(__x86_64__) || defined(__i386__)
#define JSCAN_X86 1
#include <immintrin.h>
#else
#define JSCAN_X86 0
#endif

#define W_ JSCAN_C_WS
#define N_ JSCAN_C_NUM
const uint8_t jscan_class[256] = {
    ['\t'] = W_, ['\n'] = W_, ['\r'] = W_, [' '] = W_, ['+'] = N_, ['-'] = N_, ['.'] = N_,
    ['0'] = N_,	 ['1'] = N_,  ['2'] = N_,  ['3'] = N_, ['4'] = N_, ['5'] = N_, ['6'] = N_,
    ['7'] = N_,	 ['8'] = N_,  ['9'] = N_,  ['E'] = N_, ['e'] = N_,
};
#undef W_
#undef N_

int jscan_simd_best(void)
{
#if JSCAN_X86
	if (__builtin_cpu_supports("avx512bw"))
		return JSCAN_AVX512;
	if (__builtin_cpu_supports("avx2"))
		return JSCAN_AVX2;
#endif
#if defined(__SSE2__)
	return JSCAN_SSE2;
#else
	return JSCAN_SCALAR;
#endif
}

#if JSCAN_X86
/* Each kernel: true with *pp at the first byte it looks for, or false with
 * *pp where fewer than its width of bytes remain. */
__attribute__((target("avx512f,avx512bw"))) static bool ws_avx512(const char **pp, const char *end)
{
	const char *p = *pp;
	const __m512i sp = _mm512_set1_epi8(' '), nl = _mm512_set1_epi8('\n'),
		      cr = _mm512_set1_epi8('\r'), tab = _mm512_set1_epi8('\t');
	for (; end - p >= 64; p += 64) {
		__m512i v = _mm512_loadu_si512((const void *)p);
		uint64_t m = _mm512_cmpeq_epi8_mask(v, sp) | _mm512_cmpeq_epi8_mask(v, nl) |
			     _mm512_cmpeq_epi8_mask(v, cr) | _mm512_cmpeq_epi8_mask(v, tab);
		if (~m) {
			*pp = p + __builtin_ctzll(~m);
			return true;
		}
	}
	*pp = p;
	return false;
}

__attribute__((target("avx2"))) static bool ws_avx2(const char **pp, const char *end)
{
	const char *p = *pp;
	const __m256i sp = _mm256_set1_epi8(' '), nl = _mm256_set1_epi8('\n'),
		      cr = _mm256_set1_epi8('\r'), tab = _mm256_set1_epi8('\t');
	for (; end - p >= 32; p += 32) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
		__m256i w = _mm256_or_si256(
		    _mm256_or_si256(_mm256_cmpeq_epi8(v, sp), _mm256_cmpeq_epi8(v, nl)),
		    _mm256_or_si256(_mm256_cmpeq_epi8(v, cr), _mm256_cmpeq_epi8(v, tab)));
		unsigned m = ~(unsigned)_mm256_movemask_epi8(w);
		if (m) {
			*pp = p + __builtin_ctz(m);
			return true;
		}
	}
	*pp = p;
	return false;
}

__attribute__((target("avx512f,avx512bw"))) static bool quote_avx512(const char **pp,
								     const char *end)
{
	const char *p = *pp;
	const __m512i q = _mm512_set1_epi8('"'), bs = _mm512_set1_epi8('\\'),
		      nul = _mm512_setzero_si512();
	for (; end - p >= 64; p += 64) {
		__m512i v = _mm512_loadu_si512((const void *)p);
		uint64_t m = _mm512_cmpeq_epi8_mask(v, q) | _mm512_cmpeq_epi8_mask(v, bs) |
			     _mm512_cmpeq_epi8_mask(v, nul);
		if (m) {
			*pp = p + __builtin_ctzll(m);
			return true;
		}
	}
	*pp = p;
	return false;
}

__attribute__((target("avx2"))) static bool quote_avx2(const char **pp, const char *end)
{
	const char *p = *pp;
	const __m256i q = _mm256_set1_epi8('"'), bs = _mm256_set1_epi8('\\'),
		      nul = _mm256_setzero_si256();
	for (; end - p >= 32; p += 32) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
		unsigned m = (unsigned)_mm256_movemask_epi8(_mm256_or_si256(
		    _mm256_or_si256(_mm256_cmpeq_epi8(v, q), _mm256_cmpeq_epi8(v, bs)),
		    _mm256_cmpeq_epi8(v, nul)));
		if (m) {
			*pp = p + __builtin_ctz(m);
			return true;
		}
	}
	*pp = p;
	return false;
}
#endif

#if defined(__SSE2__)
/* Bit i set when byte i of p is not whitespace. */
static inline unsigned ws_stops16(const char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i w = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
					      _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
				 _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')),
					      _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
	return (unsigned)_mm_movemask_epi8(w) ^ 0xFFFFu;
}

static bool ws_sse2(const char **pp, const char *end)
{
	const char *p = *pp;
	for (; end - p >= 16; p += 16) {
		unsigned m = ws_stops16(p);
		if (m) {
			*pp = p + __builtin_ctz(m);
			return true;
		}
	}
	*pp = p;
	return false;
}

/* One step of ws_sse2: true with *pp at the first non-whitespace byte of
 * the next 16, else *pp after them (or unchanged when fewer remain). */
static inline bool ws_sse2_probe(const char **pp, const char *end)
{
	const char *p = *pp;
	if (end - p < 16)
		return false;
	unsigned m = ws_stops16(p);
	*pp = m ? p + __builtin_ctz(m) : p + 16;
	return m != 0;
}

static bool quote_sse2(const char **pp, const char *end)
{
	const char *p = *pp;
	for (; end - p >= 16; p += 16) {
		unsigned quotes;
		unsigned m =
		    jscan_stops16(_mm_loadu_si128((const __m128i *)(const void *)p), &quotes);
		if (m) {
			*pp = p + __builtin_ctz(m);
			return true;
		}
	}
	*pp = p;
	return false;
}
#endif

const char *jscan_ws_run(int level, const char *p, const char *end)
{
#if defined(__SSE2__)
	/* Indentation is mostly shorter than 16 bytes: one probe, before the
	 * wider kernels are chosen. */
	if (level != JSCAN_SCALAR && ws_sse2_probe(&p, end))
		return p;
#endif
	if (level == JSCAN_AUTO)
		level = jscan_simd_best();
#if JSCAN_X86
	if (level >= JSCAN_AVX512 && ws_avx512(&p, end))
		return p;
	if (level >= JSCAN_AVX2 && ws_avx2(&p, end))
		return p;
#endif
#if defined(__SSE2__)
	if (level >= JSCAN_SSE2 && ws_sse2(&p, end))
		return p;
#endif
	while (p < end && jscan_is_ws(*p))
		p++;
	return p;
}

const char *jscan_quote_run(int level, const char *p, const char *end)
{
	if (level == JSCAN_AUTO)
		level = jscan_simd_best();
#if JSCAN_X86
	if (level >= JSCAN_AVX512 && quote_avx512(&p, end))
		return p;
	if (level >= JSCAN_AVX2 && quote_avx2(&p, end))
		return p;
#endif
#if defined(__SSE2__)
	if (level >= JSCAN_SSE2 && quote_sse2(&p, end))
		return p;
#endif
	while (p < end && *p != '"' && *p != '\\' && *p)
		p++;
	return p;
}
