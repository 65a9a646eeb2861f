// SPDX-License-Identifier: GPL-2.0
/*
 * Does the blocked analysis see what it claims to see? Runs are made up
 * of blocks resampled from the committed reference run's real cells, with
 * a known truth:
 *
 * For each workload and row, the reference gives per-block log ratios
 * d_j = log(coresched_j / smt-off_j); their residuals e_j = d_j - mean(d)
 * (scaled by sqrt(R / (R - 1)) so their spread is the sample's) are the
 * real within-block noise. A synthetic block k takes a source block j and
 * a standard normal weight s (one of each per workload and block, so rows
 * of one cell keep moving together: a wild bootstrap) and sets coresched =
 * smt-off_j * exp(s e_j + delta): delta = 0 is an A/A run (coresched and smt-off have the same
 * distribution), delta = log(0.9) plants a 10% loss in every coresched row
 * of one workload. The other modes keep block j's values.
 *
 * For each workload the number of blocks N is the one the analysis's own
 * power formula says a 10% change needs for 90% power at Holm's first
 * step over the column's workloads, capped at BLOCKS_CAP; the test then
 * asks for 80%. A/A draws must flag any workload of the column in at most
 * about 5% of the draws (Holm's family-wise rate). The margin is there because the formula (two central t
 * quantiles, standing in for the noncentral t) is slightly generous: at
 * its 80% N the draws flagged the change 78% to 84% of the time. The test checks
 * that the planted loss is flagged "worse" in at least 80% of the draws
 * and prints what N each workload needed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "../../bench/report/blocks.h"
#include "../../bench/report/report.h"
#include "../tap.h"

#define DRAWS		400
#define BLOCKS_CAP	80
#define PLANTED		0.9

static struct report ref, syn;

/* Per workload: the reference's block ids, and a row's residuals by block. */
static int ref_blocks[BLOCKS_MAX + 1], nref;

static unsigned long long rng = 20191011;

static double uniform(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (rng >> 11) * (1.0 / 9007199254740992.0);
}

/*
 * A standard normal weight (Box-Muller). A wild bootstrap with normal
 * weights rather than random signs: three residuals times +-1 give ties
 * that continuous noise never has, and a t test on tied blocks (spread
 * near 0) flags A/A draws far more often than alpha.
 */
