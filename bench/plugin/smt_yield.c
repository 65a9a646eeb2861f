// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csbench's SMT yield for guests whose sibling vCPUs run on their own host
 * CPUs (multi-threaded TCG). Two busy SMT threads of one core together do Y
 * times the work of one thread alone (1 <= Y <= 2); a lone thread, its
 * sibling halted, runs at full speed. Two vCPUs on two host CPUs would do
 * 2x, so while its sibling is busy each vCPU gives up a share 1 - Y/2 of
 * its time: a per-vCPU-thread timer interrupts it every period_us, and the
 * handler spins for period_us * (1 - Y/2) if, and only as long as, a
 * sibling is busy (smt_yield_math.h).
 *
 * Why a timer and a spin: the first version took a callback on every
 * translation block to keep the books, and the callback alone made tight
 * guest loops 10x slower (csbench-yield's lone rate 6306 against 64513
 * units/s). The spin keeps the host CPU, so a guest interrupt waits at
 * most one spin, never a host scheduler tick as two siblings
 * time-sharing one host CPU do. The handler touches only atomics,
 * clock_gettime() and timer_settime(), all async-signal-safe;
 * interrupting QEMU with a lock held delays that lock's other users by
 * the same bounded spin.
 *
 * What a tick costs decides the rest. On a host that is itself a virtual
 * machine a timer signal takes its thread 30-40 us (a busy host thread
 * lost 30% to a 100 us timer; the handler starts 38 us after the tick is
 * due on average), so: the timer ticks only while its vCPU and a sibling
 * are both busy (a lone vCPU pays nothing: its lone rate doubled), and
 * the period is as long as a 200 us spin allows (400 us at 1.0; at 100 us
 * the ticks alone ate most of the guest: yield 0.20 at a target of 1.0).
 *
 * Only a vCPU's own thread sets its timer. A vCPU that turns busy or idle
 * records the change for its core (when, and an epoch) and kicks itself
 * and its busy siblings with a queued signal; the handler, in each one's
 * own thread, books the stretch it had open and starts its timer if the
 * core is now all busy. A tick that finds the core no longer all busy
 * stops it. The first version armed a sibling's timer from the other
 * thread, and a stop racing a start could leave a vCPU marked ticking
 * with its timer stopped for the rest of the boot: in one default run
 * vCPU 1 ticked 44719 times against vCPU 0's 669369, and every cell on
 * CPU 1 did twice the work of CPU 0's (results/findings/
 * 20261207-concurrent-default-run).
 *
 * How long each spin lasts comes from books (smt_yield_books_*): per
 * vCPU, the wall time its core was all busy and the part of it the guest
 * ran, that is the thread's CPU time (CLOCK_THREAD_CPUTIME_ID) less each
 * tick's delivery and return. Each spin lasts until the run share is
 * back at Y/2, at most the nominal spin. A fixed spin gave a different
 * yield in every boot (0.69-0.89 at 1.0 in three boots), because the
 * host preempts one vCPU thread for QEMU's main loop, which has no host
 * CPU of its own (vcpu1 waited 770-930 ms for a host CPU against vcpu0's
 * 54-118 ms in one run); with the books the same three boots gave
 * 0.91-0.97. The books carry over a sibling's halt (they forget only
 * by halving every 10 ms), and the timer keeps its phase through a halt
 * shorter than its period, so a
 * stretch shorter than a period is paid for at the next tick; the first
 * version started new books and a new period at every stretch, and
 * message passing, whose siblings halt every few hundred microseconds,
 * ran its first 400 us of each stretch unthrottled. The highest yield
 * below 2 this can give is about 2 * (1 - 38/400) = 1.81 on such a host.
 *
 * "Busy" is QEMU's idea of a running vCPU: the vCPU thread between the
 * resume and idle callbacks (a guest HLT, an offline CPU's play_dead loop
 * and a vCPU waiting for work are idle). Every vCPU thread sleeps once
 * before the machine starts, so its first resume, in its own thread,
 * creates its timer.
 *
 * Arguments (-plugin FILE,yield=1.3,threads=2,period_us=400,stats=PATH):
 *   yield       Y, 1.0 to 2.0 (default 1.0)
 *   threads     threads per guest core (2; QEMU numbers a core's threads
 *               consecutively, so vCPU v's siblings are v - v % threads...)
 *   period_us   the timer's period, microseconds (default 100, 10 to
 *               10000; csbench derives it from the yield and a 200 us spin)
 *   stats       file written at exit: per vCPU, time spun, the longest
 *               spin, the time ticks came late, ticks and kicks taken,
 *               the timer stopped, the host's run and wait times for its
 *               thread, and the books' totals with the yield they imply;
 *               per core, the time all its threads were busy, which each
 *               vCPU's books should cover (boot.info's yield_plugin_* keys)
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "qemu_plugin_api.h"
#include "smt_yield_math.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS	256

