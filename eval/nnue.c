/* The NNUE: features, the net file, the accumulator stack and the integer inference (see nnue.h). The
 * kernels come in three versions, scalar, AVX2 and AVX-512; every build compiles all three (the SIMD
 * ones with target attributes) so that the tests can compare them wherever the processor has them, and
 * the hot path calls the one the build's ARCH enables (-march), inlined. */
#include "nnue.h"

#include <errno.h>
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char NNUE_MAGIC[8] = {'J', 'A', 'N', 'G', 'N', 'N', 'U', 'E'};

/* ---- features ---- */

int nnue_features(const Position *pos, int king_buckets, Color persp, int out[NNUE_MAX_ACTIVE])
{
    int bucket = nnue_king_bucket(king_buckets, persp, pos->general[persp]);
    int n = 0;
    for (uint64_t lo = (uint64_t)pos->occupied; lo; lo &= lo - 1) {
        Square s = __builtin_ctzll(lo);
        out[n++] = nnue_feature(persp, bucket, pos->board[s], s);
    }
    for (uint64_t hi = (uint64_t)(pos->occupied >> 64); hi; hi &= hi - 1) {
        Square s = 64 + __builtin_ctzll(hi);
        out[n++] = nnue_feature(persp, bucket, pos->board[s], s);
    }
    return n;
}

/* ---- kernels: the scalar reference ---- */

static inline int16_t wrap_add(int16_t a, int16_t b) { return (int16_t)(uint16_t)((uint16_t)a + (uint16_t)b); }
static inline int16_t wrap_sub(int16_t a, int16_t b) { return (int16_t)(uint16_t)((uint16_t)a - (uint16_t)b); }

static void update_scalar(int16_t *dst, const int16_t *src, const int16_t *const *add, int adds,
                          const int16_t *const *sub, int subs, int hidden)
{
    for (int i = 0; i < hidden; i++) {
        int16_t v = src[i];
        for (int k = 0; k < adds; k++)
            v = wrap_add(v, add[k][i]);
        for (int k = 0; k < subs; k++)
            v = wrap_sub(v, sub[k][i]);
        dst[i] = v;
    }
}

static inline int64_t screlu_dot_scalar(const int16_t *x, const int16_t *w, int hidden)
{
    int64_t sum = 0;
    for (int i = 0; i < hidden; i++) {
        int32_t c = x[i] < 0 ? 0 : x[i] > NNUE_QA ? NNUE_QA : x[i];
        sum += c * c * w[i];
    }
    return sum;
}

static int64_t output_scalar(const int16_t *us, const int16_t *them, const int16_t *w, int hidden)
{
    return screlu_dot_scalar(us, w, hidden) + screlu_dot_scalar(them, w + hidden, hidden);
}

const NnueKernels nnue_kernels_scalar = {"scalar", update_scalar, output_scalar};

/* ---- AVX2: 16 units a register ---- */

#define AVX2 __attribute__((target("avx2"))) static inline

AVX2 void update_avx2_inline(int16_t *dst, const int16_t *src, const int16_t *const *add, int adds,
                             const int16_t *const *sub, int subs, int hidden)
{
    for (int i = 0; i < hidden; i += 16) {
        __m256i v = _mm256_load_si256((const __m256i *)(src + i));
        for (int k = 0; k < adds; k++)
            v = _mm256_add_epi16(v, _mm256_load_si256((const __m256i *)(add[k] + i)));
        for (int k = 0; k < subs; k++)
            v = _mm256_sub_epi16(v, _mm256_load_si256((const __m256i *)(sub[k] + i)));
        _mm256_store_si256((__m256i *)(dst + i), v);
    }
}

/* clamp(x, 0, QA) * w fits an int16 (255 * 128); madd by the clamp again sums pairs into int32 lanes,
 * which cannot overflow (nnue.h); the lanes are summed in int64. */
AVX2 __m256i screlu_dot_avx2(__m256i sum, const int16_t *x, const int16_t *w, int hidden)
{
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    for (int i = 0; i < hidden; i += 16) {
        __m256i c = _mm256_min_epi16(_mm256_max_epi16(_mm256_load_si256((const __m256i *)(x + i)), zero), qa);
        __m256i cw = _mm256_mullo_epi16(c, _mm256_load_si256((const __m256i *)(w + i)));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(cw, c));
    }
    return sum;
}

