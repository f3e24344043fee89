/* engine_opts.c - the options of engine_opts.h that belong to no engine
 * (the job's thread: CPUs, NUMA, nice, I/O priority; measurements turned
 * off; atomic writes; fio's threads) and their defaults. The engines' own
 * option tables are in their files (io/cpuio.c, io/exec.c ...), and the
 * checks that tie them to the job's ioengine in io/engine_check.c. */
#include "job/engine_opts.h"
#include "job/engine_opts_table.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "job/job_spec.h"
#include "job/option_table.h"
#include "job/options.h"
#include "job/values.h"

#define NODE_SYSFS "/sys/devices/system/node"

void engine_opts_defaults(struct engine_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cpuio.chunk_us = 50000;          /* fio's cpuchunks default */
	o->exec.grace_s = 1;
	o->exec.std_redirect = true;
	o->pvsync2.hipri_percentage = 100;
	strcpy(o->uring_cmd.cmd_type, "nvme");
	o->uring_cmd.nonvectored = -1;
}

static int parse_bounded(const char *value, uint64_t lo, uint64_t hi, uint64_t *out)
{
	if (parse_u64_plain(value, out))
		return err_set("bad number '%s'", value);
	return units_check_range(*out, lo, hi, UNITS_COUNT, value);
}

/* fio's threads=1 in its examples: fio reads it as the tiobench profile's
 * thread count and it changes nothing in a plain job; drivebench always
 * runs jobs as threads, so 0 and 1 are accepted as that, a count is not. */
static int set_threads(struct job_spec *spec, const char *value)
{
	uint64_t n;

	if (parse_u64_plain(value, &n))
		return err_set("bad number '%s'", value);
	if (n > 1)
		return err_set("threads=%s: fio reads this as the tiobench profile's "
			       "thread count and ignores it in a job; use numjobs=%s",
			       value, value);
	spec->thread = true;
	return 0;
}

/* fio: gtod_reduce=1 turns off every latency and the bandwidth log; =0
 * leaves the disable_* options as they are. */
static int set_gtod_reduce(struct job_spec *spec, const char *value)
{
	bool on;

	if (!units_parse_bool(value, &on))
		return err_set("bad boolean '%s'", value);
	if (on) {
		spec->eng.disable_lat = spec->eng.disable_clat = true;
		spec->eng.disable_slat = spec->eng.disable_bw = true;
	}
	return 0;
}

static int set_nice(struct job_spec *spec, const char *value)
{
	const char *digits = value[0] == '-' ? value + 1 : value;
	uint64_t n;

	if (parse_u64_plain(digits, &n))
		return err_set("bad number '%s'", value);
	if (value[0] == '-' ? n > 20 : n > 19)
		return err_set("%s is too %s, the range is -20..19", value,
			       value[0] == '-' ? "small" : "large");
	spec->eng.nice = value[0] == '-' ? -(int)n : (int)n;
	spec->eng.nice_set = true;
	return 0;
}

static int set_prio(struct job_spec *spec, const char *value)
{
	uint64_t n;

	if (parse_bounded(value, 0, 7, &n))
		return -1;
	spec->eng.prio = (unsigned)n;
	spec->eng.prio_set = true;
	return 0;
}

static int set_prioclass(struct job_spec *spec, const char *value)
{
	uint64_t n;

	if (parse_bounded(value, 0, 3, &n))
		return -1;
	spec->eng.prioclass = (unsigned)n;
	spec->eng.prioclass_set = true;
	return 0;
}

static bool node_online(unsigned node)
{
	char path[64];

	snprintf(path, sizeof(path), NODE_SYSFS "/node%u", node);
	if (access(path, F_OK) == 0)
		return true;
	/* a kernel without NUMA has no node directory: node 0 is the machine */
	return node == 0 && access(NODE_SYSFS, F_OK) != 0;
}

static int parse_node_number(const char **p, const char *text, unsigned *out)
{
	char *end;
	unsigned long n;

	if (**p < '0' || **p > '9')
		return err_set("bad node list '%s'", text);
	errno = 0;
	n = strtoul(*p, &end, 10);
	if (errno || n >= NUMA_NODES_MAX)
		return err_set("bad node list '%s': node out of range (max %d)", text,
			       NUMA_NODES_MAX - 1);
	*p = end;
	*out = (unsigned)n;
	return 0;
}

/* "0-1,3" or "all": every node must be on this machine (fio's libnuma
 * refuses a node it does not have as the job is read, and so do we). */
static int parse_node_list(const char *text, uint64_t mask[NUMA_MASK_WORDS])
{
	const char *p = text;

	memset(mask, 0, NUMA_MASK_WORDS * sizeof(mask[0]));
	if (!strcmp(text, "all")) {
		for (unsigned n = 0; n < NUMA_NODES_MAX; n++)
			if (node_online(n))
				mask[n / 64] |= 1ull << (n % 64);
		return 0;
	}
	for (;;) {
		unsigned first, last;

		if (parse_node_number(&p, text, &first))
			return -1;
		last = first;
		if (*p == '-') {
			p++;
			if (parse_node_number(&p, text, &last))
				return -1;
			if (last < first)
				return err_set("bad node list '%s': range %u-%u runs backwards",
					       text, first, last);
		}
		for (unsigned n = first; n <= last; n++) {
			if (!node_online(n))
				return err_set("NUMA node %u is not on this machine (%s/node%u "
					       "is missing; see numactl --hardware)", n,
					       NODE_SYSFS, n);
			mask[n / 64] |= 1ull << (n % 64);
		}
		if (*p == '\0')
			return 0;
		if (*p != ',')
			return err_set("bad node list '%s'", text);
		p++;
	}
}

