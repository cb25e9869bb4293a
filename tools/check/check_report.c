/* SPDX-License-Identifier: MIT */
/* fastraw-check's totals and its two report formats: key=value text lines and one JSON object. */
#include "check/check_report.h"

#include <inttypes.h>
#include <string.h>

void check_sum(const struct check_thread *thr, int n, struct check_totals *tot)
{
	uint64_t seen = 0, half;

	memset(tot, 0, sizeof(*tot));
	for (int i = 0; i < n; i++) {
		const struct check_thread *t = &thr[i];

		tot->samples += t->samples;
		tot->backwards += t->backwards;
		tot->cross += t->cross;
		tot->nsec_range += t->nsec_range;
		tot->errors += t->errors;
		tot->kernel_samples += t->kernel_samples;
		tot->kernel_violations += t->kernel_violations;
		if (t->worst_ns > tot->worst_ns)
			tot->worst_ns = t->worst_ns;
	}
	if (!tot->kernel_samples)
		return;
	/* The lower median: the smallest width with at least half of the windows at or below it. */
	half = (tot->kernel_samples + 1) / 2;
	for (int64_t w = 0; w <= CHECK_WINDOW_MAX; w++) {
		for (int i = 0; i < n; i++)
			seen += thr[i].window_hist ? thr[i].window_hist[w] : 0;
		if (seen >= half) {
			tot->median_window_ns = w;
			return;
		}
	}
}

int check_failed(const struct check_totals *tot)
{
	return tot->backwards || tot->cross || tot->nsec_range || tot->errors ||
	       tot->kernel_violations;
}

static void print_examples(FILE *f, const struct check_thread *t)
{
	const struct check_example *e;

	e = &t->first_backwards;
	if (e->set)
		fprintf(f, "fastraw-check: thread=%d first backwards: sample %" PRIu64 " read %" PRId64
			   " ns after %" PRId64 " ns (%" PRId64 " ns earlier)\n",
			t->index, e->sample, e->b, e->a, e->a - e->b);
	e = &t->first_cross;
	if (e->set)
		fprintf(f, "fastraw-check: thread=%d first cross: sample %" PRIu64 " read %" PRId64
			   " ns after thread %" PRId64 " published %" PRId64 " ns (%" PRId64 " ns earlier)\n",
			t->index, e->sample, e->c, e->a, e->b, e->b - e->c);
	e = &t->first_nsec;
	if (e->set)
		fprintf(f, "fastraw-check: thread=%d first nsec_range: sample %" PRIu64 " tv_sec=%" PRId64
			   " tv_nsec=%" PRId64 "\n",
			t->index, e->sample, e->a, e->b);
	e = &t->first_error;
	if (e->set)
		fprintf(f, "fastraw-check: thread=%d first error: sample %" PRIu64
			   " clock_gettime failed: %s\n",
			t->index, e->sample, strerror((int)e->a));
	e = &t->first_kernel;
	if (e->set)
		fprintf(f, "fastraw-check: thread=%d first kernel_violation: sample %" PRIu64
			   " read %" PRId64 " ns outside the kernel's [%" PRId64 ", %" PRId64
			   "] (%" PRId64 " ns)\n",
			t->index, e->sample, e->b, e->a, e->c, e->b < e->a ? e->a - e->b : e->b - e->c);
}

/* The counts shared by the per-thread lines and the summary, as " key=value" pairs. */
static void print_counts(FILE *f, int cross_checked, uint64_t samples, uint64_t backwards, uint64_t cross,
			 uint64_t nsec_range, uint64_t errors)
{
	fprintf(f, " samples=%" PRIu64 " backwards=%" PRIu64, samples, backwards);
	if (cross_checked)
		fprintf(f, " cross=%" PRIu64, cross);
	else
		fputs(" cross=n/a", f);
	fprintf(f, " nsec_range=%" PRIu64 " errors=%" PRIu64, nsec_range, errors);
}