struct vcpu {
	atomic_int busy;	/* between resume and idle */
	atomic_int created;	/* its timer exists */
	atomic_int kick_pending;	/* a kick is queued and not yet handled */
	_Atomic uint64_t due;	/* when it ticks next, CLOCK_MONOTONIC ns */
	timer_t timer;		/* valid once created */
	pid_t tid;		/* its thread, the timer's and kicks' target */
	/*
	 * Its own thread's state (only its handler touches these): whether
	 * its timer ticks, its books (smt_yield_math.h) and the stretch
	 * beside a busy sibling not yet booked, open since open_wall_ns.
	 */
	int armed;
	struct smt_yield_books books;
	uint64_t open_wall_ns, open_cpu_ns;
	unsigned int open_epoch;
	int open;
	/* What happened, for the stats file (written by its thread only). */
	uint64_t spun_ns, max_spin_ns, late_ns, spins, ticks, kicks, idles, disarms;
	uint64_t booked_wall_ns, booked_run_ns, off_cpu_ns, broken;
} __attribute__((aligned(64)));

static struct vcpu vcpus[MAX_VCPUS];

/*
 * Per core: every change of a vCPU between busy and idle bumps its epoch
 * and records when it happened, so a handler that finds the epoch moved
 * knows when the stretch it had open ended (the change right after it
 * opened). Written by the callbacks under the core's lock; handlers only
 * read (they may interrupt a callback of their own thread).
 */
#define CHANGES	16	/* changes remembered per core */

struct core {
	atomic_flag lock;
	_Atomic unsigned int epoch;
	_Atomic uint64_t change_ns[CHANGES];
	/* Both (all) threads busy since both_since_ns; the total so far. */
	uint64_t both_since_ns, both_ns;
	int both;
} __attribute__((aligned(64)));

static struct core cores[MAX_VCPUS];
static int nvcpus, threads = 2;
static double yield = 1.0;
static uint64_t period_ns = 100000, spin_ns;
/* What returning from a tick costs, measured at start (calibrate()). */
static uint64_t return_ns;
static volatile uint64_t cal_late_ns, cal_ticks;
#define CALIBRATION_TICK	(-1)
static int tick_signal;
static char stats_path[4096];

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* Time this thread has been on a host CPU: what the host let it run. */
static uint64_t thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static struct core *core_of(unsigned int v)
{
	return &cores[v / threads];
}

/* Is any other thread of @v's core busy? */
static int sibling_busy(unsigned int v)
{
	unsigned int first = v - v % threads, i;

	for (i = first; i < first + threads && i < (unsigned int)nvcpus; i++)
		if (i != v && atomic_load(&vcpus[i].busy))
			return 1;
	return 0;
}

/* Are all threads of @v's core busy? (Both, for two threads.) */
static int core_all_busy(unsigned int v)
{
	unsigned int first = v - v % threads, i;

	for (i = first; i < first + threads && i < (unsigned int)nvcpus; i++)
		if (!atomic_load(&vcpus[i].busy))
			return 0;
	return 1;
}

/* Set vCPU @v's timer; its own thread only, so the flag cannot go stale. */
static void set_timer(unsigned int v, uint64_t ns)
{
	struct itimerspec its = { 0 };

	its.it_value.tv_sec = its.it_interval.tv_sec = (time_t)(ns / 1000000000ull);
	its.it_value.tv_nsec = its.it_interval.tv_nsec = (long)(ns % 1000000000ull);
	if (ns)
		atomic_store_explicit(&vcpus[v].due, now_ns() + ns, memory_order_relaxed);
	timer_settime(vcpus[v].timer, 0, &its, NULL);
	vcpus[v].armed = ns != 0;
}

