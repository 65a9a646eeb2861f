/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Blocked, paired comparisons on the log scale.
 *
 * A block is one repetition of one workload: every mode run back to back
 * in one boot (or, for an A/B run, the same cells under two kernels in
 * neighbouring boots). The drift between blocks is several times the noise
 * inside one, so two modes are compared through their log ratio inside
 * each block, d_j = log(a_j / b_j), and those d_j are what the statistics
 * see: the estimate is exp(mean d), the interval and the two-sided p come
 * from the same one-sample t model on the d_j (n - 1 df), and the smallest
 * change the comparison could have seen at 80% power is
 *
 *	mde = exp((t(1 - alpha'/2, n - 1) + t(0.8, n - 1)) * sd(d) / sqrt(n)) - 1
 *
 * with alpha' = alpha / m for a family of m tests (the first, strictest
 * step of Holm's procedure).
 *
 * Composites (a workload's gain, the overall gain) average the rows' log
 * gains inside each block first and test the block means, so rows that
 * come from the same cells (read and write IOPS of one fio job) are one
 * piece of evidence, not two.
 *
 * Censoring: a latency percentile in a histogram's overflow is only a
 * lower bound, so a block's d is then a bound too (BS_GE: the true value is
 * at least v; BS_LE: at most). Such blocks are left out of the estimate.
 * When every one of them lies beyond the estimate in its direction (v at
 * least the mean for a positive mean with BS_GE, the mirror for a negative
 * one), putting them back could only make the difference larger, so the
 * verdict stands; otherwise the comparison gets no verdict.
 */
#ifndef CSBENCH_BLOCKS_H
#define CSBENCH_BLOCKS_H

#define BLOCKS_MAX	128	/* block ids 1..BLOCKS_MAX */
#define BLOCKS_POWER	0.80

enum block_state {
	BS_NONE,	/* no value in this block */
	BS_EXACT,
	BS_GE,		/* true value >= v */
	BS_LE,		/* true value <= v */
	BS_UNKNOWN,	/* censored both ways: no information */
};

/* One series of per-block log values, indexed by block id. */
struct block_series {
	double v[BLOCKS_MAX + 1];
	unsigned char st[BLOCKS_MAX + 1];
};

/* The t model on a series' exact blocks. */
struct block_fit {
	int n;			/* exact blocks used */
	int n_censored;		/* blocks left out: a bound, not a value */
	int censor_conflict;	/* one of them could reverse the estimate */
	double mean, sd;	/* of the block values (log scale) */
	double se, df;		/* sd / sqrt(n), n - 1; NAN when n < 2 */
	double lo, hi;		/* interval of the mean at @level; NAN: none */
	double p;		/* two-sided, mean == 0; NAN: no test */
};

void block_series_init(struct block_series *s);
/* Store @v in block @id with @st; 0, or -1 if @id is out of range. */
int block_series_set(struct block_series *s, int id, double v, enum block_state st);
/* The series negated (a gain where a ratio was, or the other way). */
void block_series_negate(struct block_series *s);
/*
 * @out = the block-wise mean of @n series. A block has a value only where
 * every series has one; it is exact where all are exact, a bound where the
 * inexact ones all bound the same way, BS_UNKNOWN otherwise.
 */
void block_series_mean(const struct block_series *const *in, int n,
		       struct block_series *out);
/*
 * Fit the t model at confidence @level. Fewer than two exact blocks: mean
 * only. No spread at all (sd 0): no interval and no test, since a t model
 * with zero variance would claim certainty the data do not have.
 */
void block_fit(const struct block_series *s, double level, struct block_fit *f);
/*
 * The smallest |log change| a test with standard error @se at @df degrees
 * of freedom detects with power BLOCKS_POWER at two-sided @alpha; NAN
 * without a test.
 */
double block_mde_log(double se, double df, double alpha);
/* The same at another @power. */
double block_mde_log_at(double se, double df, double alpha, double power);

#endif
