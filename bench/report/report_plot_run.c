// SPDX-License-Identifier: GPL-2.0
/*
 * Drawing the report's plots (see report_plot.h): name each plot's files
 * after its workload, have report_plot.c write its data and script, then
 * run gnuplot on every script inside the output directory, its output
 * collected in gnuplot.log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/log.h"
#include "../lib/paths.h"
#include "report_plot.h"
#include "report_plot_kinds.h"

#define PLOT_LOG	"gnuplot.log"
#define PLOT_PATH_MAX	(4096 + 128)
#define STEM_MAX	96	/* "metrics-" + a sanitised name + "-NN" */
#define MAX_PLOTS	(1 + 2 * REPORT_MAX_WORKLOADS)
#define GNUPLOT_NOEXEC	127	/* the child's exit status when exec failed */
#define GNUPLOT_NODIR	126	/* ... when it could not enter the directory */

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct plotter {
	const struct report *r;
	const char *outdir;
	char wl_stem[REPORT_MAX_WORKLOADS][80];	/* sanitised names */
	char made[MAX_PLOTS][STEM_MAX];		/* scripts written */
	int nmade;
};

/* ---- files ---------------------------------------------------------------- */

static const struct plot_kind {
	const char *prefix;
	int per_workload;
	plot_fn write;
} plot_kinds[] = {
	{ "gains", 0, plot_gains },
	{ "latency", 1, plot_latency },
	{ "metrics", 1, plot_metrics },
};

static int keep_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

static void make_stems(struct plotter *p)
{
	char *s;
	int i, j;

	for (i = 0; i < p->r->nwl; i++) {
		s = p->wl_stem[i];
		snprintf(s, sizeof(p->wl_stem[i]), "%s", p->r->wl[i].name);
		for (; *s; s++)
			if (!keep_char(*s))
				*s = '_';
		s = p->wl_stem[i];
		if (!*s)
			snprintf(s, sizeof(p->wl_stem[i]), "workload%d", i);
		/* "a b" and "a_b" must not overwrite each other's plots. */
		for (j = 0; j < i; j++)
			if (!strcmp(p->wl_stem[j], s))
				break;
		if (j < i)
			snprintf(s + strlen(s), sizeof(p->wl_stem[i]) - strlen(s),
				 "-%d", i);
	}
}

static int out_path(char *path, const char *outdir, const char *stem,
		    const char *ext)
{
	if (snprintf(path, PLOT_PATH_MAX, "%s/%s%s", outdir, stem, ext) >=
	    PLOT_PATH_MAX) {
		err_msg("path too long: %s/%s%s", outdir, stem, ext);
		return -ENAMETOOLONG;
	}
	return 0;
}

static int open_out(const char *outdir, const char *stem, const char *ext,
		    FILE **f)
{
	char path[PLOT_PATH_MAX];
	int ret = out_path(path, outdir, stem, ext);

	if (ret)
		return ret;
	*f = fopen(path, "w");
	if (!*f) {
		ret = -errno;
		err_errno(-ret, "cannot write %s", path);
	}
	return ret;
}

