// SPDX-License-Identifier: GPL-2.0
/*
 * report.md: the page a reader opens. The answer comes first (the overall
 * coresched vs smt-off verdict in a sentence and a narrow table), then the
 * verdict table of every comparison (what csbench also prints), how the
 * numbers were made and what hardware model they stand for, then every
 * row with its intervals.
 */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

void report_fmt_gain(const struct comparison *c, char *buf, size_t len)
{
	if (!c->valid) {
		snprintf(buf, len, "-");
		return;
	}
	if (isnan(c->gain_lo))
		snprintf(buf, len, "%+.1f%% [no CI]", (c->gain - 1) * 100);
	else
		snprintf(buf, len, "%+.1f%% [%+.1f, %+.1f]", (c->gain - 1) * 100,
			 (c->gain_lo - 1) * 100, (c->gain_hi - 1) * 100);
}

static const char *verdict_text(enum verdict v)
{
	return v == V_BETTER ? "**better**" : v == V_WORSE ? "**worse**" :
	       v == V_UNTESTED ? "no verdict" : "not distinguishable";
}

/* The size of the Holm family @c belongs to (its tested members carry it). */
static int family_of(const struct comparison *c, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (c[i].family)
			return c[i].family;
	return 0;
}

void report_fmt_mde(double mde, char *buf, size_t len)
{
	double f = 1 + mde;

	if (mde < 1)
		snprintf(buf, len, "+-%.0f%%", mde * 100);
	else
		snprintf(buf, len, f < 10 ? "x/ %.1f" : "x/ %.0f", f);
}

/* The smallest change the test would have seen, or why there is none. */
static void fmt_mde(const struct comparison *c, char *buf, size_t len)
{
	char m[32];

	if (c->censor_conflict) {
		snprintf(buf, len, "censored blocks could reverse it");
	} else if (isnan(c->mde)) {
		snprintf(buf, len, "%d block%s: no test", c->n_blocks, c->n_blocks == 1 ? "" : "s");
	} else {
		report_fmt_mde(c->mde, m, sizeof(m));
		snprintf(buf, len, "p_adj %.2g; n=%d, sees %s", c->p_adj, c->n_blocks, m);
	}
}

static void fmt_verdict(const struct comparison *c, char *buf, size_t len)
{
	char g[96], m[96];

	report_fmt_gain(c, g, sizeof(g));
	fmt_mde(c, m, sizeof(m));
	if (!c->valid)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s %s (%s)", g, verdict_text(c->verdict), m);
}

/* A two-way core cannot give more than twice one thread's throughput. */
static int fmt_one_yield(double y, char *buf, size_t len)
{
	if (isnan(y))
		return snprintf(buf, len, "?");
	if (isinf(y) || y > 2)
		return snprintf(buf, len, ">2");
	return snprintf(buf, len, "%.2f", y);
}

static void fmt_yield(const struct report_workload *wl, char *buf, size_t len)
{
	char y[16], lo[16], hi[16];

	if (isnan(wl->breakeven_yield)) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_one_yield(wl->breakeven_yield, y, sizeof(y));
	fmt_one_yield(wl->breakeven_lo, lo, sizeof(lo));
	fmt_one_yield(wl->breakeven_hi, hi, sizeof(hi));
	if (wl->breakeven_hi <= 1)
		snprintf(buf, len, "1 (wins without SMT gain)");
	else if (wl->breakeven_lo > 2)
		/* Only when the whole interval is beyond what two threads give. */
		snprintf(buf, len, "%s [%s, %s] (unreachable)", y, lo, hi);
	else
		snprintf(buf, len, "%s [%s, %s]", y, lo, hi);
}

static void fmt_protection(const struct mode_extra *x, char *buf, size_t len)
{
	if (!x->cells)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%ld unexplained, %ld handoffs (p99 <= %.1f ms)",
			 x->unexplained, x->handoff, x->handoff_p99_us_max / 1000);
}