/*
 * Ask vCPU @u's thread to look at its core again (a sibling turned busy
 * or idle): a queued signal its handler tells from a tick by si_code.
 * Only a vCPU's own thread ever sets its timer; the first version armed
 * a sibling's timer from the other thread, and a stop racing a start
 * could leave a vCPU marked ticking with its timer stopped for good
 * (vCPU 1 unthrottled for the rest of a boot).
 */
static void kick(unsigned int u)
{
	siginfo_t si;

	if (!atomic_load(&vcpus[u].created) || atomic_exchange(&vcpus[u].kick_pending, 1))
		return;
	memset(&si, 0, sizeof(si));
	si.si_signo = tick_signal;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_int = (int)u;
	if (syscall(SYS_rt_tgsigqueueinfo, getpid(), vcpus[u].tid, tick_signal, &si))
		atomic_store(&vcpus[u].kick_pending, 0);
}

/*
 * Book the stretch vCPU @v had open beside a busy sibling, up to now or
 * to the change that ended it. Its guest ran for the CPU time the host
 * gave the thread, less @lost (a tick's delivery and return); time the
 * host ran something else here (QEMU's main loop has no host CPU of its
 * own) is wall time the guest did not run, and the next spin makes up
 * for it.
 */
static void book_open(struct vcpu *c, struct core *k, unsigned int epoch, uint64_t now,
		      uint64_t cpu, uint64_t lost)
{
	uint64_t end = now, span, wall, on_cpu, run;

	if (!c->open)
		return;
	c->open = 0;
	if (epoch != c->open_epoch) {
		if (epoch - c->open_epoch >= CHANGES - 1) {
			c->broken++;
			return;
		}
		end = atomic_load(&k->change_ns[(c->open_epoch + 1) % CHANGES]);
		lost = 0;	/* the tick came after the stretch */
	}
	if (end <= c->open_wall_ns || now <= c->open_wall_ns)
		return;
	wall = end - c->open_wall_ns;
	span = now - c->open_wall_ns;
	on_cpu = cpu > c->open_cpu_ns ? cpu - c->open_cpu_ns : 0;
	if (on_cpu > span)
		on_cpu = span;
	/* The stretch's part of the thread's time on a CPU since it opened. */
	on_cpu = (uint64_t)((double)on_cpu * (double)wall / (double)span);
	run = on_cpu > lost ? on_cpu - lost : 0;
	smt_yield_books_add(&c->books, wall, run);
	c->booked_wall_ns += wall;
	c->booked_run_ns += run;
	c->off_cpu_ns += wall - on_cpu;
}

/*
 * The timer's signal or a kick, in vCPU @v's own thread. Both book what
 * ran since the last look. A tick beside a busy sibling then spins to
 * give way; a tick with the core no longer all busy stops the timer (a
 * lone vCPU must not pay for ticks: each costs its thread tens of
 * microseconds on a host that is itself a virtual machine). A kick only
 * starts the timer: it keeps its phase through a sibling's short halts,
 * so stretches shorter than a period are paid for at the next tick
 * instead of never (the books keep them).
 */
