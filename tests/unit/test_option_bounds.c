/* test_option_bounds.c - every job option has a range: a value below or
 * above it is refused with "VALUE is too small/too large, the range is
 * A..B" naming the option (or the option's own range text for lists and
 * percentages), every option in the table is covered here, and each one is
 * documented in docs/options.md with its range. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "job/job_spec.h"
#include "job/options.h"
#include "helpers/testfile.h"

struct bound_case {
	const char *key, *value, *message;   /* message: a fragment */
};

/* One value past each end of each range. */
static const struct bound_case cases[] = {
	{ "size", "2048p", "option 'size': 2048p is too large, the range is 0 bytes..1 EiB" },
	{ "size", "101%", "option 'size': bad percentage '101%' (0 < NN% <= 100)" },
	{ "io_size", "2048p", "option 'io_size': 2048p is too large, the range is 0 bytes..1 EiB" },
	{ "offset", "2048p", "option 'offset': 2048p is too large, the range is 0 bytes..1 EiB" },
	{ "offset", "100%", "option 'offset': bad percentage '100%' (0 <= NN% < 100)" },
	{ "offset_increment", "2048p", "option 'offset_increment': 2048p is too large, the range is 0 bytes..1 EiB" },
	{ "rwmixread", "101", "option 'rwmixread': 101 is too large, the range is 0..100" },
	{ "rwmixwrite", "101", "option 'rwmixwrite': 101 is too large, the range is 0..100" },
	{ "bs", "0", "option 'bs': 0 is too small, the range is 1 byte..4 GiB" },
	{ "bs", "5g", "option 'bs': 5g is too large, the range is 1 byte..4 GiB" },
	{ "bs", "4k,5g", "option 'bs': 5g is too large, the range is 1 byte..4 GiB" },
	{ "bssplit", "5g/100", "option 'bssplit': block size: 5g is too large, the range is 1 byte..4 GiB" },
	{ "bssplit", "4k/101", "option 'bssplit': bad percentage '101'" },
	{ "blockalign", "5g", "option 'blockalign': 5g is too large, the range is 0 bytes..4 GiB" },
	{ "iodepth", "0", "option 'iodepth': 0 is too small, the range is 1..65536" },
	{ "iodepth", "65537", "option 'iodepth': 65537 is too large, the range is 1..65536" },
	{ "iodepth_batch_submit", "65537", "option 'iodepth_batch_submit': 65537 is too large, the range is 0..65536" },
	{ "iodepth_batch_complete_min", "65537", "option 'iodepth_batch_complete_min': 65537 is too large, the range is 0..65536" },
	{ "iodepth_batch_complete_max", "65537", "option 'iodepth_batch_complete_max': 65537 is too large, the range is 0..65536" },
	{ "bwavgtime", "0", "option 'bwavgtime': 0 is too small, the range is 1..86400000" },
	{ "bwavgtime", "86400001", "option 'bwavgtime': 86400001 is too large, the range is 1..86400000" },
	{ "iopsavgtime", "0", "option 'iopsavgtime': 0 is too small, the range is 1..86400000" },
	{ "iopsavgtime", "86400001", "option 'iopsavgtime': 86400001 is too large, the range is 1..86400000" },
	{ "numjobs", "0", "option 'numjobs': 0 is too small, the range is 1..4096" },
	{ "numjobs", "4097", "option 'numjobs': 4097 is too large, the range is 1..4096" },
	{ "runtime", "366d", "option 'runtime': 366d is too large, the range is 0..365d" },
	{ "ramp_time", "31d", "option 'ramp_time': 31d is too large, the range is 0..30d" },
	{ "fsync", "4294967296", "option 'fsync': 4294967296 is too large, the range is 0..4294967295" },
	{ "chunk_size", "511", "option 'chunk_size': 511 is too small, the range is 512 bytes..1 GiB" },
	{ "chunk_size", "2g", "option 'chunk_size': 2g is too large, the range is 512 bytes..1 GiB" },
	{ "series_interval", "1ns", "option 'series_interval': 1ns is too small, the range is 1ms..1d" },
	{ "series_interval", "2d", "option 'series_interval': 2d is too large, the range is 1ms..1d" },
	{ "cmd_type", "bsg", "option 'cmd_type': cmd_type=bsg: drivebench's io_uring_cmd has only cmd_type=nvme" },
	{ "null_latency", "366d", "option 'null_latency': 366d is too large, the range is 0..365d" },
	{ "null_latency", "1us-366d", "option 'null_latency': 366d is too large, the range is 0..365d" },
	{ "gpu_dev_id", "1024", "option 'gpu_dev_id': 1024 is too large, the range is 0..1023" },
	{ "gds_transfer", "3", "option 'gds_transfer': bad transfer type '3' (0 GPUD, 1 CPUONLY, 2 CPU_GPU, 5 GPUD_ASYNC)" },
	{ "verify_backlog", "16777217", "option 'verify_backlog': 16777217 is too large, the range is 0..16777216" },
	{ "verify_interval", "32", "option 'verify_interval': 32 is too small, the range is 64 bytes..4 GiB" },
	{ "verify_interval", "5g", "option 'verify_interval': 5g is too large, the range is 64 bytes..4 GiB" },
	{ "fault_delay", "0", "option 'fault_delay': 0 is too small, the range is 1ns..365d" },
	{ "fault_delay", "366d", "option 'fault_delay': 366d is too large, the range is 1ns..365d" },
	{ "fault_eio_rate", "101", "option 'fault_eio_rate': bad rate '101' (a percentage from 0 to 100" },
	{ "fault_eio_offsets", "2048p", "option 'fault_eio_offsets': 2048p is too large, the range is 0 bytes..1 EiB" },
	{ "random_distribution", "zipf:1001", "option 'random_distribution': zipf theta 1001 is out of range: 0 < theta <= 1000, not 1" },
	{ "random_distribution", "normal:1001", "option 'random_distribution': normal sigma 1001 is out of range: 0 < sigma <= 1000" },
	{ "random_distribution", "pareto:1", "option 'random_distribution': pareto h must be between 0 and 1" },
	{ "random_distribution", "zoned_abs:100/2048p", "zone size: 2048p is too large, the range is 1 byte..1 EiB" },
	{ "random_distribution", "zoned:101/100", "bad access percentage '101'" },
	{ "percentile_list", "101", "option 'percentile_list': bad percentile '101' (0 < p <= 100)" },
	{ "cpus_allowed", "1024", "option 'cpus_allowed': bad CPU list '1024': CPU out of range (max 1023)" },
	{ "kb_base", "1023", "option 'kb_base': must be 1000 or 1024" },
	{ "name", "", "option 'name': empty name" },
	{ "fdatasync", "4294967296", "option 'fdatasync': 4294967296 is too large, the range is 0..4294967295" },
	{ "buffer_compress_percentage", "101", "option 'buffer_compress_percentage': 101 is too large, the range is 0..100" },
	{ "buffer_compress_chunk", "5g", "option 'buffer_compress_chunk': 5g is too large, the range is 0 bytes..4 GiB" },
	{ "dedupe_percentage", "101", "option 'dedupe_percentage': 101 is too large, the range is 0..100" },
	{ "dedupe_working_set_percentage", "101", "option 'dedupe_working_set_percentage': 101 is too large, the range is 0..100" },
	{ "buffer_pattern", "\"", "option 'buffer_pattern': bad pattern '\"': string without its closing" },
	{ "buffer_pattern", "2147483648", "option 'buffer_pattern': bad pattern '2147483648': number out of range" },
	{ "log_avg_msec", "86400001", "option 'log_avg_msec': 86400001 is too large, the range is 0..86400000" },
	{ "log_hist_msec", "86400001", "option 'log_hist_msec': 86400001 is too large, the range is 0..86400000" },
	{ "log_hist_coarseness", "7", "option 'log_hist_coarseness': 7 is too large, the range is 0..6" },
	{ "verify_pattern", "0xababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababab", "pattern longer than 512 bytes" },
	{ "verify_offset", "5g", "option 'verify_offset': 5g is too large, the range is 0 bytes..4 GiB" },
	{ "steadystate", "iops:-1%", "option 'steadystate': bad percentage '-1%' (a number >= 0, then %)" },
	{ "steadystate", "bw:2048p", "option 'steadystate': 2048p is too large, the range is 0 bytes..1 EiB" },
	{ "steadystate", "lat:366d", "option 'steadystate': 366d is too large, the range is 0..365d" },
	{ "steadystate_duration", "366d", "option 'steadystate_duration': 366d is too large, the range is 0..365d" },
	{ "steadystate_ramp_time", "366d", "option 'steadystate_ramp_time': 366d is too large, the range is 0..365d" },
	{ "steadystate_check_interval", "999us", "option 'steadystate_check_interval': 999us is too small, the range is 1ms..1d" },
	{ "steadystate_check_interval", "2d", "option 'steadystate_check_interval': 2d is too large, the range is 1ms..1d" },
	{ "spr_op", "1", "option 'spr_op': bad over-provisioning '1' (0 < spr_op < 1)" },
	{ "spr_op", "0", "option 'spr_op': bad over-provisioning '0' (0 < spr_op < 1)" },
	{ "spr_num_regions", "0", "option 'spr_num_regions': 0 is too small, the range is 1..1000000" },
	{ "spr_num_regions", "1000001", "option 'spr_num_regions': 1000001 is too large, the range is 1..1000000" },
	{ "spr_cs", "2048p", "option 'spr_cs': 2048p is too large, the range is 0 bytes..1 EiB" },
	{ "significant_figures", "0", "option 'significant_figures': 0 is too small, the range is 1..10" },
	{ "significant_figures", "11", "option 'significant_figures': 11 is too large, the range is 1..10" },
	/* pacing, shapes and job control (job/pacing_options.h) */
	{ "startdelay", "366d", "option 'startdelay': 366d is too large, the range is 0..365d" },
	{ "startdelay", "1-366d", "option 'startdelay': 366d is too large, the range is 0..365d" },
	{ "loops", "0", "option 'loops': 0 is too small, the range is 1..1000000000" },
	{ "loops", "1000000001", "option 'loops': 1000000001 is too large, the range is 1..1000000000" },
	{ "number_ios", "2048p", "option 'number_ios': 2048p is too large, the range is 0..1152921504606846976" },
	{ "rate", "2048p", "option 'rate': 2048p is too large, the range is 0 bytes..1 EiB" },
	{ "rate", "1m,2048p", "option 'rate': 2048p is too large, the range is 0 bytes..1 EiB" },
	{ "rate_min", "2048p", "option 'rate_min': 2048p is too large, the range is 0 bytes..1 EiB" },
	{ "rate_iops", "4294967296", "option 'rate_iops': 4294967296 is too large, the range is 0..4294967295" },
	{ "rate_iops_min", "4294967296", "option 'rate_iops_min': 4294967296 is too large, the range is 0..4294967295" },
	{ "rate_process", "square", "option 'rate_process': bad value 'square' (linear, poisson)" },
	{ "rate_cycle", "0", "option 'rate_cycle': 0 is too small, the range is 1ms..1d" },
	{ "rate_cycle", "2d", "option 'rate_cycle': 2d is too large, the range is 1ms..1d" },
	{ "thinktime", "366d", "option 'thinktime': 366d is too large, the range is 0..365d" },
	{ "thinktime_spin", "366d", "option 'thinktime_spin': 366d is too large, the range is 0..365d" },
	{ "thinktime_blocks", "0", "option 'thinktime_blocks': 0 is too small, the range is 1..4294967295" },
	{ "thinktime_blocks", "4294967296", "option 'thinktime_blocks': 4294967296 is too large, the range is 1..4294967295" },
	{ "thinktime_blocks_type", "later", "option 'thinktime_blocks_type': bad value 'later' (complete, issue)" },
	{ "thinktime_iotime", "366d", "option 'thinktime_iotime': 366d is too large, the range is 0..365d" },
	{ "latency_target", "366d", "option 'latency_target': 366d is too large, the range is 0..365d" },
	{ "latency_window", "366d", "option 'latency_window': 366d is too large, the range is 0..365d" },
	{ "latency_percentile", "101", "option 'latency_percentile': bad percentage '101' (0 <= p <= 100)" },
	{ "flow", "1001", "option 'flow': 1001 is too large, the range is 0..1000" },
	{ "flow_id", "4294967296", "option 'flow_id': 4294967296 is too large, the range is 0..4294967295" },
	{ "flow_sleep", "366d", "option 'flow_sleep': 366d is too large, the range is 0..365d" },
	{ "io_submit_mode", "later", "option 'io_submit_mode': bad value 'later' (inline, offload)" },
	{ "iodepth_low", "65537", "option 'iodepth_low': 65537 is too large, the range is 0..65536" },
	{ "bsrange", "4k-5g", "option 'bsrange': 5g is too large, the range is 1 byte..4 GiB" },
	{ "bsrange", "0-4k", "option 'bsrange': 0 is too small, the range is 1 byte..4 GiB" },
	{ "rw_sequencer", "random", "option 'rw_sequencer': bad value 'random' (sequential, identical)" },
	{ "zonemode", "zbd2", "option 'zonemode': bad value 'zbd2' (none, strided, zbd)" },
	{ "max_open_zones", "4294967296", "option 'max_open_zones': 4294967296 is too large" },
	{ "zone_reset_threshold", "1.01", "option 'zone_reset_threshold': '1.01' is not a number from 0 to 1" },
	{ "zone_reset_frequency", "-1", "option 'zone_reset_frequency': '-1' is not a number from 0 to 1" },
	{ "zonecapacity", "1m", "option 'zonecapacity': fio's zonemode=zbd option is not supported" },
	{ "job_max_open_zones", "1", "option 'job_max_open_zones': fio's zonemode=zbd option is not supported" },
	{ "read_beyond_wp", "1", "option 'read_beyond_wp': fio's zonemode=zbd option is not supported" },
	{ "ignore_zone_limits", "1", "option 'ignore_zone_limits': fio's zonemode=zbd option is not supported" },
	{ "zonesize", "2048p", "option 'zonesize': 2048p is too large, the range is 0 bytes..1 EiB" },
	{ "zonerange", "2048p", "option 'zonerange': 2048p is too large, the range is 0 bytes..1 EiB" },
	{ "zoneskip", "2048p", "option 'zoneskip': 2048p is too large, the range is 0 bytes..1 EiB" },
	{ "exit_what", "some", "option 'exit_what': bad value 'some' (group, stonewall, all)" },
	{ "wait_for", "", "option 'wait_for': empty job name" },
	{ "nrfiles", "0", "option 'nrfiles': 0 is too small, the range is 1..1048576" },
	{ "nrfiles", "1048577", "option 'nrfiles': 1048577 is too large, the range is 1..1048576" },
	{ "openfiles", "1048577", "option 'openfiles': 1048577 is too large, the range is 0..1048576" },
	{ "filesize", "0", "option 'filesize': 0 is too small, the range is 1 byte..1 EiB" },
	{ "filesize", "4k-2048p", "option 'filesize': 2048p is too large, the range is 1 byte..1 EiB" },
	{ "file_service_type", "random:0", "option 'file_service_type': file_service_type 'random:0': I/Os per file: 0 is too small, the range is 1..4294967295" },
	{ "file_service_type", "zipf:1001", "zipf theta 1001 is out of range: 0 < theta <= 1000, not 1" },
	{ "file_service_type", "pareto:1", "pareto h 1 is out of range: 0 < h < 1" },
	{ "file_service_type", "normal:100", "normal deviation 100 is out of range: 0 <= dev < 100" },
	{ "file_service_type", "zipf:1.2:2", "0 <= CENTER <= 1" },
	{ "threads", "2", "option 'threads': threads=2: fio reads this as the tiobench profile's thread count" },
	{ "nice", "20", "option 'nice': 20 is too large, the range is -20..19" },
	{ "nice", "-21", "option 'nice': -21 is too small, the range is -20..19" },
	{ "prio", "8", "option 'prio': 8 is too large, the range is 0..7" },
	{ "prioclass", "4", "option 'prioclass': 4 is too large, the range is 0..3" },
	{ "numa_cpu_nodes", "1024", "option 'numa_cpu_nodes': bad node list '1024': node out of range (max 1023)" },
	{ "numa_mem_policy", "bind:1024", "option 'numa_mem_policy': bad node list '1024': node out of range (max 1023)" },
	{ "cpumask", "0", "option 'cpumask': mask '0' names no CPU" },
	{ "cpuload", "0", "option 'cpuload': 0 is too small, the range is 1..100" },
	{ "cpuload", "101", "option 'cpuload': 101 is too large, the range is 1..100" },
	{ "cpuchunks", "0", "option 'cpuchunks': 0 is too small, the range is 1..1000000" },
	{ "cpuchunks", "1000001", "option 'cpuchunks': 1000001 is too large, the range is 1..1000000" },
	{ "grace_time", "3601", "option 'grace_time': 3601 is too large, the range is 0..3600" },
	{ "inplace", "2", "option 'inplace': 2 is too large, the range is 0..1" },
	{ "hipri_percentage", "101", "option 'hipri_percentage': 101 is too large, the range is 0..100" },
	{ "uncached", "2", "option 'uncached': 2 is too large, the range is 0..1" },
	{ "cmdprio_percentage", "101", "option 'cmdprio_percentage': 101 is too large, the range is 0..100" },
	{ "cmdprio_percentage", "10,101", "option 'cmdprio_percentage': 101 is too large, the range is 0..100" },
	{ "cmdprio_class", "0", "option 'cmdprio_class': 0 is too small, the range is 1..3" },
	{ "cmdprio_class", "4", "option 'cmdprio_class': 4 is too large, the range is 1..3" },
	{ "cmdprio", "8", "option 'cmdprio': 8 is too large, the range is 0..7" },
	{ "cmdprio_hint", "1024", "option 'cmdprio_hint': 1024 is too large, the range is 0..1023" },
	{ "cmdprio_bssplit", "4k/101", "option 'cmdprio_bssplit': entry '4k/101': out of range" },
	{ "cmdprio_bssplit", "4k/10/4/0", "option 'cmdprio_bssplit': entry '4k/10/4/0': out of range" },
	{ "cmdprio_bssplit", "4k/10/1/8", "option 'cmdprio_bssplit': entry '4k/10/1/8': out of range" },
};

