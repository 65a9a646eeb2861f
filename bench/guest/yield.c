// SPDX-License-Identifier: GPL-2.0
/*
 * csbench-yield: the SMT yield this guest's cores give, measured. One
 * worker per sibling, pinned, started once; then short phases alternate:
 * on every core the first sibling works alone (the second waits on a
 * futex, idle), then both work. A core's yield is the work both siblings
 * did in all "both" phases over the work the first did in all "alone"
 * phases, per second of each (1.0: SMT adds nothing; 2.0: a sibling is a
 * whole second CPU). Many short alternations put drift in the machine's
 * own speed into both sides alike; ratios of sums rather than of single
 * phases keep a disturbed phase from deciding. The cores run at the same
 * time (under TCG each has its own host CPU). The first WARMUP pairs are
 * run and not counted: right after boot the first pairs read 2-5% high
 * (six runs in a row in one boot: the first highest in each of three
 * boots). Prints one JSON object.
 *
 * usage: csbench-yield [PAIRS [PHASE_MS [WARMUP]]]
 *        (default 30 pairs of 150 ms after 4 warm-up pairs, about 12 s)
 */
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CORES	8
#define MAX_PAIRS	200
#define SPLITS		4	/* the pairs in this many parts give the spread */

struct shared {
	int seq;			/* phase number; workers wait for it to move */
	double end;			/* when the current phase stops */
	int both;			/* the current phase runs both siblings */
	int quit;
	/* per worker (core * 2 + sibling) and phase: units done, seconds worked */
	double units[2 * MAX_CORES][2 * MAX_PAIRS];
	double secs[2 * MAX_CORES][2 * MAX_PAIRS];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void futex_wait(int *addr, int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT, val, NULL, NULL, 0);
}

static void futex_wake(int *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE, 1 << 30, NULL, NULL, 0);
}

/* Worker @w (sibling @sib of its core) on @cpu: works in the phases it is in. */
static pid_t worker(struct shared *sh, int w, int sib, int cpu)
{
	volatile unsigned long x = 1;
	int seen = 0, i, phase;
	unsigned long units;
	cpu_set_t set;
	double began;
	pid_t pid = fork();

	if (pid)
		return pid;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(1);
	for (;;) {
		while ((phase = __atomic_load_n(&sh->seq, __ATOMIC_ACQUIRE)) == seen)
			futex_wait(&sh->seq, seen);
		seen = phase;
		if (sh->quit)
			_exit(0);
		if (sib == 1 && !sh->both)
			continue;	/* idle: back to the futex */
		units = 0;
		began = now();
		/* A unit is a fixed amount of integer work between clock reads. */
		while (now() < sh->end) {
			for (i = 0; i < 4096; i++)
				x = x * 2862933555777941757UL + 3037000493UL;
			units++;
		}
		sh->units[w][phase - 1] = units;
		sh->secs[w][phase - 1] = now() - began;
	}
}

/* The siblings of the online cores: cpu and its first sibling. */
static int read_cores(int cores[][2], int max)
{
	char path[128];
	int cpu, n = 0, a, b, i, seen;
	FILE *f;

	for (cpu = 0; cpu < 64 && n < max; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%d%*[,-]%d", &a, &b) != 2)
			b = -1;
		fclose(f);
		for (i = 0, seen = 0; i < n; i++)
			seen |= cores[i][0] == a;
		if (!seen && b >= 0) {
			cores[n][0] = a;
			cores[n][1] = b;
			n++;
		}
	}
	return n;
}

/*
 * Sibling @k of core @c in the "both" phases over the first sibling alone
 * (ideally Y / 2 each): says which sibling an emulation shortchanges.
 */
static double sibling_share(const struct shared *sh, int c, int k, int from, int to)
{
	double alone_u = 0, alone_s = 0, u = 0, s = 0;
	int p;

	for (p = from; p < to; p++) {
		alone_u += sh->units[2 * c][2 * p];
		alone_s += sh->secs[2 * c][2 * p];
		u += sh->units[2 * c + k][2 * p + 1];
		s += sh->secs[2 * c + k][2 * p + 1];
	}
	return alone_u > 0 && alone_s > 0 && s > 0 ? (u / s) / (alone_u / alone_s) : 0;
}