/* What stopped an adaptive run, in one sentence. */
static void write_adaptive(const struct report *r, FILE *out)
{
	if (!r->adaptive_stop[0])
		return;
	fprintf(out, "Adaptive run: %d blocks, stopped by **%s** (target: every coresched vs "
		"smt-off interval within +-%.0f%%", r->nblocks, r->adaptive_stop,
		r->adaptive_target_pct);
	if (r->adaptive_budget_min > 0)
		fprintf(out, ", budget %.0f min", r->adaptive_budget_min);
	if (isfinite(r->adaptive_widest_pct))
		fprintf(out, "; widest +-%.1f%%, %s", r->adaptive_widest_pct,
			r->adaptive_widest_wl);
	fprintf(out, ").\n\n");
}

static int workload_family(const struct report *r)
{
	int w, f = 0;

	for (w = 0; w < r->nwl && !f; w++)
		f = family_of(r->wl[w].verdict, CMP_COUNT);
	return f;
}

/*
 * The workloads the emulation biased: at yield 1.0 smt-on and smt-off
 * should do the same work, so a throughput difference the interval is
 * sure of is the emulator's, and every verdict involving smt-on shares it.
 */
static void write_emulation_bias(const struct report *r, FILE *out)
{
	char g[96];
	int w, n, judged = 0, biased = 0;

	for (w = 0; w < r->nwl; w++) {
		judged += r->wl[w].emulation_biased >= 0;
		biased += r->wl[w].emulation_biased > 0;
	}
	if (!judged)
		return;
	fprintf(out, "**Emulation bias.** At the emulated yield of 1.0 the hardware model "
		"says smt-on and smt-off do the same work; smt-on vs smt-off on the "
		"throughput rows (95%% CI, not corrected) ");
	if (!biased) {
		fprintf(out, "includes \"equal\" for all %d workload%s tested.\n\n", judged,
			judged == 1 ? "" : "s");
		return;
	}
	fprintf(out, "excludes it for %d of %d workloads, flagged **emulation-biased**: ",
		biased, judged);
	for (w = n = 0; w < r->nwl; w++) {
		if (r->wl[w].emulation_biased <= 0)
			continue;
		report_fmt_gain(&r->wl[w].throughput[CMP_ON_OFF], g, sizeof(g));
		fprintf(out, "%s%s %s", n++ ? "; " : "", r->wl[w].name, g);
	}
	fprintf(out, ". Their smt-on and coresched figures carry the emulator's "
		"difference as well as SMT's.\n\n");
}

void report_write_summary(const struct report *r, FILE *out)
{
	char v[CMP_COUNT][256], prot[160], y[96];
	int w, k;

	fprintf(out, "| workload |");
	for (k = 0; k < CMP_COUNT; k++)
		fprintf(out, " %s |", report_cmps[k].label);
	fprintf(out, " forced idle | co-residency (coresched) | breakeven SMT yield "
		"(throughput rows) |\n|---|");
	for (k = 0; k < CMP_COUNT; k++)
		fprintf(out, "---|");
	fprintf(out, "---:|---|---:|\n");
	for (w = 0; w < r->nwl; w++) {
		const struct report_workload *wl = &r->wl[w];

		fprintf(out, "| %s |", wl->name);
		for (k = 0; k < CMP_COUNT; k++) {
			fmt_verdict(&wl->verdict[k], v[k], sizeof(v[k]));
			fprintf(out, " %s |", v[k]);
		}
		fmt_protection(&wl->x[MODE_CORESCHED], prot, sizeof(prot));
		fmt_yield(wl, y, sizeof(y));
		fprintf(out, " %.1f%% | %s | %s |\n", wl->x[MODE_CORESCHED].forced_idle_pct,
			prot, y);
	}
	fprintf(out, "| **all (mean over workloads)** |");
	for (k = 0; k < CMP_COUNT; k++) {
		fmt_verdict(&r->overall[k], v[k], sizeof(v[k]));
		fprintf(out, " %s |", v[k]);
	}
	fprintf(out, " | | |\n\n");
	write_emulation_bias(r, out);
	write_adaptive(r, out);
	fprintf(out, "Gains: + is better for the first mode, [95%% CI], paired by block; ");
	/* With fewer than two blocks no row has a test: there is nothing to correct. */
	if (workload_family(r))
		fprintf(out, "p_adj is Holm-corrected over each column's %d workloads (the "
			"overall line over its %d comparisons); ", workload_family(r),
			family_of(r->overall, CMP_COUNT));
	else
		fprintf(out, "no row has a test (fewer than two blocks), so nothing is "
			"corrected; ");
	fprintf(out, "\"sees +-x%%\": the smallest change this run would have flagged "
		"with 80%% power after the correction (\"x/ F\": a change by a factor F "
		"either way).\n");
}

