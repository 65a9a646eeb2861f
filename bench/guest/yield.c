// SPDX-License-Identifier: GPL-2.0
/*
 * csbench-yield: the SMT yield this guest's cores give, measured. In each
 * round every core runs a fixed CPU-bound loop on one sibling alone for a
 * window, then on both siblings at once for the same window; the core's
 * yield is what both did together over what one did alone (1.0: SMT adds
 * nothing; 2.0: a sibling is a whole second CPU). The cores are measured
 * at the same time (under TCG each has its own host CPU). Prints one JSON
 * object: the median over cores and rounds, its range, and each round.
 *
 * usage: csbench-yield [ROUNDS [WINDOW_MS]]   (default 5 rounds of 500 ms)
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CORES	8
#define MAX_ROUNDS	50
#define START_LEAD_S	0.2

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Work on @cpu from @start (or when it got there, if later) until @end;
 * its rate, units per second of its own window, goes to *@out.
 */
static pid_t worker(int cpu, double start, double end, volatile double *out)
{
	double began;
	volatile unsigned long x = 1;
	unsigned long units = 0;
	cpu_set_t set;
	pid_t pid = fork();
	int i;

	if (pid)
		return pid;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(1);
	while ((began = now()) < start)
		;
	/* A unit is a fixed amount of integer work between clock reads. */
	while (now() < end) {
		for (i = 0; i < 4096; i++)
			x = x * 2862933555777941757UL + 3037000493UL;
		units++;
	}
	*out = end > began ? units / (end - began) : 0;
	_exit(0);
}

/* The siblings of the online cores: cpu and its first sibling, or -1. */
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

/* Run one phase: on every core, its first sibling, and with @both the second. */
static void phase(int cores[][2], int n, int both, double window, double *done)
{
	volatile double *out = mmap(NULL, 2 * MAX_CORES * sizeof(double), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pids[2 * MAX_CORES];
	/* All begin together, well after the forks (slow under TCG). */
	double start = now() + START_LEAD_S;
	int c, k, np = 0;

	for (c = 0; c < n; c++)
		for (k = 0; k <= both; k++)
			pids[np++] = worker(cores[c][k], start, start + window, &out[2 * c + k]);
	while (np)
		waitpid(pids[--np], NULL, 0);
	for (c = 0; c < 2 * n; c++)
		done[c] = out[c];
	munmap((void *)out, 2 * MAX_CORES * sizeof(double));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 5, window_ms = argc > 2 ? atoi(argv[2]) : 500;
	static double yields[MAX_ROUNDS * MAX_CORES], sorted[MAX_ROUNDS * MAX_CORES];
	double alone[2 * MAX_CORES], both[2 * MAX_CORES], alone_rate = 0;
	int cores[MAX_CORES][2], n, r, c, ny = 0;

	if (rounds < 1 || rounds > MAX_ROUNDS || window_ms < 10 || window_ms > 10000) {
		fprintf(stderr, "usage: csbench-yield [ROUNDS (1..%d) [WINDOW_MS (10..10000)]]\n",
			MAX_ROUNDS);
		return 2;
	}
	n = read_cores(cores, MAX_CORES);
	if (n < 1) {
		printf("{\"error\": \"no core with two online siblings (SMT off?)\"}\n");
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		phase(cores, n, 0, window_ms / 1000.0, alone);
		phase(cores, n, 1, window_ms / 1000.0, both);
		for (c = 0; c < n; c++) {
			alone_rate += alone[2 * c] / (rounds * n);
			yields[ny++] = alone[2 * c] > 0 ?
				       (both[2 * c] + both[2 * c + 1]) / alone[2 * c] : 0;
		}
	}
	memcpy(sorted, yields, ny * sizeof(double));
	qsort(sorted, ny, sizeof(double), cmp_double);
	printf("{\"yield\": %.4f, \"yield_min\": %.4f, \"yield_max\": %.4f, "
	       "\"alone_units_per_s\": %.1f, \"rounds\": %d, \"window_ms\": %d, \"cores\": %d, "
	       "\"each\": [", ny % 2 ? sorted[ny / 2] : (sorted[ny / 2 - 1] + sorted[ny / 2]) / 2,
	       sorted[0], sorted[ny - 1], alone_rate, rounds, window_ms, n);
	for (c = 0; c < ny; c++)
		printf("%s%.4f", c ? ", " : "", yields[c]);
	printf("]}\n");
	return 0;
}
