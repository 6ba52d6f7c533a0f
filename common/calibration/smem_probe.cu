/* smem_probe: issues exactly one shared-memory instruction per launch, one launch per line of a
 * pattern file, so that Nsight Compute can count the wavefronts of each access
 * (calibrate.py runs it). Each kernel is one warp; lane i uses offset[i] if bit i of the mask
 * is set. The PTX helpers guarantee one LDS/STS of the named width (calibrate.py --sass checks
 * the machine code). */
#include "check.h"
#include "device.h"
#include "smem_access.cuh"

#include <stdio.h>
#include <string.h>

enum { PROBE_SMEM_BYTES = 32768, MAX_PATTERNS = 4096 };

template <int W>
__global__ void probe_load(const unsigned* offset, unsigned mask, unsigned* sink) {
    __shared__ __align__(16) unsigned char smem[PROBE_SMEM_BYTES];
    unsigned lane = threadIdx.x;
    if (mask >> lane & 1u) sink[lane] = word_sum(ld_shared<W>(smem_address(smem) + offset[lane]));
}

template <int W>
__global__ void probe_store(const unsigned* offset, unsigned mask) {
    __shared__ __align__(16) unsigned char smem[PROBE_SMEM_BYTES];
    typename smem_word<W>::type v;
    memset(&v, (int)threadIdx.x, sizeof v);
    unsigned lane = threadIdx.x;
    if (mask >> lane & 1u) st_shared(smem_address(smem) + offset[lane], v);
}

typedef struct {
    char name[64];
    int store;
    unsigned width, mask, offset[32];
} pattern;

/* Reads "name op width mask o0..o31" lines; returns the count, or exits 2 on a bad line. */
static int read_patterns(const char* path, pattern* p, int max) {
    FILE* f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "smem_probe: cannot open %s\n", path);
        exit(EXIT_USAGE);
    }
    char line[1024], op[16];
    int n = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (n == max) break;
        pattern* q = &p[n];
        int used = 0;
        int ok = sscanf(line, "%63s %15s %u %x%n", q->name, op, &q->width, &q->mask, &used) == 4;
        const char* s = line + used;
        for (int i = 0; ok && i < 32; ++i) {
            int k = 0;
            ok = sscanf(s, "%u%n", &q->offset[i], &k) == 1;
            s += k;
        }
        q->store = strcmp(op, "store") == 0;
        ok = ok && (q->store || strcmp(op, "load") == 0);
        ok = ok && (q->width == 4 || q->width == 8 || q->width == 16);
        for (int i = 0; ok && i < 32; ++i)
            ok = q->offset[i] % q->width == 0 && q->offset[i] + q->width <= PROBE_SMEM_BYTES;
        if (!ok) {
            fprintf(stderr, "smem_probe: %s:%d: bad pattern line\n", path, lineno);
            exit(EXIT_USAGE);
        }
        ++n;
    }
    fclose(f);
    return n;
}

static void launch(const pattern* p, const unsigned* d_offset, unsigned* d_sink) {
    switch (p->width * 2 + p->store) {
    case 8:
        probe_load<4><<<1, 32>>>(d_offset, p->mask, d_sink);
        break;
    case 16:
        probe_load<8><<<1, 32>>>(d_offset, p->mask, d_sink);
        break;
    case 32:
        probe_load<16><<<1, 32>>>(d_offset, p->mask, d_sink);
        break;
    case 9:
        probe_store<4><<<1, 32>>>(d_offset, p->mask);
        break;
    case 17:
        probe_store<8><<<1, 32>>>(d_offset, p->mask);
        break;
    case 33:
        probe_store<16><<<1, 32>>>(d_offset, p->mask);
        break;
    }
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
    int rc = course_device_open(&dev, 7, 0, "the calibration probe");
    if (rc != EXIT_OK) return rc;

    unsigned *d_offset, *d_sink;
    CUDA_CHECK(cudaMalloc(&d_offset, 32 * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_sink, 32 * sizeof(unsigned)));
    for (int i = 0; i < n; ++i) {
        CUDA_CHECK(cudaMemcpy(d_offset, p[i].offset, sizeof p[i].offset, cudaMemcpyHostToDevice));
        launch(&p[i], d_offset, d_sink);
        printf("%d %s %s %u %08x\n", i, p[i].name, p[i].store ? "store" : "load", p[i].width,
               p[i].mask);
    }
    CUDA_CHECK(cudaFree(d_offset));
    CUDA_CHECK(cudaFree(d_sink));
    return EXIT_OK;
}