void check_print_text(FILE *f, const struct check_header *h, const struct check_thread *thr,
		      const struct check_totals *tot)
{
	const int n = h->cfg->threads, kernel = h->cfg->against_kernel;

	for (int i = 0; i < n; i++) {
		const struct check_thread *t = &thr[i];

		fprintf(f, "fastraw-check: thread=%d cpu=%d", t->index, t->cpu);
		print_counts(f, h->cfg->cross_check, t->samples, t->backwards, t->cross, t->nsec_range, t->errors);
		if (kernel)
			fprintf(f, " kernel_samples=%" PRIu64 " kernel_violations=%" PRIu64
				   " worst_ns=%" PRId64,
				t->kernel_samples, t->kernel_violations, t->worst_ns);
		fputc('\n', f);
	}
	for (int i = 0; i < n; i++)
		print_examples(f, &thr[i]);

	if (!h->cfg->cross_check)
		fprintf(f, "fastraw-check: note: %s is a CPU-time clock (each thread's own, or the process's "
			   "sum, which no thread reads in order with another): readings of different threads "
			   "are not ordered, so the cross-thread check is skipped (cross=n/a)\n",
			h->clock);
	fprintf(f, "fastraw-check: clock=%s threads=%d seconds=%s", h->clock, n, h->seconds);
	print_counts(f, h->cfg->cross_check, tot->samples, tot->backwards, tot->cross, tot->nsec_range, tot->errors);
	if (kernel)
		fprintf(f, " kernel_samples=%" PRIu64 " kernel_violations=%" PRIu64
			   " worst_ns=%" PRId64 " median_window_ns=%" PRId64,
			tot->kernel_samples, tot->kernel_violations, tot->worst_ns,
			tot->median_window_ns);
	fprintf(f, " result=%s\n", check_failed(tot) ? "violation" : "ok");
}

static void json_counts(FILE *f, int cross_checked, uint64_t samples, uint64_t backwards, uint64_t cross,
			uint64_t nsec_range, uint64_t errors)
{
	fprintf(f, "\"samples\":%" PRIu64 ",\"backwards\":%" PRIu64, samples, backwards);
	if (cross_checked)
		fprintf(f, ",\"cross\":%" PRIu64, cross);
	else
		fputs(",\"cross\":null", f);
	fprintf(f, ",\"nsec_range\":%" PRIu64 ",\"errors\":%" PRIu64, nsec_range, errors);
}

void check_print_json(FILE *f, const struct check_header *h, const struct check_thread *thr,
		      const struct check_totals *tot)
{
	const int n = h->cfg->threads, kernel = h->cfg->against_kernel;

	/* The clock's name comes from a fixed table or is a number: nothing to escape. */
	fprintf(f, "{\"clock\":\"%s\",\"clock_id\":%d,\"threads\":%d,\"seconds\":%s,", h->clock,
		(int)h->clock_id, n, h->seconds);
	json_counts(f, h->cfg->cross_check, tot->samples, tot->backwards, tot->cross, tot->nsec_range, tot->errors);
	fprintf(f, ",\"cross_checked\":%s", h->cfg->cross_check ? "true" : "false");
	fprintf(f, ",\"against_kernel\":%s", kernel ? "true" : "false");
	if (kernel)
		fprintf(f, ",\"kernel_samples\":%" PRIu64 ",\"kernel_violations\":%" PRIu64
			   ",\"worst_ns\":%" PRId64 ",\"median_window_ns\":%" PRId64,
			tot->kernel_samples, tot->kernel_violations, tot->worst_ns,
			tot->median_window_ns);
	fprintf(f, ",\"result\":\"%s\",\"per_thread\":[", check_failed(tot) ? "violation" : "ok");
	for (int i = 0; i < n; i++) {
		const struct check_thread *t = &thr[i];

		fprintf(f, "%s{\"thread\":%d,\"cpu\":%d,", i ? "," : "", t->index, t->cpu);
		json_counts(f, h->cfg->cross_check, t->samples, t->backwards, t->cross, t->nsec_range, t->errors);
		if (kernel)
			fprintf(f, ",\"kernel_samples\":%" PRIu64 ",\"kernel_violations\":%" PRIu64
				   ",\"worst_ns\":%" PRId64,
				t->kernel_samples, t->kernel_violations, t->worst_ns);
		fputc('}', f);
	}
	fputs("]}\n", f);
}