AVX2 int64_t output_avx2_inline(const int16_t *us, const int16_t *them, const int16_t *w, int hidden)
{
    __m256i sum = screlu_dot_avx2(_mm256_setzero_si256(), us, w, hidden);
    sum = screlu_dot_avx2(sum, them, w + hidden, hidden);
    __m256i wide = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(sum)),
                                    _mm256_cvtepi32_epi64(_mm256_extracti128_si256(sum, 1)));
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
    return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

__attribute__((target("avx2"))) static void update_avx2(int16_t *dst, const int16_t *src, const int16_t *const *add,
                                                        int adds, const int16_t *const *sub, int subs, int hidden)
{
    update_avx2_inline(dst, src, add, adds, sub, subs, hidden);
}

__attribute__((target("avx2"))) static int64_t output_avx2(const int16_t *us, const int16_t *them, const int16_t *w,
                                                           int hidden)
{
    return output_avx2_inline(us, them, w, hidden);
}

const NnueKernels nnue_kernels_avx2 = {"avx2", update_avx2, output_avx2};

/* ---- AVX-512 (BW): 32 units a register ---- */

#define AVX512 __attribute__((target("avx512f,avx512bw"))) static inline

AVX512 void update_avx512_inline(int16_t *dst, const int16_t *src, const int16_t *const *add, int adds,
                                 const int16_t *const *sub, int subs, int hidden)
{
    for (int i = 0; i < hidden; i += 32) {
        __m512i v = _mm512_load_si512((const void *)(src + i));
        for (int k = 0; k < adds; k++)
            v = _mm512_add_epi16(v, _mm512_load_si512((const void *)(add[k] + i)));
        for (int k = 0; k < subs; k++)
            v = _mm512_sub_epi16(v, _mm512_load_si512((const void *)(sub[k] + i)));
        _mm512_store_si512((void *)(dst + i), v);
    }
}

AVX512 __m512i screlu_dot_avx512(__m512i sum, const int16_t *x, const int16_t *w, int hidden)
{
    const __m512i zero = _mm512_setzero_si512(), qa = _mm512_set1_epi16(NNUE_QA);
    for (int i = 0; i < hidden; i += 32) {
        __m512i c = _mm512_min_epi16(_mm512_max_epi16(_mm512_load_si512((const void *)(x + i)), zero), qa);
        __m512i cw = _mm512_mullo_epi16(c, _mm512_load_si512((const void *)(w + i)));
        sum = _mm512_add_epi32(sum, _mm512_madd_epi16(cw, c));
    }
    return sum;
}

AVX512 int64_t output_avx512_inline(const int16_t *us, const int16_t *them, const int16_t *w, int hidden)
{
    __m512i sum = screlu_dot_avx512(_mm512_setzero_si512(), us, w, hidden);
    sum = screlu_dot_avx512(sum, them, w + hidden, hidden);
    __m512i wide = _mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(sum)),
                                    _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(sum, 1)));
    return _mm512_reduce_add_epi64(wide);
}

__attribute__((target("avx512f,avx512bw"))) static void update_avx512(int16_t *dst, const int16_t *src,
                                                                      const int16_t *const *add, int adds,
                                                                      const int16_t *const *sub, int subs, int hidden)
{
    update_avx512_inline(dst, src, add, adds, sub, subs, hidden);
}

__attribute__((target("avx512f,avx512bw"))) static int64_t output_avx512(const int16_t *us, const int16_t *them,
                                                                         const int16_t *w, int hidden)
{
    return output_avx512_inline(us, them, w, hidden);
}

const NnueKernels nnue_kernels_avx512 = {"avx512", update_avx512, output_avx512};

/* The build's path, inlined into the hot path. */
#if defined(__AVX512F__) && defined(__AVX512BW__)
#define KERNEL_UPDATE update_avx512_inline
#define KERNEL_OUTPUT output_avx512_inline
#define KERNELS_BUILD nnue_kernels_avx512
#elif defined(__AVX2__)
#define KERNEL_UPDATE update_avx2_inline
#define KERNEL_OUTPUT output_avx2_inline
#define KERNELS_BUILD nnue_kernels_avx2
#else
#define KERNEL_UPDATE update_scalar
#define KERNEL_OUTPUT output_scalar
#define KERNELS_BUILD nnue_kernels_scalar
#endif