/* Options whose values are names, flags, seeds or counts of any size:
 * nothing to bound beyond their syntax (or their length, tested below). */
static const char *const unbounded[] = {
	"description", "filename", "directory", "bssplit_file", "rw", "thread",
	"direct", "buffered", "sync", "ioengine", "time_based", "group_reporting",
	"iodepth_batch_adaptive",
	"randrepeat", "randseed", "norandommap", "random_generator", "end_fsync",
	"fixedbufs", "registerfiles", "sqthread_poll", "hipri", "stonewall",
	"new_group", "verify", "do_verify", "fill_device", "create_serialize", "verify_seed", "verify_only", "verify_fatal",
	"continue_on_error", "fault_short_rate", "fault_short_offsets",
	"fault_delay_rate", "fault_delay_offsets", "fault_drop_rate",
	"fault_drop_offsets", "fault_flip_rate", "fault_flip_offsets", "fault_skip",
	"fault_seed", "fault_dir",
	"zero_buffers", "refill_buffers", "scramble_buffers", "dedupe_mode", "dedupe_global",
	"fsync_on_close", "invalidate", "fadvise_hint",
	/* log names are bounded by their length (below) */
	"write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log",
	"log_max_value", "log_offset", "log_prio", "per_job_logs", "disk_util",
	"verify_dump", "verify_write_sequence", "verify_header_seed", "verify_state_save",
	"sprandom", "clat_percentiles", "lat_percentiles", "slat_percentiles",
	"unified_rw_reporting",
	"rate_ignore_thinktime", "latency_run", "flow_watermark",
	"random_sequence_stride", "exitall", "exitall_on_error",
	"create_on_open", "allow_file_create", "unlink",
	"unlink_each_loop", "fallocate", "stat_type", "filename_format",
	"gtod_reduce", "disable_lat", "disable_clat",
	"disable_slat", "disable_bw_measurement", "cpus_allowed_policy", "atomic",
	"allow_mounted_write", "nowait", "cpumode", "exit_on_io_done", "program",
	"arguments", "std_redirect", "donorname",
	/* checked at validation or when the drive opens: test_vssd_model,
	 * test_vssd.sh, test_vssd_state.sh */
	"vssd_model", "vssd_scale", "vssd_state",
	/* io_uring_cmd: booleans, and fio's options it refuses whatever the
	 * value (test_uring_cmd) */
	"nonvectored", "readfua", "writefua", "sqthread_poll_cpu", "force_async",
	"write_mode", "verify_mode", "read_mode", "md_per_io_size", "pi_act", "pi_chk",
	"apptag", "apptag_mask", "deac", "cdb_len", "verify_bytchk",
};