/* Close @f, and say so if anything written to it was lost (a full disk). */
static int close_out(FILE *f, const char *outdir, const char *stem,
		     const char *ext)
{
	int ret = 0;

	if (!f)
		return 0;
	if (ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		err_errno(-ret, "cannot write %s/%s%s", outdir, stem, ext);
	return ret;
}

static void remove_out(const char *outdir, const char *stem, const char *ext)
{
	char path[PLOT_PATH_MAX];

	if (!out_path(path, outdir, stem, ext))
		unlink(path);
}

/* Write one plot's files; remember the script if it has anything to show. */
static int make_script(struct plotter *p, const struct plot_kind *kind, int wl)
{
	FILE *dat = NULL, *gp = NULL;
	char stem[STEM_MAX];
	int ret, ret2;

	if (kind->per_workload)
		snprintf(stem, sizeof(stem), "%s-%s", kind->prefix, p->wl_stem[wl]);
	else
		snprintf(stem, sizeof(stem), "%s", kind->prefix);
	ret = open_out(p->outdir, stem, ".dat", &dat);
	if (!ret)
		ret = open_out(p->outdir, stem, ".gp", &gp);
	if (!ret)
		ret = kind->write(p->r, wl, stem, dat, gp);
	/* The same plot as PNG, for viewers without SVG. */
	if (ret > 0)
		fprintf(gp, "set terminal pngcairo size 900,500 font 'sans,10'\n"
			"set output '%s.png'\nreplot\n", stem);
	ret2 = close_out(dat, p->outdir, stem, ".dat");
	if (ret >= 0 && ret2)
		ret = ret2;
	ret2 = close_out(gp, p->outdir, stem, ".gp");
	if (ret >= 0 && ret2)
		ret = ret2;
	if (ret <= 0) {
		remove_out(p->outdir, stem, ".dat");
		remove_out(p->outdir, stem, ".gp");
		return ret;
	}
	snprintf(p->made[p->nmade++], STEM_MAX, "%s", stem);
	return 0;
}

static int write_scripts(struct plotter *p)
{
	const struct plot_kind *kind;
	int nwl, wl, ret;

	for (kind = plot_kinds; kind < plot_kinds + ARRAY_SIZE(plot_kinds); kind++) {
		nwl = kind->per_workload ? p->r->nwl : 1;
		for (wl = 0; wl < nwl; wl++) {
			ret = make_script(p, kind, wl);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* ---- gnuplot ------------------------------------------------------------- */


/* In the child: only async-signal-safe calls, as the caller may have threads. */
static void __attribute__((noreturn))
exec_gnuplot(const char *outdir, char *const argv[], int logfd)
{
	static const char msg[] = "csbench: cannot start gnuplot\n";
	int null = open("/dev/null", O_RDONLY);
	ssize_t n;

	if (null >= 0)
		dup2(null, STDIN_FILENO);
	dup2(logfd, STDOUT_FILENO);
	dup2(logfd, STDERR_FILENO);
	if (chdir(outdir))
		_exit(GNUPLOT_NODIR);
	execvp(argv[0], argv);
	n = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)n;
	_exit(GNUPLOT_NOEXEC);
}

/* gnuplot STEM.gp in @outdir: 0, -ENOENT (no gnuplot), or -EIO. */
static int run_gnuplot(const char *outdir, const char *stem, int logfd)
{
	char script[STEM_MAX + 4], svg[PLOT_PATH_MAX];
	char *argv[] = { (char *)"gnuplot", script, NULL };
	struct stat st;
	int status;
	pid_t pid;

	snprintf(script, sizeof(script), "%s.gp", stem);
	dprintf(logfd, "== gnuplot %s\n", script);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid)
		exec_gnuplot(outdir, argv, logfd);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == GNUPLOT_NOEXEC)
		return -ENOENT;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -EIO;
	/* gnuplot can exit 0 having drawn nothing, e.g. on a bad terminal. */
	if (out_path(svg, outdir, stem, ".svg") || stat(svg, &st) || !st.st_size)
		return -EIO;
	return 0;
}

static int run_all(struct plotter *p)
{
	char log[PLOT_PATH_MAX];
	int made = 0, failed = 0, fd, ret, i;

	ret = out_path(log, p->outdir, PLOT_LOG, "");
	if (ret)
		return ret;
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		err_errno(-ret, "cannot write %s", log);
		return ret;
	}
	for (i = 0; i < p->nmade; i++) {
		ret = run_gnuplot(p->outdir, p->made[i], fd);
		if (ret == -ENOENT) {
			err_msg("cannot run gnuplot (see %s)", log);
			break;
		}
		if (ret) {
			err_msg("gnuplot failed on %s/%s.gp (see %s)", p->outdir,
				p->made[i], log);
			failed = 1;
			continue;
		}
		made++;
	}
	close(fd);
	if (ret == -ENOENT)
		return ret;
	return failed ? -EIO : made;
}

int report_gnuplot(const char *outdir, const char *stem)
{
	char log[PLOT_PATH_MAX];
	int fd, ret;

	ret = out_path(log, outdir, PLOT_LOG, "");
	if (ret)
		return ret;
	if (!have_program("gnuplot")) {
		err_msg("gnuplot not found; the plot script is %s/%s.gp "
			"(install gnuplot-nox: make deps)", outdir, stem);
		return -ENOENT;
	}
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		err_errno(-ret, "cannot write %s", log);
		return ret;
	}
	ret = run_gnuplot(outdir, stem, fd);
	close(fd);
	if (ret)
		err_msg("gnuplot failed on %s/%s.gp (see %s)", outdir, stem, log);
	return ret;
}

int report_plot(const struct report *r, const char *outdir)
{
	struct plotter *p;
	int ret;

	if (!r || !outdir || r->nwl < 0 || r->nwl > REPORT_MAX_WORKLOADS ||
	    r->nrows < 0 || r->nrows > REPORT_MAX_ROWS)
		return -EINVAL;
	ret = mkdirs(outdir, 0755);
	if (ret) {
		err_errno(-ret, "cannot create %s", outdir);
		return ret;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->r = r;
	p->outdir = outdir;
	make_stems(p);
	ret = write_scripts(p);
	if (!ret && p->nmade && !have_program("gnuplot")) {
		err_msg("gnuplot not found; the plot scripts are in %s "
			"(install gnuplot-nox: make deps)", outdir);
		ret = -ENOENT;
	} else if (!ret) {
		ret = run_all(p);
	}
	free(p);
	return ret;
}