const NnueKernels *nnue_kernels_build(void) { return &KERNELS_BUILD; }

bool nnue_kernels_supported(const NnueKernels *k)
{
    __builtin_cpu_init();
    if (k == &nnue_kernels_avx512)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    if (k == &nnue_kernels_avx2)
        return __builtin_cpu_supports("avx2");
    return true;
}

/* ---- inference ---- */

static inline const int16_t *column(const NnueNet *net, int feature)
{
    return net->ft_weights + (size_t)feature * (size_t)net->arch.hidden;
}

void nnue_refresh(const NnueNet *net, const Position *pos, Color persp, int16_t *acc)
{
    int features[NNUE_MAX_ACTIVE];
    int n = nnue_features(pos, net->arch.king_buckets, persp, features);
    const int16_t *cols[NNUE_MAX_ACTIVE];
    for (int i = 0; i < n; i++)
        cols[i] = column(net, features[i]);
    KERNEL_UPDATE(acc, net->ft_bias, cols, n, NULL, 0, net->arch.hidden);
}

static inline int pieces_on_board(const Position *pos)
{
    return __builtin_popcountll((uint64_t)pos->occupied) + __builtin_popcountll((uint64_t)(pos->occupied >> 64));
}

/* The output layer on both accumulators, side to move first. */
static inline int output(const NnueNet *net, const Position *pos, const int16_t *white, const int16_t *black)
{
    int bucket = nnue_output_bucket(net->arch.output_buckets, pieces_on_board(pos));
    const int16_t *us = pos->side == WHITE ? white : black, *them = pos->side == WHITE ? black : white;
    int64_t sum =
        KERNEL_OUTPUT(us, them, net->out_weights + (size_t)bucket * 2 * (size_t)net->arch.hidden, net->arch.hidden);
    return (int)((sum / NNUE_QA + net->out_bias[bucket]) * NNUE_SCALE / (NNUE_QA * NNUE_QB));
}

int nnue_evaluate_full(const NnueNet *net, const Position *pos)
{
    _Alignas(64) int16_t acc[COLOR_COUNT][NNUE_MAX_HIDDEN];
    nnue_refresh(net, pos, WHITE, acc[WHITE]);
    nnue_refresh(net, pos, BLACK, acc[BLACK]);
    return output(net, pos, acc[WHITE], acc[BLACK]);
}

/* Whether entry `a`'s change moved `persp`'s general to another king bucket. */
static inline bool needs_refresh(const NnueNet *net, const NnueAccumulator *a, Color persp)
{
    return net->arch.king_buckets > 1 && a->moved == make_piece(persp, GENERAL)
           && nnue_king_bucket(net->arch.king_buckets, persp, a->from)
                  != nnue_king_bucket(net->arch.king_buckets, persp, a->to);
}

/* Applies entry k's change to entry k-1's accumulator of `persp` (whose general sits in `bucket`). */
static inline void apply_change(const NnueNet *net, NnueStack *s, int k, Color persp, int bucket)
{
    NnueAccumulator *a = &s->acc[k];
    const int16_t *src = s->acc[k - 1].v[persp];
    const int16_t *add[1], *sub[2];
    int adds = 0, subs = 0;
    if (a->moved != NO_PIECE) {
        add[adds++] = column(net, nnue_feature(persp, bucket, a->moved, a->to));
        sub[subs++] = column(net, nnue_feature(persp, bucket, a->moved, a->from));
        if (a->captured != NO_PIECE)
            sub[subs++] = column(net, nnue_feature(persp, bucket, a->captured, a->to));
    }
    KERNEL_UPDATE(a->v[persp], src, add, adds, sub, subs, net->arch.hidden);
    a->computed[persp] = true;
}