static void write_model(const struct report *r, FILE *out)
{
	fprintf(out, "## What produced these numbers\n\n"
		"- Kernel %s, patch series %s (build %s); csbench %s; profile %s, "
		"%d repetitions; %d cells of %d planned, %d ok.\n"
		"- Guest: %s. Host: %s, %d CPUs.\n"
		"- Accelerator **%s**; emulation: **%s**; pinning: %s.\n",
		r->release, r->revision, r->kernel_key, r->csbench_version, r->profile,
		r->reps, r->cells, r->expected_cells ?: r->cells, r->ok, r->topology, r->host_cpu, r->host_cpus,
		r->accel, r->emulation_name[0] ? r->emulation_name :
		"not recorded (a run from before --emulation: time-shared siblings under TCG)",
		r->pinning);
	if (!strcmp(r->image_kind, "cloud"))
		fprintf(out, "- Root image: **cloud image %s** (%s, sha256 %.12s...), systemd as "
			"PID 1, provisioned offline by cloud-init; %d of %d boots clean "
			"(cloud-init done without errors, the job run from its unit)%s. ",
			r->image_name, r->image_format, r->image_sha256, r->image_boots_clean,
			r->image_boots, r->image_changed ?
			"; **the image file changed during the run**" : "");
	if (!strcmp(r->image_kind, "cloud") && r->image_background_pct >= 0)
		fprintf(out, "Its own services (systemd, journald, cloud-init...) took %.2f%% "
			"of the guest's CPU while the jobs ran (mean over boots): tenants on this "
			"image pay that too.\n\n", r->image_background_pct);
	else if (!strcmp(r->image_kind, "cloud"))
		fprintf(out, "\n\n");
	else
		fprintf(out, "- Root image: the built one, %s (Debian minbase and the tools, "
			"csbench-init as PID 1, no systemd).\n\n", r->image_name);
	if (r->fid_boots && r->fid_idle_avg_us > 0)
		fprintf(out, "- Fidelity (csbench-fidelity, mean of %d boot%s): a 1 ms wake-up "
			"is %.0f us late beside an idle sibling, %.0f us (p99 %.0f us, %.1f%% "
			"missed) beside a busy one, %.2fx; a sibling wake round trip takes "
			"%.0f us. SMT threads that run at once would show about 1x.\n\n",
			r->fid_boots, r->fid_boots == 1 ? "" : "s", r->fid_idle_avg_us,
			r->fid_busy_avg_us, r->fid_busy_p99_us, r->fid_busy_missed_pct,
			r->fid_busy_avg_us / r->fid_idle_avg_us, r->fid_rtt_avg_us);
	/* What a one-core guest can and cannot show (issue 22). */
	if (r->guest_cores == 1)
		fprintf(out, "**One guest core.** Core scheduling never co-runs two cookies on "
			"a core, so here coresched is the two tenants taking turns on the one "
			"core, each with both its threads, against smt-off's two tenants sharing "
			"one CPU. Placing cookies across cores (cookie-aware balancing, "
			"stealing) needs two cores or more (--cores 2 on a host with four CPUs, "
			"or --emulation time-shared).\n\n");
	if (!strcmp(r->emulation_key, "concurrent"))
		fprintf(out, "**Hardware model.** Under TCG every vCPU runs on its own host "
			"CPU; the yield plugin slows each of two busy siblings to %.2f/2 of a "
			"lone one's speed (an emulated SMT yield of %.2f), a lone one runs at "
			"full speed. Each spin is set from books of what the guest really ran, "
			"so the host's own preemptions are made up; what the plugin cannot see "
			"is the two host CPUs running at different speeds, which moved a "
			"boot's measured yield by -17%% to +27%% at 1.3 on a shared host: read "
			"the boots' measured yields, the emulation-bias line and "
			"docs/emulation.md, \"Emulation layouts\", before the comparisons.\n\n",
			r->yield_target > 0 ? r->yield_target : 1.0,
			r->yield_target > 0 ? r->yield_target : 1.0);
	else if (!strcmp(r->accel, "tcg") && r->yield_period_us)
		fprintf(out, "**Hardware model.** Under TCG both threads of a guest core are "
			"pinned to one host CPU; the two together are capped at %d%% of it "
			"and each alone at %d%%/%.2f (CFS bandwidth, period %d us): one busy "
			"sibling runs at 1/%.2f of what two together do, an emulated SMT "
			"yield of %.2f. smt-on vs smt-off and coresched vs smt-off are then "
			"comparisons under that yield; the breakeven SMT yield is still given "
			"from the model (docs/reports.md).\n\n", r->yield_core_pct, r->yield_core_pct,
			r->yield_target, r->yield_period_us, r->yield_target, r->yield_target);
	else if (!strcmp(r->accel, "tcg"))
		fprintf(out, "**Hardware model.** Under TCG both threads of a guest core are "
			"pinned to one host CPU: two busy siblings share it, so SMT adds no "
			"throughput (yield 1.0). smt-on cannot beat smt-off here, and the "
			"coresched comparisons measure core scheduling's own costs: forced "
			"idle, core-wide picks, IPIs (a vCPU may take milliseconds to see one, "
			"so handoff windows are longer than on hardware). The breakeven SMT "
			"yield says what real hardware would have to give for coresched to "
			"beat smt-off on each workload (model in docs/reports.md).\n\n");
	else
		fprintf(out, "**Hardware model.** Under KVM each guest core's two vCPUs are "
			"pinned to a pair of host SMT siblings, so the host's own SMT yield "
			"applies and the coresched vs smt-off comparison is the real one. The "
			"breakeven SMT yield is still given for reference.\n\n");
	if (r->yield_boots) {
		fprintf(out, "**Measured SMT yield.** Each boot measured, before its cells, "
			"what two busy siblings do over one alone: median %.3f over %d "
			"boot%s (range %.3f to %.3f), target %.2f. ", r->yield_median,
			r->yield_boots, r->yield_boots == 1 ? "" : "s", r->yield_min, r->yield_max,
			r->yield_target);
		if (r->yield_off_boots)
			fprintf(out, "**%d of %d boots were further than %.0f%% from the target: "
				"their cells ran another yield than the one asked for.**\n\n",
				r->yield_off_boots, r->yield_boots, REPORT_YIELD_TOLERANCE * 100);
		else
			fprintf(out, "Every boot within %.0f%% of the target.\n\n",
				REPORT_YIELD_TOLERANCE * 100);
	}
	fprintf(out, "**Statistics.** A block is one repetition of a workload: its "
		"modes ran back to back in one boot, in rotated order. Every comparison "
		"pairs the two modes inside each block: d = log(a / b) per block, and "
		"the estimate, its %.0f%% interval and the two-sided p all come from one "
		"t model on those d (n - 1 df); the gain is exp(mean d), oriented so that "
		"+ is better for the first mode. A workload's gain averages its rows' "
		"log gains inside each block first (maxima and rows with a censored block "
		"left out), so rows measured in the same cells count once; the overall "
		"line averages the workloads' block means. A percentile beyond the "
		"histogram is a bound: its block is left out, and if the bound could "
		"reverse the estimate there is no verdict. %s's correction runs over each "
		"comparison column of a table (alpha %.2f); p_adj is the adjusted p. "
		"\"sees +-x%%\" is the smallest change the test would have flagged with "
		"80%% power at alpha / (family size), from the measured spread between "
		"blocks. Per-mode figures: harmonic means for rates, arithmetic for "
		"times; latency percentiles from the histograms merged over the "
		"repetitions (interval: a t interval on the logs of the repetitions' "
		"own percentiles below %d repetitions, a %d-resample bootstrap over "
		"repetitions from there, seed %lu). A verdict also needs the gain "
		"outside the A/A noise band: %s.\n\n",
		REPORT_LEVEL * 100, r->correction, REPORT_ALPHA, REPORT_BOOT_MIN_REPS,
		REPORT_BOOT_ITERS, r->seed,
		r->calibration[0] ? report_calibration_name(r) :
		"none (csbench report --calibration FILE sets one)");
}