static double gaussian(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* The value of @ms in block @b, or NAN (and *cens) if none. */
static double value_in(const struct mode_stats *ms, int b, int *cens)
{
	int i;

	for (i = 0; i < ms->n; i++)
		if (ms->block[i] == b) {
			*cens = ms->cens[i];
			return ms->values[i];
		}
	return NAN;
}

/* Residual of row @row's coresched vs smt-off log ratio in block @b. */
static double residual(const struct report_row *row, int b, int *ok)
{
	double sum = 0, d = NAN, v;
	int i, n = 0, ca, cb;

	*ok = 0;
	for (i = 0; i < nref; i++) {
		double a = value_in(&row->m[MODE_CORESCHED], ref_blocks[i], &ca);
		double o = value_in(&row->m[MODE_SMT_OFF], ref_blocks[i], &cb);

		if (!(a > 0 && o > 0) || ca || cb)
			return NAN;
		v = log(a / o);
		sum += v;
		n++;
		if (ref_blocks[i] == b)
			d = v;
	}
	*ok = n > 1;
	return (d - sum / n) * sqrt((double)n / (n - 1));
}

static void set_value(struct mode_stats *ms, int k, double v, int cens, int block)
{
	ms->values[k] = v;
	ms->cens[k] = cens;
	ms->block[k] = block;
	ms->n = k + 1;
}

/*
 * One synthetic run of @nblocks blocks per workload (@nb[w]); @target's
 * coresched rows get @delta on top of the noise.
 */
static void draw(const int *nb, int target, double delta)
{
	int w, k, i, m;

	memcpy(&syn, &ref, sizeof(syn));
	for (w = 0; w < ref.nwl; w++)
		for (k = 0; k < nb[w]; k++) {
			int j = ref_blocks[(int)(uniform() * nref)];
			double s = gaussian();

			for (i = 0; i < syn.nrows; i++) {
				struct report_row *row = &syn.rows[i];
				const struct report_row *src = &ref.rows[i];
				double off, v, e, d = 0;
				int c, ok;

				if (strcmp(row->workload, ref.wl[w].name))
					continue;
				for (m = 0; m < MODE_COUNT; m++) {
					v = value_in(&src->m[m], j, &c);
					if (!isnan(v))
						set_value(&row->m[m], k, v, c, k + 1);
				}
				off = value_in(&src->m[MODE_SMT_OFF], j, &c);
				e = residual(src, j, &ok);
				if (!ok || isnan(off) || report_row_is_maximum(row))
					continue;
				if (w == target)
					d = row->higher_is_better ? delta : -delta;
				set_value(&row->m[MODE_CORESCHED], k, off * exp(s * e + d), 0, k + 1);
			}
		}
}

/* Blocks a 10% change needs for 90% power at this noise (Holm's first step). */
static int blocks_needed(int w)
{
	struct comparison *c = &ref.wl[w].verdict[CMP_CS_OFF];
	double sd = c->se_log * sqrt(c->n_blocks), alpha = 0.05 / ref.nwl;
	int n;

	if (!(sd > 0))
		return 2;
	for (n = 2; n < BLOCKS_CAP; n++)
		if (block_mde_log_at(sd / sqrt(n), n - 1, alpha, 0.9) <= -log(PLANTED))
			break;
	return n;
}

int main(void)
{
	char dir[4200], name[256], err[512];
	int nb[REPORT_MAX_WORKLOADS], per_wl[REPORT_MAX_WORKLOADS] = { 0 }, w, d, i, detected;
	int false_pos;
	FILE *f;

	tap_plan_start();
	snprintf(dir, sizeof(dir), "%s/../results/REFERENCE", WORKLOADS);
	f = fopen(dir, "r");
	if (!f || !fgets(name, sizeof(name), f)) {
		tap_ok(0, "results/REFERENCE names the reference run");
		return tap_finish();
	}
	fclose(f);
	name[strcspn(name, "\n")] = '\0';
	snprintf(dir, sizeof(dir), "%s/../results/%s", WORKLOADS, name);
	if (report_load(dir, &ref, err, sizeof(err)) || report_compute(&ref)) {
		tap_ok(0, "the reference run loads (%s)", err);
		return tap_finish();
	}
	for (i = 1; i <= ref.nblocks && nref < BLOCKS_MAX; i++)
		ref_blocks[nref++] = i;
	tap_ok(nref >= 3, "the reference has %d blocks to resample", nref);
	for (w = 0; w < ref.nwl; w++)
		nb[w] = blocks_needed(w);
	for (w = 0; w < ref.nwl; w++) {
		detected = 0;
		for (d = 0; d < DRAWS; d++) {
			draw(nb, w, log(PLANTED));
			report_compute_verdicts(&syn);
			detected += syn.wl[w].verdict[CMP_CS_OFF].verdict == V_WORSE;
		}
		tap_diag("%s: %d blocks for a 10%% change; planted -10%% flagged in %d of %d "
			 "draws", ref.wl[w].name, nb[w], detected, DRAWS);
		if (nb[w] >= BLOCKS_CAP)
			tap_skip_test("a 10% change needs more blocks than the cap", "%s: %d blocks",
				      ref.wl[w].name, nb[w]);
		else
			tap_ok(detected >= DRAWS * 80 / 100,
			       "%s: planted -10%% in coresched flagged in %d%% of draws (>= 80%%)",
			       ref.wl[w].name, detected * 100 / DRAWS);
	}
	/*
	 * A/A: every workload null at once. Holm holds the chance that any
	 * of the column's workloads is flagged at alpha, so that is what is
	 * counted; 5% of 400 is 20, and a binomial(400, 0.05) exceeds 28 with
	 * p < 0.05.
	 */
	false_pos = 0;
	for (d = 0; d < DRAWS; d++) {
		int any = 0;

		draw(nb, -1, 0);
		report_compute_verdicts(&syn);
		for (w = 0; w < ref.nwl; w++) {
			int f = syn.wl[w].verdict[CMP_CS_OFF].verdict == V_WORSE ||
				syn.wl[w].verdict[CMP_CS_OFF].verdict == V_BETTER;

			per_wl[w] += f;
			any |= f;
		}
		false_pos += any;
	}
	for (w = 0; w < ref.nwl; w++)
		tap_diag("A/A: %s flagged in %d of %d draws", ref.wl[w].name, per_wl[w], DRAWS);
	tap_ok(false_pos <= 28, "A/A: some workload flagged in %d of %d draws (about 5%% or less)",
	       false_pos, DRAWS);
	report_free(&ref);
	return tap_finish();
}
