/* checks_out.c - fio's JSON "steadystate" object (stat.c's
 * show_thread_status_json: ss, duration, attained, criterion,
 * max_deviation, slope and the window's data, oldest first, lat_mean and
 * lat_ns only for a latency criterion), drivebench's sprandom plan object,
 * and the summary's lines for both. */
#include "output/checks_out.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "measure/check_results.h"

static void add_int(cJSON *o, const char *name, uint64_t v, bool *failed)
{
	char text[32];

	snprintf(text, sizeof(text), "%" PRIu64, v);
	if (!cJSON_AddRawToObject(o, name, text))
		*failed = true;
}

static void add_num(cJSON *o, const char *name, double v, bool *failed)
{
	if (!cJSON_AddNumberToObject(o, name, isfinite(v) ? v : 0.0))
		*failed = true;
}

static void add_array(cJSON *o, const char *name, const uint64_t *v, unsigned n,
		      bool *failed)
{
	cJSON *a = cJSON_AddArrayToObject(o, name);

	for (unsigned i = 0; a && i < n; i++) {
		char text[32];
		cJSON *item;

		snprintf(text, sizeof(text), "%" PRIu64, v[i]);
		item = cJSON_CreateRaw(text);
		if (!item || !cJSON_AddItemToArray(a, item)) {
			cJSON_Delete(item);
			*failed = true;
			return;
		}
	}
	if (!a)
		*failed = true;
}

static const struct steady_report *steady_of(const struct job_result *r)
{
	return r->checks ? r->checks->steady : NULL;
}

cJSON *output_steadystate_json(const struct job_result *r, bool *failed)
{
	const struct steady_report *s = steady_of(r);
	cJSON *o, *data;
	char text[96];

	if (!s)
		return NULL;
	o = cJSON_CreateObject();
	if (!o) {
		*failed = true;
		return NULL;
	}
	steady_report_ss_text(s, text, sizeof(text));
	if (!cJSON_AddStringToObject(o, "ss", text))
		*failed = true;
	add_int(o, "duration", s->dur_ns / 1000000000ull, failed);
	add_int(o, "attained", s->attained, failed);
	steady_report_criterion_text(s, text, sizeof(text));
	if (!cJSON_AddStringToObject(o, "criterion", text))
		*failed = true;
	add_num(o, "max_deviation", s->max_deviation, failed);
	add_num(o, "slope", s->slope_value, failed);
	data = cJSON_AddObjectToObject(o, "data");
	if (!data) {
		*failed = true;
		return o;
	}
	add_int(data, "bw_mean", steady_report_mean(s, s->bw), failed);
	add_int(data, "iops_mean", steady_report_mean(s, s->iops), failed);
	if (s->metric == SS_LAT) {
		add_int(data, "lat_mean", steady_report_mean(s, s->lat), failed);
		add_array(data, "lat_ns", s->lat, s->intervals, failed);
	}
	add_array(data, "iops", s->iops, s->intervals, failed);
	add_array(data, "bw", s->bw, s->intervals, failed);
	return o;
}

cJSON *output_sprandom_json(const struct job_result *r, bool *failed)
{
	const struct sprandom_report *p = r->checks ? r->checks->sprandom : NULL;
	cJSON *o, *pct;

	if (!p)
		return NULL;
	o = cJSON_CreateObject();
	if (!o) {
		*failed = true;
		return NULL;
	}
	add_num(o, "spr_op", p->op, failed);
	add_int(o, "spr_num_regions", p->regions, failed);
	add_int(o, "spr_cs", p->cache_bytes, failed);
	add_num(o, "model_waf", spr_model_waf(p->op), failed);
	add_int(o, "block_bytes", p->block_bytes, failed);
	add_int(o, "logical_bytes", p->logical_bytes, failed);
	add_int(o, "physical_bytes", p->physical_bytes, failed);
	add_int(o, "region_bytes", p->region_bytes, failed);
	add_int(o, "region_writes", p->region_writes, failed);
	add_int(o, "writes", p->writes, failed);
	add_int(o, "invalidating_writes", p->replays, failed);
	pct = cJSON_AddArrayToObject(o, "invalid_pct");
	for (unsigned i = 0; pct && i < p->regions; i++) {
		cJSON *item = cJSON_CreateNumber(p->invalid[i] * 100.0 / SPR_PCT_PRECISION);

		if (!item || !cJSON_AddItemToArray(pct, item)) {
			cJSON_Delete(item);
			*failed = true;
			break;
		}
	}
	if (!pct)
		*failed = true;
	return o;
}

void output_checks_summary(FILE *f, const struct job_result *r)
{
	const struct steady_report *s = steady_of(r);
	const struct sprandom_report *p = r->checks ? r->checks->sprandom : NULL;
	char criterion[64];

	if (s) {
		static const char *const metric[] = { "iops", "bw", "lat" };

		steady_report_criterion_text(s, criterion, sizeof(criterion));
		fprintf(f, "  steadystate  : attained=%s, bw=%.2f MB/s, iops=%" PRIu64
			", %s%s=%s (limit %g%s) over %u of %u intervals\n",
			s->attained ? "yes" : "no",
			(double)steady_report_mean(s, s->bw) / 1e6,
			steady_report_mean(s, s->iops), metric[s->metric],
			s->slope ? " slope" : " mean dev", criterion, s->limit,
			s->pct ? "%" : "", s->nr, s->intervals);
	}
	if (p)
		fprintf(f, "  sprandom     : op %.2f (model WAF %.2f), %u regions of %" PRIu64
			" bytes, physical %" PRIu64 " of logical %" PRIu64 " bytes, %" PRIu64
			" writes (%" PRIu64 " invalidating)\n", p->op, spr_model_waf(p->op),
			p->regions, p->region_bytes, p->physical_bytes, p->logical_bytes,
			p->writes, p->replays);
}