static void on_tick(int sig, siginfo_t *si, void *uc)
{
	int saved_errno = errno, is_tick = si->si_code == SI_TIMER;
	unsigned int v = (unsigned int)si->si_value.sival_int, epoch;
	struct vcpu *c;
	struct core *k;
	uint64_t start, t, due, late = 0, cpu, end;

	(void)sig;
	(void)uc;
	if (si->si_value.sival_int == CALIBRATION_TICK) {
		start = now_ns();
		due = atomic_load_explicit(&vcpus[0].due, memory_order_relaxed);
		if (start >= due) {
			cal_late_ns += (start - due) % period_ns;
			cal_ticks++;
			atomic_store_explicit(&vcpus[0].due, start - (start - due) % period_ns +
					      period_ns, memory_order_relaxed);
		}
		goto out;
	}
	if (v >= (unsigned int)nvcpus)
		goto out;
	c = &vcpus[v];
	k = core_of(v);
	if (is_tick) {
		c->ticks++;
	} else {
		c->kicks++;
		atomic_store(&c->kick_pending, 0);
	}
	start = t = now_ns();
	cpu = thread_cpu_ns();
	epoch = atomic_load_explicit(&k->epoch, memory_order_acquire);
	if (is_tick) {
		/*
		 * The tick reached us late: the host took that long to
		 * deliver it (tens of microseconds on a host that is itself
		 * a virtual machine, charged to this thread) or ran another
		 * thread here.
		 */
		due = atomic_load_explicit(&c->due, memory_order_relaxed);
		if (start >= due) {
			late = (start - due) % period_ns;
			atomic_store_explicit(&c->due, start - late + period_ns,
					      memory_order_relaxed);
		}
		c->late_ns += late;
	}
	book_open(c, k, epoch, start, cpu, late + (is_tick ? return_ns : 0));
	if (!atomic_load(&c->busy) || !sibling_busy(v)) {
		if (is_tick && c->armed) {
			set_timer(v, 0);
			c->disarms++;
		}
		goto out;
	}
	if (!c->armed)
		set_timer(v, period_ns);
	if (is_tick) {
		end = start + smt_yield_books_spin_ns(&c->books, yield,
						      spin_ns > late + return_ns ?
						      spin_ns - late - return_ns : 0, spin_ns);
		while (t < end && sibling_busy(v))
			t = now_ns();
		smt_yield_books_add(&c->books, t - start, 0);
		c->booked_wall_ns += t - start;
		c->spun_ns += t - start;
		if (t - start > c->max_spin_ns)
			c->max_spin_ns = t - start;
		c->spins++;
		cpu = thread_cpu_ns();
	}
	c->open_wall_ns = t;
	c->open_cpu_ns = cpu;
	c->open_epoch = epoch;
	c->open = 1;
out:
	errno = saved_errno;
}

/* Create vCPU @v's timer, stopped, in its own thread (the signal's target). */
static void create_timer(unsigned int v)
{
	struct sigevent ev = { 0 };
	sigset_t set;
	char msg[256];

	vcpus[v].tid = (pid_t)syscall(SYS_gettid);
	/* QEMU starts its threads with every signal blocked. */
	sigemptyset(&set);
	sigaddset(&set, tick_signal);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = tick_signal;
	ev.sigev_value.sival_int = (int)v;
	ev._sigev_un._tid = vcpus[v].tid;
	if (timer_create(CLOCK_MONOTONIC, &ev, &vcpus[v].timer)) {
		snprintf(msg, sizeof(msg), "csbench-smt-yield: vCPU %u: cannot create its timer: %s\n",
			 v, strerror(errno));
		qemu_plugin_outs(msg);
		return;
	}
	atomic_store(&vcpus[v].created, 1);
}

/*
 * vCPU @v turned busy or idle (in its own thread): record the change for
 * the core, then kick every thread of the core that must look again:
 * itself, and its busy siblings. A sibling that is idle has nothing open
 * and nothing to arm; its own resume kicks it. Stores and loads of the
 * busy flags are sequentially consistent, so of two vCPUs turning busy
 * at once at least one sees the other.
 */
static void changed(unsigned int v, int busy)
{
	unsigned int first = v - v % threads, i, e;
	struct core *k = core_of(v);
	sigset_t set, old;
	uint64_t now;
	int all;

	atomic_store(&vcpus[v].busy, busy);
	/* Our own handler must not run while we hold the core's lock. */
	sigemptyset(&set);
	sigaddset(&set, tick_signal);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	while (atomic_flag_test_and_set_explicit(&k->lock, memory_order_acquire))
		;
	now = now_ns();
	e = atomic_load_explicit(&k->epoch, memory_order_relaxed) + 1;
	atomic_store(&k->change_ns[e % CHANGES], now);
	atomic_store_explicit(&k->epoch, e, memory_order_release);
	all = core_all_busy(v);
	if (all && !k->both) {
		k->both_since_ns = now;
	} else if (!all && k->both) {
		k->both_ns += now - k->both_since_ns;
	}
	k->both = all;
	atomic_flag_clear_explicit(&k->lock, memory_order_release);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!spin_ns)
		return;
	for (i = first; i < first + threads && i < (unsigned int)nvcpus; i++)
		if (i == v || atomic_load(&vcpus[i].busy))
			kick(i);
}

