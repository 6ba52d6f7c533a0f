/* The warp simulator (warp_sim.h): one POSIX thread per simulated thread, and barriers that count
 * generations so that they can be used again at once. Host code. */
#include "warp_sim.h"

#include "host/check.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

/* All `count` parties wait until every one has arrived. */
typedef struct {
    pthread_mutex_t m;
    pthread_cond_t cv;
    int count, arrived;
    long generation;
} sim_barrier;

typedef struct {
    int threads;
    sim_barrier all, warps[32];
    float exchange[1024]; /* each simulated thread's value in the shuffle under way */
} sim_block;

static sim_block block;          /* the block being run (one at a time) */
static __thread int my_tid = -1; /* the simulated thread this host thread runs */

static void barrier_init(sim_barrier* b, int count) {
    pthread_mutex_init(&b->m, NULL);
    pthread_cond_init(&b->cv, NULL);
    b->count = count;
    b->arrived = 0;
    b->generation = 0;
}

static void barrier_destroy(sim_barrier* b) {
    pthread_mutex_destroy(&b->m);
    pthread_cond_destroy(&b->cv);
}

/* what: the operation, named in the message if some party never comes (a shuffle or a barrier
 * that part of a warp or block skipped: a hang on the GPU too). */
static void barrier_wait(sim_barrier* b, const char* what) {
    pthread_mutex_lock(&b->m);
    const long g = b->generation;
    if (++b->arrived == b->count) {
        b->arrived = 0;
        ++b->generation;
        pthread_cond_broadcast(&b->cv);
    } else {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 20;
        while (b->generation == g)
            if (pthread_cond_timedwait(&b->cv, &b->m, &until) == ETIMEDOUT && b->generation == g)
                die("warp simulator: thread %d waited 20 s in %s for %d of %d threads: do all the "
                    "lanes of the warp (all threads of the block) make the same calls?",
                    my_tid, what, b->count - b->arrived, b->count);
    }
    pthread_mutex_unlock(&b->m);
}

/* One step of a shuffle: every lane publishes v, then reads lane `from`'s (its own if `from` is
 * outside the warp), and waits again so that the next shuffle cannot overwrite a value still to
 * be read. */
static float shuffle(float v, int from) {
    const int warp = my_tid / 32;
    block.exchange[my_tid] = v;
    barrier_wait(&block.warps[warp], "a shuffle");
    const float r = from >= 0 && from < 32 ? block.exchange[warp * 32 + from] : v;
    barrier_wait(&block.warps[warp], "a shuffle");
    return r;
}

typedef struct {
    int tid;
    void (*body)(int, void*);
    void* ctx;
} sim_thread;

static void* sim_thread_main(void* p) {
    const sim_thread* t = (const sim_thread*)p;
    my_tid = t->tid;
    t->body(t->tid, t->ctx);
    return NULL;
}

void warp_sim_run(int threads, void (*body)(int, void*), void* ctx) {
    if (threads < 32 || threads > 1024 || threads % 32) die("warp_sim_run: %d threads", threads);
    block.threads = threads;
    barrier_init(&block.all, threads);
    for (int w = 0; w < 32; ++w) barrier_init(&block.warps[w], 32);
    pthread_t pool[1024];
    sim_thread args[1024];
    for (int t = 0; t < threads; ++t) {
        args[t].tid = t;
        args[t].body = body;
        args[t].ctx = ctx;
        if (pthread_create(&pool[t], NULL, sim_thread_main, &args[t]))
            die("warp simulator: cannot start host thread %d of %d", t, threads);
    }
    for (int t = 0; t < threads; ++t) pthread_join(pool[t], NULL);
    barrier_destroy(&block.all);
    for (int w = 0; w < 32; ++w) barrier_destroy(&block.warps[w]);
}

int warp_sim_tid(void) {
    return my_tid;
}
int warp_sim_threads(void) {
    return block.threads;
}
float warp_sim_shfl_down(float v, unsigned delta) {
    return shuffle(v, my_tid % 32 + (int)delta);
}
float warp_sim_shfl_xor(float v, unsigned lane_mask) {
    return shuffle(v, (int)((unsigned)(my_tid % 32) ^ lane_mask));
}
void warp_sim_syncthreads(void) {
    barrier_wait(&block.all, "__syncthreads");
}
