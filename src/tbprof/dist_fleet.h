/* dist_fleet: the fleet tables of the distributed view (`gpuprof dist
 * --fleet`, docs/dist.md "Fleet tables"): who is late at the collectives
 * (stragglers), by how much the ranks' arrivals and exits differ (skew),
 * the collectives' algorithm and bus bandwidth, and the spread of step
 * times over the ranks (balance).
 *
 * Computed from a finished dist_result (its workers' nodes and steps, the
 * same whether they came from traces or from rank summaries, so the tables
 * are too). A collective instance is the k-th call of a name in a process
 * group (record_param_comms' "Process Group Name"; calls without one form
 * one group) on each worker that has one; its arrival on a
 * worker is the start of its first kernel, its exit the end of its last
 * (the CPU op's range when it launched none). When every call of a name in
 * a group has a sequence number (record_param_comms' "Seq"), the
 * instance is the call of that number instead. Times are exact int64 ns.
 *
 * Owns the arrays it returns (dist_fleet_free). Depends on core and
 * tbprof/dist only; prints nothing.
 */
#ifndef GP_DIST_FLEET_H
#define GP_DIST_FLEET_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "tbprof/dist.h"

/* Per worker (in the order of dist_result.w). */
struct fleet_rank {
	size_t worker;	   /* index in dist_result.w */
	int64_t instances; /* collective instances it took part in */
	int64_t last;	   /* instances it arrived last at (skew > 0) */
	int64_t caused;	   /* Σ over those: Σ others' wait for it, ns */
	int64_t waited;	   /* Σ over all its instances: last arrival - its arrival */
	int64_t step_mean; /* mean step time (truncated), ns; -1 without steps */
	int64_t step_rank; /* 1 = the slowest mean step; 0 without steps */
	/* Σ over the instances it arrived last at of how much longer than
	 * the instance's median it computed, loaded data, idled before
	 * arriving (docs/dist.md "Straggler causes"), ns */
	int64_t late[3];
	bool causes_unknown; /* some of those instances lack the values */
};
/* late[] indexes, and the cause of a row: the largest late value (the
 * first on ties), FLEET_CAUSE_OTHER when all are 0. */
enum { FLEET_LATE_COMPUTE, FLEET_LATE_INPUT, FLEET_LATE_LAUNCH, FLEET_CAUSE_OTHER };
/* "compute", "input", "launch", "other"; NULL for a row that never
 * arrived last or whose causes are unknown. */
const char *dist_fleet_cause(const struct fleet_rank *r);

/* One collective instance. */
struct fleet_inst {
	uint32_t name; /* id in dist_result.pool */
	uint32_t pg;   /* process group name, id in the pool; 0 unknown */
	int64_t call;  /* k: the k-th call (from 0) of name in pg */
	int64_t step;  /* its step on the first worker having it (DIST_NO_STEP) */
	int64_t ranks; /* workers having it */
	int64_t arrival_skew, exit_skew, spread;
	size_t first, last; /* workers arriving first and last (lowest index on ties) */
	int64_t bytes;	    /* its bytes on the first worker having it */
	int64_t transfer;   /* min over the workers of exit - arrival */
};

/* Per (collective name, process group). */
struct fleet_coll {
	uint32_t name, pg;
	size_t order; /* of the name's first appearance */
	int64_t instances;
	int64_t arrival_sum, arrival_max, exit_sum, exit_max, spread_max;
};

/* Per (collective name, message size bucket [2^b, 2^(b+1)) bytes). */
struct fleet_bw {
	uint32_t name;
	int64_t bucket; /* 2^b; 0 for messages of 0 bytes */
	int64_t instances, ranks;
	int64_t bytes, time; /* Σ message bytes S (docs/dist.md), Σ transfer ns */
	double factor;	     /* bus bandwidth factor at `ranks`; < 0 unknown type */
};

/* Per step number. */
struct fleet_step {
	int64_t step;
	int64_t ranks;
	int64_t min, median, max; /* median: the lower middle of the sorted times */
	size_t min_worker, max_worker;
};

struct fleet_result {
	struct fleet_rank *rank; /* sorted: culprit first */
	size_t nrank;
	struct fleet_inst *inst; /* worst arrival skew first */
	size_t ninst;
	struct fleet_coll *coll; /* largest total arrival skew first */
	size_t ncoll;
	struct fleet_bw *bw; /* by name (first appearance), then bucket */
	size_t nbw;
	struct fleet_step *step; /* by step number */
	size_t nstep;
};

/* Computes the fleet tables of d (after dist_finish). 0 or ERR_NOMEM. */
int dist_fleet(const struct dist_result *d, struct fleet_result *f, struct err *e);
void dist_fleet_free(struct fleet_result *f);
/* The bus bandwidth factor of a collective named `name` on n ranks:
 * all_reduce 2(n-1)/n; all_gather, reduce_scatter, all_to_all (n-1)/n;
 * broadcast, reduce 1; -1 for other names. */
double dist_fleet_bus_factor(const char *name, int64_t n);

#endif