static void vcpu_resume(qemu_plugin_id_t id, unsigned int v)
{
	(void)id;
	if (v >= (unsigned int)nvcpus)
		return;
	if (spin_ns && !atomic_load_explicit(&vcpus[v].created, memory_order_relaxed))
		create_timer(v);
	changed(v, 1);
}

static void vcpu_idle(qemu_plugin_id_t id, unsigned int v)
{
	(void)id;
	if (v < (unsigned int)nvcpus) {
		vcpus[v].idles++;
		changed(v, 0);
	}
}

/* The host's view of thread @tid: time on a CPU and waiting for one, ms. */
static void host_times(pid_t tid, double *run_ms, double *wait_ms)
{
	unsigned long long run = 0, wait = 0;
	char path[64];
	FILE *f;

	*run_ms = *wait_ms = -1;
	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fscanf(f, "%llu %llu", &run, &wait) == 2) {
		*run_ms = run / 1e6;
		*wait_ms = wait / 1e6;
	}
	fclose(f);
}

static void write_stats(void)
{
	double run_ms, wait_ms;
	FILE *f;
	int v;

	if (!stats_path[0])
		return;
	f = fopen(stats_path, "w");
	if (!f)
		return;
	fprintf(f, "yield=%.4f\nthreads=%d\nperiod_us=%.1f\nspin_us=%.1f\nreturn_us=%.1f\n"
		"vcpus=%d\n", yield, threads, period_ns / 1000.0, spin_ns / 1000.0,
		return_ns / 1000.0, nvcpus);
	for (v = 0; v < nvcpus; v++)
		fprintf(f, "vcpu%d_spun_ms=%.3f\nvcpu%d_max_spin_us=%.1f\nvcpu%d_late_ms=%.3f\n"
			"vcpu%d_spins=%llu\n"
			"vcpu%d_ticks=%llu\nvcpu%d_kicks=%llu\nvcpu%d_idles=%llu\n"
			"vcpu%d_disarms=%llu\n",
			v, vcpus[v].spun_ns / 1e6, v, vcpus[v].max_spin_ns / 1e3,
			v, vcpus[v].late_ns / 1e6,
			v, (unsigned long long)vcpus[v].spins,
			v, (unsigned long long)vcpus[v].ticks,
			v, (unsigned long long)vcpus[v].kicks,
			v, (unsigned long long)vcpus[v].idles,
			v, (unsigned long long)vcpus[v].disarms);
	/* Time all of a core's threads were busy: what each vCPU should book. */
	for (v = 0; v < nvcpus; v += threads) {
		struct core *k = core_of(v);
		uint64_t both = k->both_ns;

		if (k->both)
			both += now_ns() - k->both_since_ns;
		fprintf(f, "core%d_both_busy_ms=%.3f\n", v / threads, both / 1e6);
	}
	for (v = 0; v < nvcpus; v++) {
		if (!vcpus[v].tid)
			continue;
		host_times(vcpus[v].tid, &run_ms, &wait_ms);
		fprintf(f, "vcpu%d_host_run_ms=%.3f\nvcpu%d_host_wait_ms=%.3f\n",
			v, run_ms, v, wait_ms);
		/* The books' view: the run share beside a busy sibling, x 2. */
		fprintf(f, "vcpu%d_booked_ms=%.3f\nvcpu%d_booked_yield=%.4f\n"
			"vcpu%d_off_cpu_ms=%.3f\nvcpu%d_unbooked=%llu\n",
			v, vcpus[v].booked_wall_ns / 1e6, v,
			vcpus[v].booked_wall_ns ?
			2.0 * vcpus[v].booked_run_ns / vcpus[v].booked_wall_ns : 0.0,
			v, vcpus[v].off_cpu_ns / 1e6, v, (unsigned long long)vcpus[v].broken);
	}
	fclose(f);
	stats_path[0] = 0;	/* once, from atexit or the destructor */
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	write_stats();
}

__attribute__((destructor)) static void unload(void)
{
	write_stats();
}

static int arg_error(const char *arg, const char *why)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "csbench-smt-yield: argument '%s': %s\n", arg, why);
	qemu_plugin_outs(msg);
	fputs(msg, stderr);
	return -1;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

