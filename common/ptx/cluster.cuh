/* Thread block clusters (sm_90), one line of PTX each: the blocks of a cluster run at once on one
 * GPC, and each can reach the others' shared memory. Chapter 08's hgemm_wgmma_cluster uses them
 * for a pair of blocks that share B's slices (tma_load_2d_multicast, tma.cuh).
 *
 *   %cluster_ctarank, %clusterid.x,   this block's rank in its cluster; its cluster's index and
 *   %nclusterid.x                     the number of clusters along x
 *   fence.mbarrier_init.release.cluster
 *                                     this thread's mbarrier.init visible to the other blocks
 *                                     (they arrive on the barriers, their copies complete on them)
 *   barrier.cluster.arrive.release +  every thread of every block of the cluster arrives, then
 *   barrier.cluster.wait.acquire      waits for the others: what each did before is seen after
 *   mapa.shared::cluster              a shared address of this block's, as the same offset in
 *                                     block `rank` of the cluster
 *   mbarrier.arrive.shared::cluster   one arrival on a barrier of any block of the cluster
 *                                     (release at the block's scope, the default; with
 *                                     .release.cluster, and .acquire.cluster on the waits, chapter
 *                                     08's step 21 ran 2.4 times slower)
 *
 * Compiled for a target older than sm_90, each is a trap. */
#ifndef COURSE_PTX_CLUSTER_CUH
#define COURSE_PTX_CLUSTER_CUH

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define COURSE_CLUSTER_PTX(...) asm volatile(__VA_ARGS__)
#else
#define COURSE_CLUSTER_PTX(...) __trap()
#endif

static __device__ __forceinline__ unsigned cluster_rank(void) {
    unsigned r = 0;
    COURSE_CLUSTER_PTX("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

static __device__ __forceinline__ unsigned cluster_index(void) {
    unsigned c = 0;
    COURSE_CLUSTER_PTX("mov.u32 %0, %%clusterid.x;" : "=r"(c));
    return c;
}

static __device__ __forceinline__ unsigned cluster_count(void) {
    unsigned n = 0;
    COURSE_CLUSTER_PTX("mov.u32 %0, %%nclusterid.x;" : "=r"(n));
    return n;
}

static __device__ __forceinline__ void fence_mbarrier_init_cluster(void) {
    COURSE_CLUSTER_PTX("fence.mbarrier_init.release.cluster;" ::: "memory");
}

static __device__ __forceinline__ void cluster_sync(void) {
    COURSE_CLUSTER_PTX("barrier.cluster.arrive.release;" ::: "memory");
    COURSE_CLUSTER_PTX("barrier.cluster.wait.acquire;" ::: "memory");
}

static __device__ __forceinline__ unsigned cluster_map_shared(unsigned addr, unsigned rank) {
    unsigned remote = 0;
    COURSE_CLUSTER_PTX("mapa.shared::cluster.u32 %0, %1, %2;"
                       : "=r"(remote)
                       : "r"(addr), "r"(rank));
    return remote;
}

/* bar: a shared::cluster address (cluster_map_shared). */
static __device__ __forceinline__ void mbarrier_arrive_cluster(unsigned bar) {
    COURSE_CLUSTER_PTX("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(bar) : "memory");
}

#undef COURSE_CLUSTER_PTX
#endif
