/* smem_probe: issues exactly one shared-memory instruction per launch, one launch per line of a
 * pattern file, so that Nsight Compute can count the wavefronts of each access
 * (calibrate.py runs it). Each kernel is one warp; lane i uses offset[i] if bit i of the mask
 * is set. The PTX helpers guarantee one LDS/STS of the named width, 1 to 16 bytes, and one
 * ldmatrix / stmatrix (m8n8, .x1 .x2 .x4, .trans or not: lane l gives row l % 8 of matrix l / 8;
 * stmatrix needs sm_90) (calibrate.py sass checks the machine code). */
#include "host/check.h"
#include "host/cli.h"
#include "host/device.h"
#include "model/smem_model.h"
#include "ptx/matrix.cuh"
#include "ptx/shared.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PROBE_SMEM_BYTES = 32768, MAX_PATTERNS = 4096, FIELDS = 4 + 32 };

template <int W>
__global__ void probe_load(const unsigned* offset, unsigned mask, unsigned* sink) {
    __shared__ __align__(16) unsigned char smem[PROBE_SMEM_BYTES];
    unsigned lane = threadIdx.x;
    if (mask >> lane & 1u) sink[lane] = word_sum(ld_shared<W>(smem_address(smem) + offset[lane]));
}

/* One ldmatrix of N matrices (1, 2, 4), .trans if T. Every lane executes it (.sync.aligned);
 * lanes past 8 N give an address the instruction ignores. */
template <int N, int T>
__global__ void probe_ldmatrix(const unsigned* offset, unsigned* sink) {
    __shared__ __align__(16) unsigned char smem[PROBE_SMEM_BYTES];
    const unsigned lane = threadIdx.x, at = smem_address(smem) + offset[lane];
    unsigned r[N] = {};
    ldmatrix<N, T != 0>(r, at);
    unsigned sum = 0;
    for (int i = 0; i < N; ++i) sum += r[i];
    sink[lane] = sum;
}

/* One stmatrix (sm_90), the same shapes. */
template <int N, int T>
__global__ void probe_stmatrix(const unsigned* offset) {
    __shared__ __align__(16) unsigned char smem[PROBE_SMEM_BYTES];
    const unsigned lane = threadIdx.x, at = smem_address(smem) + offset[lane];
    unsigned v[N];
    for (int i = 0; i < N; ++i) v[i] = lane;
    stmatrix<N, T != 0>(at, v);
}

template <int W>
__global__ void probe_store(const unsigned* offset, unsigned mask) {
    __shared__ __align__(16) unsigned char smem[PROBE_SMEM_BYTES];
    typename smem_word<W>::type v;
    memset(&v, (int)threadIdx.x, sizeof v);
    unsigned lane = threadIdx.x;
    if (mask >> lane & 1u) st_shared(smem_address(smem) + offset[lane], v);
}

/* op: LDS/STS of width bytes, or ldmatrix / stmatrix of `matrices` matrices, .trans if trans
 * (width 16, mask ff / ffff / ffffffff). */
typedef struct {
    char name[64], op_name[24];
    smem_op op;
    int matrices, trans;
    unsigned width, mask, offset[32];
} pattern;

/* "load", "store", "ldmatrix.x4", "stmatrix.x2.trans", ... (the model's parser): 0 or -1. */
static int parse_op(const char* f, pattern* q) {
    unsigned matrices;
    int trans;
    if (smem_parse_op(f, &q->op, &matrices, &trans)) return -1;
    q->matrices = (int)matrices;
    q->trans = trans;
    return 0;
}

/* One field: digits only (cli.h's parser, shared by every program), below 2^32. */
static int parse_field(const char* s, int base, unsigned* out) {
    unsigned long long v;
    if (course_parse_unsigned(s, base, 0xffffffffull, &v)) return -1;
    *out = (unsigned)v;
    return 0;
}

/* "name op width mask o0..o31": exactly 36 fields; an aligned offset of a valid width inside
 * the probe's shared memory. Returns 0 or -1. */