/* A real-time signal nobody in QEMU handles, for the ticks. */
static int claim_signal(void)
{
	struct sigaction sa = { 0 }, old;
	int sig;

	for (sig = SIGRTMAX - 1; sig >= SIGRTMIN; sig--) {
		if (sigaction(sig, NULL, &old) || old.sa_handler != SIG_DFL)
			continue;
		sa.sa_sigaction = on_tick;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigfillset(&sa.sa_mask);
		if (sigaction(sig, &sa, NULL))
			continue;
		return sig;
	}
	return -1;
}

/* Iterations of a counting loop in @ns of wall time. */
static uint64_t count_for(uint64_t ns)
{
	volatile uint64_t n = 0;
	uint64_t end = now_ns() + ns;
	int i;

	do {
		for (i = 0; i < 256; i++)
			n++;
	} while (now_ns() < end);
	return n;
}

/*
 * What a tick costs the thread it interrupts beyond the time it came
 * late (which the handler sees and counts as spun): the return from the
 * handler, the caches it cooled. Measured here, on the thread that loads
 * the plugin, as the work a counting loop loses to ticks at the plugin's
 * period less their lateness, over five alternations of 20 ms without
 * and with ticks. Without it the yield came out 8-11% low.
 */
static void calibrate(void)
{
	struct sigevent ev = { 0 };
	uint64_t quiet = 0, ticked = 0, ticks;
	double lost_ns;
	sigset_t set;
	timer_t t;
	int round;

	sigemptyset(&set);
	sigaddset(&set, tick_signal);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = tick_signal;
	ev.sigev_value.sival_int = CALIBRATION_TICK;
	ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_MONOTONIC, &ev, &t))
		return;
	vcpus[0].timer = t;
	cal_late_ns = cal_ticks = 0;
	for (round = 0; round < 5; round++) {
		quiet += count_for(20000000);
		set_timer(0, period_ns);
		ticked += count_for(20000000);
		set_timer(0, 0);
	}
	timer_delete(t);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	ticks = cal_ticks;
	if (!quiet || !ticks || ticked >= quiet)
		return;
	/* Time lost in all, per tick, less what the handler saw as late. */
	lost_ns = (1.0 - (double)ticked / (double)quiet) * 5 * 20000000.0 / (double)ticks -
		  (double)cal_late_ns / (double)ticks;
	if (lost_ns > 0)
		return_ns = lost_ns < period_ns / 4 ? (uint64_t)lost_ns : period_ns / 4;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	double p = 100, t = 2;
	int i;

	if (!info->system_emulation)
		return arg_error("(none)", "needs system emulation");
	nvcpus = info->system.max_vcpus;
	if (nvcpus > MAX_VCPUS)
		return arg_error("(none)", "more vCPUs than the plugin supports (256)");
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		const char *val = eq ? eq + 1 : "";
		size_t klen = eq ? (size_t)(eq - a) : strlen(a);

		if (klen == 5 && !strncmp(a, "yield", 5)) {
			if (parse_double(val, 1.0, 2.0, &yield))
				return arg_error(a, "expected a yield from 1.0 to 2.0");
		} else if (klen == 7 && !strncmp(a, "threads", 7)) {
			if (parse_double(val, 1, 8, &t) || t != (int)t)
				return arg_error(a, "expected a whole number of threads, 1 to 8");
		} else if (klen == 9 && !strncmp(a, "period_us", 9)) {
			if (parse_double(val, 10, 10000, &p))
				return arg_error(a, "expected microseconds, 10 to 10000");
		} else if (klen == 5 && !strncmp(a, "stats", 5)) {
			if (!*val || strlen(val) >= sizeof(stats_path))
				return arg_error(a, "expected a file name");
			strcpy(stats_path, val);
		} else {
			return arg_error(a, "unknown (expected yield, threads, period_us or stats)");
		}
	}
	threads = (int)t;
	period_ns = (uint64_t)(p * 1000);
	spin_ns = threads > 1 ? smt_yield_spin_ns(yield, period_ns) : 0;
	if (spin_ns) {
		tick_signal = claim_signal();
		if (tick_signal < 0)
			return arg_error("(none)", "no free real-time signal for the timer");
		calibrate();
	}
	qemu_plugin_register_vcpu_resume_cb(id, vcpu_resume);
	qemu_plugin_register_vcpu_idle_cb(id, vcpu_idle);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