/* Core @c's yield over pairs [from, to): work rate of both over alone. */
static double core_yield(const struct shared *sh, int c, int from, int to)
{
	double alone_u = 0, alone_s = 0, both_u = 0, both_s = 0;
	int p;

	for (p = from; p < to; p++) {
		alone_u += sh->units[2 * c][2 * p];
		alone_s += sh->secs[2 * c][2 * p];
		/* Each sibling's rate over its own time, summed. */
		both_u += sh->units[2 * c][2 * p + 1] + sh->units[2 * c + 1][2 * p + 1];
		both_s += (sh->secs[2 * c][2 * p + 1] + sh->secs[2 * c + 1][2 * p + 1]) / 2;
	}
	return alone_u > 0 && alone_s > 0 && both_s > 0 ? (both_u / both_s) / (alone_u / alone_s) : 0;
}

int main(int argc, char **argv)
{
	int pairs = argc > 1 ? atoi(argv[1]) : 30, phase_ms = argc > 2 ? atoi(argv[2]) : 150;
	int warmup = argc > 3 ? atoi(argv[3]) : 4;
	double yields[MAX_CORES], parts[SPLITS * MAX_CORES], lo = 1e9, hi = 0, sum = 0;
	double alone_rate = 0, alone_s = 0;
	int cores[MAX_CORES][2], n, c, k, p, np = 0;
	pid_t pids[2 * MAX_CORES];
	struct shared *sh;

	if (pairs < SPLITS || pairs > MAX_PAIRS || warmup < 0 || warmup > MAX_PAIRS - pairs ||
	    phase_ms < 10 ||
	    phase_ms > 10000) {
		fprintf(stderr, "usage: csbench-yield [PAIRS [PHASE_MS (10..10000) [WARMUP]]]\n"
			"  (PAIRS at least %d, PAIRS + WARMUP at most %d)\n", SPLITS, MAX_PAIRS);
		return 2;
	}
	n = read_cores(cores, MAX_CORES);
	if (n < 1) {
		printf("{\"error\": \"no core with two online siblings (SMT off?)\"}\n");
		return 1;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		printf("{\"error\": \"mmap: %s\"}\n", strerror(errno));
		return 1;
	}
	memset(sh, 0, sizeof(*sh));
	for (c = 0; c < n; c++)
		for (k = 0; k < 2; k++)
			pids[np++] = worker(sh, 2 * c + k, k, cores[c][k]);
	usleep(200000);		/* every worker pinned and waiting */
	for (p = 0; p < 2 * (warmup + pairs); p++) {
		sh->both = p % 2;
		sh->end = now() + 0.005 + phase_ms / 1000.0;
		__atomic_store_n(&sh->seq, p + 1, __ATOMIC_RELEASE);
		futex_wake(&sh->seq);
		/* Until the phase is over and its workers have written. */
		usleep(phase_ms * 1000 + 25000);
	}
	sh->quit = 1;
	__atomic_store_n(&sh->seq, 2 * (warmup + pairs) + 1, __ATOMIC_RELEASE);
	futex_wake(&sh->seq);
	while (np)
		waitpid(pids[--np], NULL, 0);

	for (c = 0; c < n; c++) {
		yields[c] = core_yield(sh, c, warmup, warmup + pairs);
		sum += yields[c];
		for (k = 0; k < SPLITS; k++) {
			double y = core_yield(sh, c, warmup + k * pairs / SPLITS,
					      warmup + (k + 1) * pairs / SPLITS);

			parts[c * SPLITS + k] = y;
			lo = y < lo ? y : lo;
			hi = y > hi ? y : hi;
		}
		for (p = warmup; p < warmup + pairs; p++) {
			alone_rate += sh->units[2 * c][2 * p];
			alone_s += sh->secs[2 * c][2 * p];
		}
	}
	printf("{\"yield\": %.4f, \"yield_min\": %.4f, \"yield_max\": %.4f, "
	       "\"alone_units_per_s\": %.1f, \"pairs\": %d, \"warmup_pairs\": %d, "
	       "\"phase_ms\": %d, \"cores\": %d, \"per_core\": [", sum / n, lo, hi,
	       alone_s > 0 ? alone_rate / alone_s : 0, pairs, warmup, phase_ms, n);
	for (c = 0; c < n; c++)
		printf("%s%.4f", c ? ", " : "", yields[c]);
	printf("], \"parts\": [");
	for (c = 0; c < n * SPLITS; c++)
		printf("%s%.4f", c ? ", " : "", parts[c]);
	printf("], \"sibling_shares\": [");
	for (c = 0; c < n; c++)
		printf("%s[%.4f, %.4f]", c ? ", " : "", sibling_share(sh, c, 0, warmup, warmup + pairs),
		       sibling_share(sh, c, 1, warmup, warmup + pairs));
	printf("]}\n");
	return 0;
}