static void fmt_stats(const struct report_row *row, const struct mode_stats *ms,
		      char *buf, size_t len)
{
	const char *ge = ms->censored ? ">=" : "";

	if (!ms->n)
		snprintf(buf, len, "-");
	else if (isnan(ms->s.ci_lo))
		snprintf(buf, len, "%s%.4g (n=%d)", ge, ms->s.mean, ms->n);
	else if (row->kind == ROW_PERCENTILE || isnan(ms->s.cv))
		snprintf(buf, len, "%s%.4g [%.4g, %.4g] n=%d", ge, ms->s.mean, ms->s.ci_lo,
			 ms->s.ci_hi, ms->n);
	else
		snprintf(buf, len, "%.4g [%.4g, %.4g] cv %.1f%% n=%d%s", ms->s.mean, ms->s.ci_lo,
			 ms->s.ci_hi, ms->s.cv * 100, ms->n,
			 ms->arith_fallback ? " (arithmetic mean: a rate <= 0)" : "");
}

static void fmt_ratio(const struct comparison *c, char *buf, size_t len)
{
	const char *mark = c->verdict == V_BETTER || c->verdict == V_WORSE ? " *" : "";

	if (!c->valid)
		snprintf(buf, len, "-");
	else if (isnan(c->lo))
		snprintf(buf, len, "%.3f", c->ratio);
	else
		snprintf(buf, len, "%.3f [%.3f, %.3f]%s", c->ratio, c->lo, c->hi, mark);
}