static void update_perspective(NnueStack *s, const Position *pos, Color persp)
{
    const NnueNet *net = s->net;
    int top = s->top, k = top;
    /* The nearest computed entry below, unless a change on the way needs a refresh. */
    while (k > 0 && !s->acc[k].computed[persp] && !needs_refresh(net, &s->acc[k], persp))
        k--;
    if (!s->acc[k].computed[persp]) {
        nnue_refresh(net, pos, persp, s->acc[top].v[persp]);
        s->acc[top].computed[persp] = true;
        return;
    }
    /* No general changed bucket above k: the bucket is the one of the current position. */
    int bucket = nnue_king_bucket(net->arch.king_buckets, persp, pos->general[persp]);
    for (k++; k <= top; k++)
        apply_change(net, s, k, persp, bucket);
}

int nnue_evaluate(NnueStack *s, const Position *pos)
{
    NnueAccumulator *a = &s->acc[s->top];
    if (!a->computed[WHITE])
        update_perspective(s, pos, WHITE);
    if (!a->computed[BLACK])
        update_perspective(s, pos, BLACK);
    return output(s->net, pos, a->v[WHITE], a->v[BLACK]);
}

/* ---- the net in memory ---- */

static void *aligned_zeroed(size_t bytes)
{
    size_t rounded = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, rounded ? rounded : 64);
    if (p)
        memset(p, 0, rounded ? rounded : 64);
    return p;
}

static bool arch_ok(NnueArch a, char *err, size_t err_size)
{
    if (a.king_buckets != 1 && a.king_buckets != NNUE_MAX_KING_BUCKETS) {
        snprintf(err, err_size, "unsupported architecture: %d king buckets (1 or 9)", a.king_buckets);
        return false;
    }
    if (a.hidden < NNUE_MIN_HIDDEN || a.hidden > NNUE_MAX_HIDDEN || a.hidden % 32) {
        snprintf(err, err_size, "unsupported architecture: %d hidden units (a multiple of 32 from %d to %d)", a.hidden,
                 NNUE_MIN_HIDDEN, NNUE_MAX_HIDDEN);
        return false;
    }
    if (a.output_buckets < 1 || a.output_buckets > NNUE_MAX_OUTPUT_BUCKETS) {
        snprintf(err, err_size, "unsupported architecture: %d output buckets (1 to %d)", a.output_buckets,
                 NNUE_MAX_OUTPUT_BUCKETS);
        return false;
    }
    if (a.base != NNUE_BASE_NONE && a.base != NNUE_BASE_CLASSICAL) {
        snprintf(err, err_size, "unsupported architecture: base %d", a.base);
        return false;
    }
    return true;
}

NnueNet *nnue_net_new(NnueArch arch, char *err, size_t err_size)
{
    if (!arch_ok(arch, err, err_size))
        return NULL;
    NnueNet *net = calloc(1, sizeof *net);
    if (!net) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    net->arch = arch;
    net->inputs = arch.king_buckets * NNUE_PLANE_INPUTS;
    size_t h = (size_t)arch.hidden, ob = (size_t)arch.output_buckets;
    net->ft_bias = aligned_zeroed(h * sizeof(int16_t));
    net->ft_weights = aligned_zeroed((size_t)net->inputs * h * sizeof(int16_t));
    net->out_weights = aligned_zeroed(ob * 2 * h * sizeof(int16_t));
    net->out_bias = aligned_zeroed(ob * sizeof(int32_t));
    if (!net->ft_bias || !net->ft_weights || !net->out_weights || !net->out_bias) {
        nnue_net_free(net);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    return net;
}

void nnue_net_free(NnueNet *net)
{
    if (!net)
        return;
    free(net->ft_bias);
    free(net->ft_weights);
    free(net->out_weights);
    free(net->out_bias);
    free(net);
}

/* ---- the file ---- */

uint64_t nnue_checksum(const unsigned char *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 20; i < size; i++)
        h = (h ^ data[i]) * 0x100000001b3ull;
    return h;
}

static uint32_t get_u32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t get_u64(const unsigned char *p) { return get_u32(p) | (uint64_t)get_u32(p + 4) << 32; }
static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}
static void put_u64(unsigned char *p, uint64_t v)
{
    put_u32(p, (uint32_t)v);
    put_u32(p + 4, (uint32_t)(v >> 32));
}

