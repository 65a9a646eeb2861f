// SPDX-License-Identifier: GPL-2.0
/*
 * csbench-fidelity: how faithfully this guest's SMT siblings behave as
 * SMT threads do, measured in a few seconds before the cells. Real SMT
 * threads run at the same time, so a task woken on one answers within
 * microseconds whatever its sibling does. An emulation that time-shares
 * the two siblings on one host CPU makes a wake-up wait for the host to
 * switch (its tick, milliseconds) whenever the sibling is busy. Four
 * measurements, each a thread pinned to CPU 1 sleeping to absolute 1 ms
 * deadlines and recording how late it woke:
 *   sibling_idle     CPU 0 idle (the baseline)
 *   sibling_busy     a spinner on CPU 0, CPU 1's SMT sibling
 *   other_core_busy  a spinner on CPU 2, another core (when there is one)
 * and sibling_rtt: two threads on CPU 0 and CPU 1 waking each other
 * through a futex (a wake round trip between siblings).
 * A wake-up later than the period is "missed" (the deadline after it has
 * already passed). Prints one JSON object; needs SMT on (CPUs 0 and 1).
 *
 * usage: csbench-fidelity [WAKEUPS [RTTS]]   (default 1000 and 2000)
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PERIOD_NS	1000000L
#define MAX_SAMPLES	20000

static atomic_int spin_stop;
static atomic_int rtt_word;

static long long ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void *spinner(void *arg)
{
	volatile unsigned long x = 0;

	if (pin((int)(long)arg))
		return NULL;
	while (!atomic_load_explicit(&spin_stop, memory_order_relaxed))
		x++;
	return NULL;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

struct summary {
	double avg_us, p99_us, max_us, missed_pct;
	int n;
};

static void summarise(long long *v, int n, int missed, struct summary *s)
{
	long long sum = 0;
	int i;

	qsort(v, n, sizeof(*v), cmp_ll);
	for (i = 0; i < n; i++)
		sum += v[i];
	s->n = n;
	s->avg_us = n ? sum / 1e3 / n : 0;
	s->p99_us = n ? v[(int)(0.99 * (n - 1))] / 1e3 : 0;
	s->max_us = n ? v[n - 1] / 1e3 : 0;
	s->missed_pct = n ? 100.0 * missed / n : 0;
}

/* Sleep to @n absolute 1 ms deadlines on CPU 1; how late each wake-up was. */
static int wakeups(int n, long long *late, struct summary *s)
{
	struct timespec next;
	long long deadline, t;
	int i, missed = 0;

	if (pin(1))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < n; i++) {
		next.tv_nsec += PERIOD_NS;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		t = ns_now();
		deadline = next.tv_sec * 1000000000LL + next.tv_nsec;
		late[i] = t > deadline ? t - deadline : 0;
		if (late[i] > PERIOD_NS) {
			missed++;
			/* Start again from now: one stall is one miss, not many. */
			clock_gettime(CLOCK_MONOTONIC, &next);
		}
	}
	summarise(late, n, missed, s);
	return 0;
}

/* Wake-ups on CPU 1 with a spinner on @busy_cpu (-1: none). */
static int measure(int busy_cpu, int n, long long *late, struct summary *s)
{
	pthread_t th;
	int ret;

	atomic_store(&spin_stop, 0);
	if (busy_cpu >= 0 && pthread_create(&th, NULL, spinner, (void *)(long)busy_cpu))
		return -1;
	if (busy_cpu >= 0)
		usleep(20000);	/* let it reach its CPU */
	ret = wakeups(n, late, s);
	atomic_store(&spin_stop, 1);
	if (busy_cpu >= 0)
		pthread_join(th, NULL);
	return ret;
}

static void futex_wait(atomic_int *w, int val)
{
	syscall(SYS_futex, w, FUTEX_WAIT, val, NULL, NULL, 0);
}

static void futex_wake(atomic_int *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* The CPU 0 side: answer every odd value with the next even one. */
static void *rtt_peer(void *arg)
{
	int n = (int)(long)arg, i, v;

	if (pin(0))
		return NULL;
	for (i = 0; i < n; i++) {
		while ((v = atomic_load(&rtt_word)) % 2 == 0)
			futex_wait(&rtt_word, v);
		atomic_store(&rtt_word, v + 1);
		futex_wake(&rtt_word);
	}
	return NULL;
}

static int sibling_rtt(int n, long long *rtt, struct summary *s)
{
	pthread_t th;
	long long t0;
	int i, v;

	atomic_store(&rtt_word, 0);
	if (pin(1) || pthread_create(&th, NULL, rtt_peer, (void *)(long)n))
		return -1;
	for (i = 0; i < n; i++) {
		t0 = ns_now();
		v = atomic_fetch_add(&rtt_word, 1) + 1;	/* odd: CPU 0's turn */
		futex_wake(&rtt_word);
		while (atomic_load(&rtt_word) == v)
			futex_wait(&rtt_word, v);
		rtt[i] = ns_now() - t0;
	}
	pthread_join(th, NULL);
	summarise(rtt, n, 0, s);
	return 0;
}

static void print_summary(const char *name, const struct summary *s, int last)
{
	printf("  \"%s\": {\"n\": %d, \"avg_us\": %.1f, \"p99_us\": %.1f, \"max_us\": %.1f, "
	       "\"missed_pct\": %.2f}%s\n", name, s->n, s->avg_us, s->p99_us, s->max_us,
	       s->missed_pct, last ? "" : ",");
}

static int parse_count(const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || v < 10 || v > MAX_SAMPLES)
		return -1;
	*out = (int)v;
	return 0;
}

int main(int argc, char **argv)
{
	static long long samples[MAX_SAMPLES];
	struct summary idle, busy, other = { 0 }, rtt;
	int n = 1000, nrtt = 2000;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);

	if ((argc > 1 && parse_count(argv[1], &n)) || (argc > 2 && parse_count(argv[2], &nrtt))) {
		fprintf(stderr, "usage: csbench-fidelity [WAKEUPS [RTTS]] (10 to %d each)\n",
			MAX_SAMPLES);
		return 2;
	}
	if (ncpus < 2) {
		fprintf(stderr, "csbench-fidelity: %ld CPU online: needs siblings 0 and 1\n",
			ncpus);
		return 1;
	}
	if (measure(-1, n, samples, &idle) || measure(0, n, samples, &busy) ||
	    (ncpus >= 4 && measure(2, n, samples, &other)) || sibling_rtt(nrtt, samples, &rtt)) {
		fprintf(stderr, "csbench-fidelity: %s\n", strerror(errno));
		return 1;
	}
	printf("{\n  \"period_us\": %ld,\n", PERIOD_NS / 1000);
	print_summary("sibling_idle", &idle, 0);
	print_summary("sibling_busy", &busy, 0);
	if (ncpus >= 4)
		print_summary("other_core_busy", &other, 0);
	print_summary("sibling_rtt", &rtt, 0);
	printf("  \"busy_over_idle_avg\": %.3f\n}\n",
	       idle.avg_us > 0 ? busy.avg_us / idle.avg_us : 0);
	return 0;
}