static void write_rows(const struct report *r, FILE *out)
{
	static const char *const kinds[] = {
		[ROW_ARITH] = "mean", [ROW_HARMONIC] = "harmonic mean",
		[ROW_PERCENTILE] = "merged histogram",
	};
	char buf[160];
	int w, i, k;

	fprintf(out, "## Every row\n\nEach mode: mean [%.0f%% CI], cv, n. Ratios a / b: "
		"geometric mean of the per-block ratios [CI]; * marks a verdict.\n",
		REPORT_LEVEL * 100);
	for (w = 0; w < r->nwl; w++) {
		fprintf(out, "\n### %s\n\n| metric |", r->wl[w].name);
		for (k = 0; k < MODE_COUNT; k++)
			fprintf(out, " %s |", mode_name(k));
		for (k = 0; k < CMP_COUNT; k++)
			fprintf(out, " %s / %s |", mode_name(report_cmps[k].a),
				mode_name(report_cmps[k].b));
		fprintf(out, "\n|---|");
		for (k = 0; k < MODE_COUNT + CMP_COUNT; k++)
			fprintf(out, "---:|");
		fputc('\n', out);
		for (i = 0; i < r->nrows; i++) {
			const struct report_row *row = &r->rows[i];

			if (strcmp(row->workload, r->wl[w].name))
				continue;
			fprintf(out, "| %s.%s (%s, %s better, %s) |", row->tenant, row->metric,
				row->unit, row->higher_is_better ? "higher" : "lower",
				kinds[row->kind]);
			for (k = 0; k < MODE_COUNT; k++) {
				fmt_stats(row, &row->m[k], buf, sizeof(buf));
				fprintf(out, " %s |", buf);
			}
			for (k = 0; k < CMP_COUNT; k++) {
				fmt_ratio(&row->cmp[k], buf, sizeof(buf));
				fprintf(out, " %s |", buf);
			}
			fputc('\n', out);
		}
		fprintf(out, "\nForced idle (share of the online CPUs' time), CPU use, "
			"co-residency:\n\n| mode | cells | forced idle | CPU use | windows | "
			"handoffs | longest handoff | unexplained | both siblings busy |\n"
			"|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
		for (k = 0; k < MODE_COUNT; k++) {
			const struct mode_extra *x = &r->wl[w].x[k];

			if (!x->cells)
				continue;
			fprintf(out, "| %s | %d | %.2f%% | %.1f%% | %ld | %ld | %.1f ms | %ld |",
				mode_name(k), x->cells, x->forced_idle_pct, x->cpu_util_pct,
				x->windows, x->handoff, x->handoff_max_us / 1000, x->unexplained);
			if (isnan(x->both_busy_share))
				fprintf(out, " - |\n");
			else
				fprintf(out, " %.1f%% |\n", x->both_busy_share * 100);
		}
	}
}

static int is_svg(const struct dirent *de)
{
	size_t len = strlen(de->d_name);

	return len > 4 && !strcmp(de->d_name + len - 4, ".svg");
}

/* Whatever csbench report drew into DIR/plots (gains first), embedded. */
static void write_plots(const struct report *r, FILE *out)
{
	char path[4200];
	struct dirent **names;
	int n, i, pass;

	snprintf(path, sizeof(path), "%s/plots", r->dir);
	n = scandir(path, &names, is_svg, alphasort);
	if (n <= 0)
		return;
	fprintf(out, "## Plots\n\nSVG, with PNG beside each in `plots/`.\n\n");
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i++)
			if (!strcmp(names[i]->d_name, "gains.svg") == !pass)
				fprintf(out, "![%.*s](plots/%s)\n\n",
					(int)strlen(names[i]->d_name) - 4, names[i]->d_name,
					names[i]->d_name);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* What a comparison could have seen: "+-23%", or why it has no test. */
static void fmt_sees(const struct comparison *c, char *buf, size_t len)
{
	if (!c->valid)
		snprintf(buf, len, "-");
	else if (isnan(c->mde))
		fmt_mde(c, buf, len);
	else
		report_fmt_mde(c->mde, buf, len);
}

/*
 * One workload (or the overall line) in the narrow table: its throughput
 * figure with interval, verdict and what it sees, then its latency
 * figure with verdict.
 */
static void write_narrow_row(const char *name, const struct comparison *thr,
			     const struct comparison *lat, FILE *out)
{
	char g[96], s[96], l[96];

	report_fmt_gain(thr, g, sizeof(g));
	fmt_sees(thr, s, sizeof(s));
	report_fmt_gain(lat, l, sizeof(l));
	fprintf(out, "| %s | %s | %s | %s | %s | %s |\n", name, g,
		thr->valid ? verdict_text(thr->verdict) : "no throughput rows", s, l,
		lat->valid ? verdict_text(lat->verdict) : "-");
}

/* What the answer's sentence says before the gain, by verdict. */
static const char *const answer_lead[] = {
	[V_NONE] = "not distinguishable: coresched vs smt-off",
	[V_SAME] = "not distinguishable: coresched vs smt-off",
	[V_BETTER] = "core scheduling beats turning SMT off by",
	[V_WORSE] = "turning SMT off beats core scheduling: coresched",
	[V_UNTESTED] = "no verdict (fewer than two blocks): coresched vs smt-off",
};

/* Workloads with a coresched vs smt-off figure on latency (else throughput). */
static int workloads_with(const struct report *r, int latency)
{
	int w, n = 0;

	for (w = 0; w < r->nwl; w++)
		n += latency ? r->wl[w].latency[CMP_CS_OFF].valid :
			       r->wl[w].throughput[CMP_CS_OFF].valid;
	return n;
}

/*
 * The answer first: the overall coresched vs smt-off verdict on
 * throughput in one sentence, latency in the next (never folded into
 * it), then a narrow table of that one comparison, overall row first.
 * Everything else follows under "Every comparison".
 */
static void write_answer(const struct report *r, FILE *out)
{
	const struct comparison *c = &r->overall_throughput[CMP_CS_OFF];
	const struct comparison *lat = &r->overall_latency[CMP_CS_OFF];
	char g[96];
	int w, n = workloads_with(r, 0);

	if (!c->valid && !lat->valid) {
		fprintf(out, "**Answer:** none: no workload has both coresched and smt-off cells.\n\n");
		return;
	}
	if (c->valid) {
		report_fmt_gain(c, g, sizeof(g));
		fprintf(out, "**Answer:** %s %s in throughput over %d workload%s "
			"(rates and fixed-work run times)", answer_lead[c->verdict], g, n,
			n == 1 ? "" : "s");
		if (!isnan(c->mde)) {
			report_fmt_mde(c->mde, g, sizeof(g));
			fprintf(out, "; p_adj %.2g, and this run could have seen a change of %s",
				c->p_adj, g);
		}
		fputc('.', out);
	} else {
		fprintf(out, "**Answer:** no throughput rows.");
	}
	if (lat->valid) {
		n = workloads_with(r, 1);
		report_fmt_gain(lat, g, sizeof(g));
		fprintf(out, " Latency, apart (percentiles of %d workload%s): %s, %s", n,
			n == 1 ? "" : "s", g, verdict_text(lat->verdict));
		if (!isnan(lat->mde)) {
			report_fmt_mde(lat->mde, g, sizeof(g));
			fprintf(out, " (p_adj %.2g, sees %s)", lat->p_adj, g);
		}
		fputc('.', out);
	}
	fprintf(out, " Measured with **%s**%s%s, %d block%s.\n\n", r->accel[0] ? r->accel : "?",
		r->emulation_name[0] ? ", emulation " : "", r->emulation_name, r->nblocks,
		r->nblocks == 1 ? "" : "s");
	fprintf(out, "| workload | throughput: coresched vs smt-off [%.0f%% CI] | verdict | sees "
		"| latency: coresched vs smt-off | verdict |\n|---|---|---|---:|---|---|\n",
		REPORT_LEVEL * 100);
	write_narrow_row("**all**", c, lat, out);
	for (w = 0; w < r->nwl; w++)
		write_narrow_row(r->wl[w].name, &r->wl[w].throughput[CMP_CS_OFF],
				 &r->wl[w].latency[CMP_CS_OFF], out);
	fprintf(out, "\nThroughput and latency are judged apart, each with its own Holm "
		"families (per column over the workloads that have such rows; the overall "
		"line over its comparisons). The table below averages every row of a "
		"workload, throughput and latency alike.\n\n");
}

void report_write_md(const struct report *r, FILE *out)
{
	int i;

	fprintf(out, "# csbench report: %s\n\n", r->run);
	write_answer(r, out);
	fprintf(out, "## Every comparison\n\n"
		"Gains are for the first mode named, + is better, [%.0f%% CI].\n\n",
		REPORT_LEVEL * 100);
	report_write_summary(r, out);
	fputc('\n', out);
	write_model(r, out);
	write_plots(r, out);
	write_rows(r, out);
	if (r->nfailed) {
		fprintf(out, "\n## Cells not ok (left out of every figure)\n\n");
		for (i = 0; i < r->nfailed; i++)
			fprintf(out, "- %s\n", r->failed[i]);
	}
	if (r->expected_cells && r->cells < r->expected_cells)
		fprintf(out, "\n**Incomplete run:** %d of %d cells present.\n", r->cells,
			r->expected_cells);
}