static int set_numa_cpu_nodes(struct job_spec *spec, const char *value)
{
	if (parse_node_list(value, spec->eng.numa_cpu_nodes))
		return -1;
	spec->eng.numa_cpu_nodes_set = true;
	return 0;
}

/* fio's numa_mem_policy: default, local, prefer:N, bind:LIST, interleave:LIST */
static int set_numa_mem_policy(struct job_spec *spec, const char *value)
{
	static const struct { const char *name; enum numa_policy mode; bool nodes; } modes[] = {
		{ "default", NUMA_MEM_DEFAULT, false }, { "local", NUMA_MEM_LOCAL, false },
		{ "prefer", NUMA_MEM_PREFER, true }, { "bind", NUMA_MEM_BIND, true },
		{ "interleave", NUMA_MEM_INTERLEAVE, true },
	};
	const char *colon = strchr(value, ':');
	size_t len = colon ? (size_t)(colon - value) : strlen(value);
	struct engine_opts *o = &spec->eng;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strlen(modes[i].name) != len || strncmp(value, modes[i].name, len))
			continue;
		if (modes[i].nodes != (colon != NULL))
			return err_set("'%s': %s %s", value, modes[i].name, modes[i].nodes ?
				       "needs nodes (e.g. bind:0)" : "takes no nodes");
		memset(o->numa_mem_nodes, 0, sizeof(o->numa_mem_nodes));
		if (colon && parse_node_list(colon + 1, o->numa_mem_nodes))
			return -1;
		if (modes[i].mode == NUMA_MEM_PREFER &&
		    (strchr(colon + 1, ',') || strchr(colon + 1, '-')))
			return err_set("'%s': prefer takes one node", value);
		o->numa_mem_policy = modes[i].mode;
		return 0;
	}
	return err_set("unknown policy '%s' (default, local, prefer:N, bind:NODES, "
		       "interleave:NODES)", value);
}

static int set_cpus_allowed_policy(struct job_spec *spec, const char *value)
{
	if (!strcmp(value, "shared"))
		spec->eng.cpus_allowed_policy = CPUS_SHARED;
	else if (!strcmp(value, "split"))
		spec->eng.cpus_allowed_policy = CPUS_SPLIT;
	else
		return err_set("unknown policy '%s' (shared or split)", value);
	return 0;
}

/* cpumask=MASK (decimal or 0x hex, bit N = CPU N): fio's older form of
 * cpus_allowed, stored as that list. */
static int set_cpumask(struct job_spec *spec, const char *value)
{
	char list[sizeof(spec->cpus_allowed)];
	size_t used = 0;
	uint64_t mask;

	if (parse_u64_plain(value, &mask))
		return err_set("bad mask '%s' (a number, e.g. 0x3 for CPUs 0 and 1)", value);
	if (!mask)
		return err_set("mask '%s' names no CPU", value);
	list[0] = '\0';
	for (unsigned cpu = 0; cpu < 64; cpu++)
		if (mask & (1ull << cpu))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%u",
						 used ? "," : "", cpu);
	if (parse_cpu_list(list, NULL) < 0)
		return -1;
	memcpy(spec->cpus_allowed, list, used + 1);
	return 0;
}

/* fio: atomic=1 implies O_DIRECT. */
static int set_atomic(struct job_spec *spec, const char *value)
{
	bool on;

	if (!units_parse_bool(value, &on))
		return err_set("bad boolean '%s'", value);
	spec->eng.atomic = on;
	if (on)
		spec->direct = true;
	return 0;
}

#define EFIELD(f) offsetof(struct job_spec, f), sizeof(((struct job_spec *)0)->f)
#define EBOOL(n, a, f) { n, a, OPT_BOOL, EFIELD(f), 0, 0, 0, NULL, true }

const struct option_def engine_opts_table[] = {
	FUNC("threads", NULL, set_threads),
	FLAG_FUNC("gtod_reduce", NULL, set_gtod_reduce),
	EBOOL("disable_lat", NULL, eng.disable_lat),
	EBOOL("disable_clat", NULL, eng.disable_clat),
	EBOOL("disable_slat", NULL, eng.disable_slat),
	EBOOL("disable_bw_measurement", "disable_bw", eng.disable_bw),
	FUNC("nice", NULL, set_nice),
	FUNC("prio", NULL, set_prio),
	FUNC("prioclass", NULL, set_prioclass),
	FUNC("numa_cpu_nodes", NULL, set_numa_cpu_nodes),
	FUNC("numa_mem_policy", NULL, set_numa_mem_policy),
	FUNC("cpus_allowed_policy", NULL, set_cpus_allowed_policy),
	FUNC("cpumask", NULL, set_cpumask),
	FLAG_FUNC("atomic", NULL, set_atomic),
	EBOOL("allow_mounted_write", NULL, eng.allow_mounted_write),
};


int engine_opts_note(struct job_spec *spec, const struct option_def *def)
{
	struct engine_opts *o = &spec->eng;

	for (unsigned i = 0; i < o->nr_engine_options; i++)
		if (!strcmp(o->engine_option[i], def->name))
			return 0;
	if (o->nr_engine_options >= ENGINE_OPTIONS_SET_MAX)
		return err_set("more than %d engine options", ENGINE_OPTIONS_SET_MAX);
	o->engine_option[o->nr_engine_options++] = def->name;
	return 0;
}

int engine_opts_check(const struct job_spec *spec)
{
	if (spec->eng.atomic && !spec->direct)
		return err_set("option 'atomic': atomic=1 implies direct=1, and the job "
			       "asks for buffered I/O");
	return 0;
}