static void every_bound_is_refused_with_its_range(void **state)
{
	struct job_spec *spec = malloc(sizeof(*spec));

	(void)state;
	assert_non_null(spec);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		job_spec_defaults(spec);
		err_clear();
		if (job_option_set(spec, cases[i].key, cases[i].value) == 0)
			fail_msg("%s=%s was accepted", cases[i].key, cases[i].value);
		if (!strstr(err_msg(), cases[i].message))
			fail_msg("%s=%s: '%s' lacks '%s'", cases[i].key, cases[i].value,
				 err_msg(), cases[i].message);
	}
	free(spec);
}

/* The ends themselves are accepted. */
static void the_ends_of_each_range_are_accepted(void **state)
{
	static const char *const ok[][2] = {
		{ "iodepth", "1" }, { "iodepth", "65536" }, { "numjobs", "4096" },
		{ "bs", "1" }, { "bs", "4g" }, { "size", "1024p" }, { "runtime", "365d" },
		{ "ramp_time", "30d" }, { "chunk_size", "512" }, { "chunk_size", "1g" },
		{ "series_interval", "1ms" }, { "series_interval", "1d" },
		{ "null_latency", "365d" }, { "verify_interval", "64" },
		{ "fault_delay", "1ns" }, { "random_distribution", "zipf:1000" },
		{ "random_distribution", "normal:1000" }, { "gpu_dev_id", "1023" },
		{ "buffer_compress_percentage", "100" }, { "dedupe_percentage", "100" },
		{ "buffer_compress_chunk", "4g" }, { "fdatasync", "4294967295" },
		{ "buffer_pattern", "2147483647" }, { "buffer_pattern", "-2147483648" },
		{ "log_avg_msec", "86400000" }, { "log_hist_msec", "0" },
		{ "log_hist_coarseness", "6" },
		{ "verify_offset", "4g" }, { "steadystate_check_interval", "1ms" },
		{ "steadystate_check_interval", "1d" }, { "steadystate_duration", "365d" },
		{ "spr_num_regions", "1" }, { "spr_num_regions", "1000000" },
		{ "significant_figures", "1" }, { "significant_figures", "10" },
		{ "spr_op", "0.999" }, { "steadystate", "iops:0%" },
		{ "loops", "1" }, { "loops", "1000000000" }, { "rate_cycle", "1ms" },
		{ "rate_cycle", "1d" }, { "flow", "1000" }, { "thinktime", "365d" },
		{ "thinktime_blocks", "1" }, { "bsrange", "1-4g" }, { "startdelay", "365d" },
		{ "latency_percentile", "100" }, { "rate_iops", "4294967295" },
		{ "nrfiles", "1" }, { "nrfiles", "1048576" }, { "openfiles", "0" },
		{ "filesize", "1" }, { "filesize", "1024p" }, { "file_service_type", "random:1" },
		{ "file_service_type", "normal:0" }, { "file_service_type", "zipf:1000:1" },
		{ "nice", "-20" }, { "nice", "19" }, { "prio", "7" }, { "prioclass", "3" },
		{ "numa_cpu_nodes", "0" }, { "cpumask", "0x1" }, { "cpuload", "1" },
		{ "cpuload", "100" }, { "cpuchunks", "1000000" }, { "grace_time", "3600" },
		{ "cmdprio_percentage", "100" }, { "cmdprio_class", "1,3" },
		{ "cmdprio", "7" }, { "cmdprio_hint", "1023" }, { "threads", "1" },
		{ "cmdprio_bssplit", "64k/100/3/7/1023,1m/0" },
	};
	struct job_spec *spec = malloc(sizeof(*spec));

	(void)state;
	assert_non_null(spec);
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		job_spec_defaults(spec);
		if (job_option_set(spec, ok[i][0], ok[i][1]))
			fail_msg("%s=%s: %s", ok[i][0], ok[i][1], err_msg());
	}
	free(spec);
}