static int parse_pattern(char* line, pattern* q) {
    char* field[FIELDS + 1];
    int n = 0;
    for (char* t = strtok(line, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
        if (n == FIELDS + 1) return -1;
        field[n++] = t;
    }
    if (n != FIELDS || strlen(field[0]) >= sizeof q->name) return -1;
    strcpy(q->name, field[0]);
    if (strlen(field[1]) >= sizeof q->op_name || parse_op(field[1], q)) return -1;
    strcpy(q->op_name, field[1]);
    if (parse_field(field[2], 10, &q->width) || parse_field(field[3], 16, &q->mask)) return -1;
    if (q->width != 1 && q->width != 2 && q->width != 4 && q->width != 8 && q->width != 16)
        return -1;
    if (q->matrices && (q->width != 16 ||
                        q->mask != (q->matrices == 4 ? 0xffffffffu : (1u << 8 * q->matrices) - 1)))
        return -1;
    for (int i = 0; i < 32; ++i)
        if (parse_field(field[4 + i], 10, &q->offset[i]) || q->offset[i] % q->width ||
            q->offset[i] > PROBE_SMEM_BYTES - q->width)
            return -1;
    return 0;
}

/* Reads the pattern file; exits 2 on a bad line, an empty file or more than max patterns. */
static int read_patterns(const char* path, pattern* p, int max) {
    FILE* f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "smem_probe: cannot open %s\n", path);
        exit(EXIT_USAGE);
    }
    char line[1024];
    int n = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        if (line[0] == '#' || line[0] == '\n') continue;
        const char* why = !strchr(line, '\n') && !feof(f) ? "line too long"
                          : n == max                      ? "too many patterns"
                          : parse_pattern(line, &p[n])
                              ? "want: name load|store|ldmatrix.xN[.trans]|stmatrix.xN[.trans] "
                                "1|2|4|8|16 HEXMASK and 32 byte offsets (matrices: 16, lanes 8N)"
                              : NULL;
        if (why) {
            fprintf(stderr, "smem_probe: %s:%d: bad pattern line (%s)\n", path, lineno, why);
            exit(EXIT_USAGE);
        }
        ++n;
    }
    fclose(f);
    if (!n) {
        fprintf(stderr, "smem_probe: %s holds no pattern\n", path);
        exit(EXIT_USAGE);
    }
    return n;
}

typedef void (*load_kernel)(const unsigned*, unsigned, unsigned*);
typedef void (*store_kernel)(const unsigned*, unsigned);
typedef void (*ldmatrix_kernel)(const unsigned*, unsigned*);
typedef void (*stmatrix_kernel)(const unsigned*);

static void launch(const pattern* p, const unsigned* d_offset, unsigned* d_sink) {
    if (p->matrices) { /* index: log2(matrices) * 2 + trans */
        static const ldmatrix_kernel lds[] = {probe_ldmatrix<1, 0>, probe_ldmatrix<1, 1>,
                                              probe_ldmatrix<2, 0>, probe_ldmatrix<2, 1>,
                                              probe_ldmatrix<4, 0>, probe_ldmatrix<4, 1>};
        static const stmatrix_kernel sts[] = {probe_stmatrix<1, 0>, probe_stmatrix<1, 1>,
                                              probe_stmatrix<2, 0>, probe_stmatrix<2, 1>,
                                              probe_stmatrix<4, 0>, probe_stmatrix<4, 1>};
        const int k = (p->matrices == 1 ? 0 : p->matrices == 2 ? 1 : 2) * 2 + p->trans;
        if (p->op == SMEM_STMATRIX)
            sts[k]<<<1, 32>>>(d_offset);
        else
            lds[k]<<<1, 32>>>(d_offset, d_sink);
        CUDA_CHECK_LAUNCH();
        return;
    }
    static const load_kernel loads[] = {probe_load<1>, probe_load<2>, probe_load<4>, probe_load<8>,
                                        probe_load<16>};
    static const store_kernel stores[] = {probe_store<1>, probe_store<2>, probe_store<4>,
                                          probe_store<8>, probe_store<16>};
    int k = p->width == 1 ? 0 : p->width == 2 ? 1 : p->width == 4 ? 2 : p->width == 8 ? 3 : 4;
    if (p->op == SMEM_STORE)
        stores[k]<<<1, 32>>>(d_offset, p->mask);
    else
        loads[k]<<<1, 32>>>(d_offset, p->mask, d_sink);
    CUDA_CHECK_LAUNCH();
}

int main(int argc, char** argv) {
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: smem_probe PATTERN_FILE\n"
                        "  launches one single-instruction kernel per pattern, in file order\n");
        return EXIT_USAGE;
    }
    static pattern p[MAX_PATTERNS];
    int n = read_patterns(argv[1], p, MAX_PATTERNS);
    course_device dev;
    int rc = course_device_open(&dev, 7, 5, "the calibration probe");
    if (rc != EXIT_OK) return rc;
    /* stmatrix came with sm_90: on an older GPU, or from code compiled for an older target (a
     * trap), a file with a stmatrix pattern is skipped whole, not measured in part. ldmatrix is
     * sm_75's, the course's minimum. */
    const course_needs stmatrix_needs = {90, "stmatrix", 0, 32, 0};
    for (int i = 0; i < n; ++i)
        if (p[i].op == SMEM_STMATRIX) {
            rc = course_require_kernel(&dev, (const void*)probe_stmatrix<1, 0>, &stmatrix_needs,
                                       "the stmatrix patterns");
            if (rc != EXIT_OK) return rc;
            break;
        }

    unsigned *d_offset, *d_sink;
    CUDA_CHECK(cudaMalloc(&d_offset, 32 * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_sink, 32 * sizeof(unsigned)));
    for (int i = 0; i < n; ++i) {
        CUDA_CHECK(cudaMemcpy(d_offset, p[i].offset, sizeof p[i].offset, cudaMemcpyHostToDevice));
        launch(&p[i], d_offset, d_sink);
        printf("%d %s %s %u %08x\n", i, p[i].name, p[i].op_name, p[i].width, p[i].mask);
    }
    CUDA_CHECK(cudaFree(d_offset));
    CUDA_CHECK(cudaFree(d_sink));
    return EXIT_OK;
}