static size_t payload_size(NnueArch a)
{
    size_t h = (size_t)a.hidden, ob = (size_t)a.output_buckets;
    size_t inputs = (size_t)a.king_buckets * NNUE_PLANE_INPUTS;
    return 2 * (h + inputs * h + ob * 2 * h) + 4 * ob;
}

static const unsigned char *read_i16s(const unsigned char *p, int16_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++, p += 2)
        out[i] = (int16_t)(uint16_t)(p[0] | p[1] << 8);
    return p;
}

static unsigned char *write_i16s(unsigned char *p, const int16_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++, p += 2) {
        p[0] = (unsigned char)((uint16_t)in[i] & 0xff);
        p[1] = (unsigned char)((uint16_t)in[i] >> 8);
    }
    return p;
}

NnueNet *nnue_net_read(const void *data, size_t size, const char *name, char *err, size_t err_size)
{
    const unsigned char *d = data;
    if (size < sizeof NNUE_MAGIC || memcmp(d, NNUE_MAGIC, sizeof NNUE_MAGIC) != 0) {
        snprintf(err, err_size, "not a Janggun net (the file does not begin with JANGNNUE)");
        return NULL;
    }
    if (size < NNUE_HEADER_SIZE) {
        snprintf(err, err_size, "truncated: %zu bytes, shorter than the %d-byte header", size, NNUE_HEADER_SIZE);
        return NULL;
    }
    uint32_t version = get_u32(d + 8);
    if (version != NNUE_FILE_VERSION) {
        snprintf(err, err_size, "net file version %u, but this build reads version %d", version, NNUE_FILE_VERSION);
        return NULL;
    }
    uint32_t features = get_u32(d + 20), activation = get_u32(d + 36);
    uint32_t qa = get_u32(d + 40), qb = get_u32(d + 44), scale = get_u32(d + 48);
    bool known_features = features == NNUE_FEATURES_PIECE_POINT || features == NNUE_FEATURES_PIECE_POINT_CLASSICAL;
    if (!known_features || activation != NNUE_ACTIVATION_SCRELU || qa != NNUE_QA || qb != NNUE_QB
        || scale != NNUE_SCALE) {
        snprintf(err, err_size,
                 "unsupported architecture: features %u, activation %u, QA %u, QB %u, scale %u (this build: %d or "
                 "%d, %d, %d, %d, %d)",
                 features, activation, qa, qb, scale, NNUE_FEATURES_PIECE_POINT, NNUE_FEATURES_PIECE_POINT_CLASSICAL,
                 NNUE_ACTIVATION_SCRELU, NNUE_QA, NNUE_QB, NNUE_SCALE);
        return NULL;
    }
    uint32_t kb = get_u32(d + 24), hidden = get_u32(d + 28), ob = get_u32(d + 32), desc = get_u32(d + 52);
    NnueArch arch = {kb > 64 ? 0 : (int)kb, hidden > 4096 ? 0 : (int)hidden, ob > 64 ? 0 : (int)ob,
                     features == NNUE_FEATURES_PIECE_POINT_CLASSICAL ? NNUE_BASE_CLASSICAL : NNUE_BASE_NONE};
    if (!arch_ok(arch, err, err_size))
        return NULL;
    if (desc > NNUE_MAX_DESCRIPTION) {
        snprintf(err, err_size, "description of %u bytes, more than %d", desc, NNUE_MAX_DESCRIPTION);
        return NULL;
    }
    if (NNUE_HEADER_SIZE + (size_t)desc <= size && memchr(d + NNUE_HEADER_SIZE, '\0', desc)) {
        snprintf(err, err_size, "the description holds a NUL byte");
        return NULL;
    }
    size_t want = NNUE_HEADER_SIZE + desc + payload_size(arch);
    if (size != want) {
        snprintf(
            err, err_size, "%s: %zu bytes, but its header (%d king buckets, %d hidden, %d output buckets) needs %zu",
            size < want ? "truncated" : "too long", size, arch.king_buckets, arch.hidden, arch.output_buckets, want);
        return NULL;
    }
    uint64_t stored = get_u64(d + 12), computed = nnue_checksum(d, size);
    if (stored != computed) {
        snprintf(err, err_size, "checksum mismatch (the file says %016llx, its content gives %016llx): damaged",
                 (unsigned long long)stored, (unsigned long long)computed);
        return NULL;
    }
    NnueNet *net = nnue_net_new(arch, err, err_size);
    if (!net)
        return NULL;
    memcpy(net->description, d + NNUE_HEADER_SIZE, desc);
    net->description[desc] = '\0';
    const unsigned char *p = d + NNUE_HEADER_SIZE + desc;
    size_t h = (size_t)arch.hidden, nob = (size_t)arch.output_buckets;
    p = read_i16s(p, net->ft_bias, h);
    p = read_i16s(p, net->ft_weights, (size_t)net->inputs * h);
    p = read_i16s(p, net->out_weights, nob * 2 * h);
    for (size_t i = 0; i < nob; i++, p += 4)
        net->out_bias[i] = (int32_t)get_u32(p);
    for (size_t i = 0; i < nob * 2 * h; i++)
        if (net->out_weights[i] > NNUE_MAX_OUTPUT_WEIGHT || net->out_weights[i] < -NNUE_MAX_OUTPUT_WEIGHT) {
            snprintf(err, err_size, "output weight %zu is %d, outside +-%d", i, net->out_weights[i],
                     NNUE_MAX_OUTPUT_WEIGHT);
            nnue_net_free(net);
            return NULL;
        }
    const char *slash = name ? strrchr(name, '/') : NULL;
    snprintf(net->name, sizeof net->name, "%s", slash ? slash + 1 : name ? name : "");
    return net;
}

