/* job_env.c - a job clone's thread settings (job_env.h): its CPU set from
 * cpus_allowed / cpumask and numa_cpu_nodes, one CPU of it with
 * cpus_allowed_policy=split, the NUMA memory policy (set_mempolicy, so
 * the buffers allocated next follow it), nice and the I/O priority
 * (ioprio_set), each for this thread only, as fio sets them per job. */
#include "run/job_env.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "io/cmdprio.h"
#include "util/error.h"
#include "job/options.h"

#define IOPRIO_WHO_PROCESS 1
#define NODE_CPULIST "/sys/devices/system/node/node%u/cpulist"

/* The CPUs of the nodes in mask, from sysfs. */
static int node_cpus(const struct job_spec *s, const uint64_t *mask, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (unsigned n = 0; n < NUMA_NODES_MAX; n++) {
		char path[96], list[4096];
		cpu_set_t cpus;
		FILE *f;
		size_t len;

		if (!(mask[n / 64] & (1ull << (n % 64))))
			continue;
		snprintf(path, sizeof(path), NODE_CPULIST, n);
		f = fopen(path, "r");
		if (!f) {
			if (n == 0 && errno == ENOENT) {   /* a kernel without NUMA */
				sched_getaffinity(0, sizeof(cpus), &cpus);
				CPU_OR(set, set, &cpus);
				continue;
			}
			return err_set("job '%s': numa_cpu_nodes: %s: %s", s->name, path,
				       strerror(errno));
		}
		len = fread(list, 1, sizeof(list) - 1, f);
		fclose(f);
		while (len && (list[len - 1] == '\n' || list[len - 1] == ' '))
			len--;
		list[len] = '\0';
		if (!len)
			continue;   /* a node with memory only */
		if (parse_cpu_list(list, &cpus) < 0)
			return err_prefix("job '%s': numa_cpu_nodes: node %u", s->name, n);
		CPU_OR(set, set, &cpus);
	}
	return 0;
}

/* cpus_allowed_policy=split: the clone's own CPU of the set (fio's
 * fio_cpus_split, counting this job's clones). */
static void split_cpus(cpu_set_t *set, unsigned clone)
{
	unsigned count = (unsigned)CPU_COUNT(set), want = clone % count, seen = 0;

	for (unsigned cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, set))
			continue;
		if (seen++ != want)
			CPU_CLR(cpu, set);
	}
}

static int apply_cpus(const struct worker *w)
{
	const struct job_spec *s = w->spec;
	cpu_set_t set, nodes;
	int rc;

	if (!s->cpus_allowed[0] && !s->eng.numa_cpu_nodes_set)
		return 0;
	CPU_ZERO(&set);
	if (s->cpus_allowed[0] && parse_cpu_list(s->cpus_allowed, &set) < 0)
		return err_prefix("job '%s': cpus_allowed", s->name);
	if (s->eng.numa_cpu_nodes_set) {
		if (node_cpus(s, s->eng.numa_cpu_nodes, &nodes))
			return -1;
		if (s->cpus_allowed[0])
			CPU_AND(&set, &set, &nodes);
		else
			set = nodes;
		if (!CPU_COUNT(&set))
			return err_set("job '%s': numa_cpu_nodes and cpus_allowed leave no CPU",
				       s->name);
	}
	if (s->eng.cpus_allowed_policy == CPUS_SPLIT)
		split_cpus(&set, w->clone);
	rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc)
		return err_set("job '%s': setting the CPUs (cpus_allowed%s): %s", s->name,
			       s->eng.numa_cpu_nodes_set ? ", numa_cpu_nodes" : "",
			       strerror(rc));
	return 0;
}

static int apply_mem_policy(const struct job_spec *s)
{
	static const int mode_of[] = {
		[NUMA_MEM_DEFAULT] = 0, [NUMA_MEM_PREFER] = 1, [NUMA_MEM_BIND] = 2,
		[NUMA_MEM_INTERLEAVE] = 3, [NUMA_MEM_LOCAL] = 4,
	};
	enum numa_policy p = s->eng.numa_mem_policy;
	bool nodes = p == NUMA_MEM_PREFER || p == NUMA_MEM_BIND || p == NUMA_MEM_INTERLEAVE;

	if (p == NUMA_MEM_NONE)
		return 0;
	if (syscall(SYS_set_mempolicy, mode_of[p], nodes ? s->eng.numa_mem_nodes : NULL,
		    nodes ? (unsigned long)NUMA_NODES_MAX + 1 : 0UL))
		return err_set("job '%s': numa_mem_policy: set_mempolicy: %s", s->name,
			       strerror(errno));
	return 0;
}

static int apply_priorities(const struct job_spec *s)
{
	if (s->eng.nice_set && setpriority(PRIO_PROCESS, 0, s->eng.nice))
		return err_set("job '%s': nice=%d: %s", s->name, s->eng.nice, strerror(errno));
	if ((s->eng.prio_set || s->eng.prioclass_set) &&
	    syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, (int)cmdprio_job_ioprio(s)))
		return err_set("job '%s': prio/prioclass: ioprio_set: %s", s->name,
			       strerror(errno));
	return 0;
}

int job_env_apply(const struct worker *w)
{
	if (apply_cpus(w) || apply_mem_policy(w->spec) || apply_priorities(w->spec))
		return -1;
	return 0;
}