static bool listed(const char *name)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!strcmp(cases[i].key, name))
			return true;
	for (size_t i = 0; i < sizeof(unbounded) / sizeof(unbounded[0]); i++)
		if (!strcmp(unbounded[i], name))
			return true;
	return false;
}

/* A new option must come with its bound here (or be named unbounded). */
static void every_option_is_covered(void **state)
{
	const char *name;

	(void)state;
	for (unsigned i = 0; (name = job_option_name(i)); i++)
		if (!listed(name))
			fail_msg("option '%s' has no bound test", name);
}

/* Strings are bounded by their fields. */
static void strings_are_bounded_by_length(void **state)
{
	struct job_spec *spec = malloc(sizeof(*spec));
	char *longer = malloc(JOB_PATH_MAX + 1);

	(void)state;
	assert_non_null(spec);
	assert_non_null(longer);
	memset(longer, 'a', JOB_PATH_MAX);
	longer[JOB_PATH_MAX] = '\0';
	job_spec_defaults(spec);
	assert_int_equal(job_option_set(spec, "filename", longer), -1);
	assert_string_equal(err_msg(), "option 'filename': value longer than 4095 characters");
	longer[JOB_LOG_NAME_MAX] = '\0';
	assert_int_equal(job_option_set(spec, "write_bw_log", longer), -1);
	assert_string_equal(err_msg(), "option 'write_bw_log': log name longer than 1023 characters");
	longer[JOB_LOG_NAME_MAX - 1] = '\0';
	assert_int_equal(job_option_set(spec, "write_hist_log", longer), 0);
	longer[FILENAME_FORMAT_MAX] = '\0';
	assert_int_equal(job_option_set(spec, "filename_format", longer), -1);
	assert_string_equal(err_msg(), "option 'filename_format': value longer than 255 characters");
	longer[JOB_NAME_MAX] = '\0';
	assert_int_equal(job_option_set(spec, "name", longer), -1);
	assert_string_equal(err_msg(), "option 'name': value longer than 127 characters");
	free(longer);
	free(spec);
}

/* docs/options.md lists every option (make check runs from the top). */
static void every_option_is_documented(void **state)
{
	char *text = file_read_all("docs/options.md", NULL);
	const char *name;

	(void)state;
	for (unsigned i = 0; (name = job_option_name(i)); i++) {
		char quoted[64];

		snprintf(quoted, sizeof(quoted), "`%s`", name);
		if (!strstr(text, quoted))
			fail_msg("docs/options.md does not list option '%s'", name);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_bound_is_refused_with_its_range),
		cmocka_unit_test(the_ends_of_each_range_are_accepted),
		cmocka_unit_test(every_option_is_covered),
		cmocka_unit_test(strings_are_bounded_by_length),
		cmocka_unit_test(every_option_is_documented),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