NnueNet *nnue_net_load(const char *path, char *err, size_t err_size)
{
    /* A FIFO or a device would block or never end: only a regular file can hold a net. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "cannot read %s: not a regular file", path);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 20, len = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            unsigned char *bigger = cap < ((size_t)1 << 30) ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    bool failed = ferror(f);
    fclose(f);
    if (!buf || failed) {
        free(buf);
        snprintf(err, err_size, "cannot read %s%s", path, buf ? "" : ": too large or out of memory");
        return NULL;
    }
    char why[300];
    NnueNet *net = nnue_net_read(buf, len, path, why, sizeof why);
    free(buf);
    if (!net)
        snprintf(err, err_size, "%s: %s", path, why);
    return net;
}

unsigned char *nnue_net_write(const NnueNet *net, size_t *size)
{
    size_t desc = strlen(net->description);
    size_t total = NNUE_HEADER_SIZE + desc + payload_size(net->arch);
    unsigned char *d = calloc(1, total);
    if (!d)
        return NULL;
    memcpy(d, NNUE_MAGIC, sizeof NNUE_MAGIC);
    put_u32(d + 8, NNUE_FILE_VERSION);
    put_u32(d + 20,
            net->arch.base == NNUE_BASE_CLASSICAL ? NNUE_FEATURES_PIECE_POINT_CLASSICAL : NNUE_FEATURES_PIECE_POINT);
    put_u32(d + 24, (uint32_t)net->arch.king_buckets);
    put_u32(d + 28, (uint32_t)net->arch.hidden);
    put_u32(d + 32, (uint32_t)net->arch.output_buckets);
    put_u32(d + 36, NNUE_ACTIVATION_SCRELU);
    put_u32(d + 40, NNUE_QA);
    put_u32(d + 44, NNUE_QB);
    put_u32(d + 48, NNUE_SCALE);
    put_u32(d + 52, (uint32_t)desc);
    memcpy(d + NNUE_HEADER_SIZE, net->description, desc);
    unsigned char *p = d + NNUE_HEADER_SIZE + desc;
    size_t h = (size_t)net->arch.hidden, ob = (size_t)net->arch.output_buckets;
    p = write_i16s(p, net->ft_bias, h);
    p = write_i16s(p, net->ft_weights, (size_t)net->inputs * h);
    p = write_i16s(p, net->out_weights, ob * 2 * h);
    for (size_t i = 0; i < ob; i++, p += 4)
        put_u32(p, (uint32_t)net->out_bias[i]);
    put_u64(d + 12, nnue_checksum(d, total));
    *size = total;
    return d;
}

/* ---- the net in use ---- */

static NnueNet *current;

const NnueNet *nnue_current(void) { return current; }

void nnue_set_current(NnueNet *net)
{
    NnueNet *old = current;
    current = net;
    nnue_net_free(old);
}
