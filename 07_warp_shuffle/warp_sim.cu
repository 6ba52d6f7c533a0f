/* The warp simulator (warp_sim.h): host threads and generation-counting barriers. Host code. */
#include "warp_sim.h"

#include "check.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace {

thread_local int my_tid = -1; /* the simulated thread this host thread runs */

/* All `count` parties wait until every one has arrived; reusable. */
struct barrier {
    std::mutex m;
    std::condition_variable cv;
    int count = 0, arrived = 0;
    long generation = 0;
    /* what: the operation, named in the message if some party never comes (a shuffle or a
     * barrier that part of a warp or block skipped: a hang on the GPU too). */
    void wait(const char* what) {
        std::unique_lock<std::mutex> lock(m);
        const long g = generation;
        if (++arrived == count) {
            arrived = 0;
            ++generation;
            cv.notify_all();
        } else if (!cv.wait_for(lock, std::chrono::seconds(20), [&] { return generation != g; })) {
            die("warp simulator: thread %d waited 20 s in %s for %d of %d threads: do all the "
                "lanes of the warp (all threads of the block) make the same calls?",
                my_tid, what, count - arrived, count);
        }
    }
};

struct block {
    int threads = 0;
    barrier all;
    std::vector<barrier> warps = std::vector<barrier>(32);
    float exchange[1024];
};

block* current;

/* One step of a shuffle: every lane publishes v, then reads lane `from`'s (its own if `from` is
 * outside the warp), and waits again so that the next shuffle cannot overwrite a value still to
 * be read. */
float shuffle(float v, int from) {
    block* b = current;
    const int warp = my_tid / 32;
    b->exchange[my_tid] = v;
    b->warps[warp].wait("a shuffle");
    const float r = from >= 0 && from < 32 ? b->exchange[warp * 32 + from] : v;
    b->warps[warp].wait("a shuffle");
    return r;
}

} // namespace

void warp_sim_run(int threads, void (*body)(int, void*), void* ctx) {
    if (threads < 32 || threads > 1024 || threads % 32) die("warp_sim_run: %d threads", threads);
    block b;
    b.threads = threads;
    b.all.count = threads;
    for (auto& w : b.warps) w.count = 32;
    current = &b;
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([=] {
            my_tid = t;
            body(t, ctx);
        });
    for (auto& t : pool) t.join();
    current = nullptr;
}

int warp_sim_tid(void) {
    return my_tid;
}
int warp_sim_threads(void) {
    return current->threads;
}
float warp_sim_shfl_down(float v, unsigned delta) {
    return shuffle(v, my_tid % 32 + (int)delta);
}
float warp_sim_shfl_up(float v, unsigned delta) {
    return shuffle(v, my_tid % 32 - (int)delta);
}
float warp_sim_shfl_xor(float v, unsigned lane_mask) {
    return shuffle(v, (int)((unsigned)(my_tid % 32) ^ lane_mask));
}
void warp_sim_syncwarp(void) {
    current->warps[my_tid / 32].wait("__syncwarp");
}
void warp_sim_syncthreads(void) {
    current->all.wait("__syncthreads");
}
