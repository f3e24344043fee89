/* units.h - the one parser and the one formatter of each kind of value
 * people write or read: sizes (fio's kb_base rule), durations, rates,
 * percentages, counts and booleans, and the range check whose message
 * says the range in those units.
 *
 * Parsers take the whole text: no blanks, no sign, no trailing junk, no
 * overflow. They return 0, or -1 with err_msg (without the option's name:
 * callers add it). Parenthesised expressions ("(4k*3)") are the job
 * layer's (job/values.c reads them and hands each number here). */
#ifndef DRIVEBENCH_UNITS_H
#define DRIVEBENCH_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UNITS_NS_PER_US 1000ull
#define UNITS_NS_PER_MS 1000000ull
#define UNITS_NS_PER_SEC 1000000000ull
#define UNITS_NS_PER_DAY (86400ull * UNITS_NS_PER_SEC)

/* ---- parsers */

/* A size in bytes, as fio reads it (parse.c, __get_mult_bytes): suffixes
 * k m g t p, any case, with an optional "b" or "ib"; a plain number is
 * bytes; a fraction of the unit ("1.5k") is truncated to whole bytes;
 * "0x10" is hex bytes. kb_base 1024 (fio's default, its "compatibility
 * mode"): k = kb = 1024 and kib = 1000; kb_base 1000 flips both (k = kb =
 * 1000, kib = 1024). Errors: "bad size 'X'", "bad size 'X': too large",
 * "bad kb_base N". */
int units_parse_size(const char *text, unsigned kb_base, uint64_t *out);

/* A duration in ns: a whole number with ns/nsec, us/usec, ms/msec, s/sec,
 * m/min, h/hour, d/day (any case), or bare in default_unit_ns (fio's unit
 * of the option: seconds for runtime, us for latency targets). Errors:
 * "bad time 'X'", "bad time 'X': too large". */
int units_parse_duration(const char *text, uint64_t default_unit_ns, uint64_t *out);

/* An unsigned number: decimal, or hex with 0x. Error: "bad number 'X'". */
int units_parse_u64(const char *text, uint64_t *out);

/* A decimal count within [min, max]. Returns 0; -1 with "'X' is not a
 * whole number" (empty, sign, junk, overflow); or -2 with "N is out of
 * range, the range is MIN..MAX". */
int units_parse_count(const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* A finite decimal number ("1.5", "-2", "1e3"); rejects blanks, junk, nan
 * and inf. Returns -1 without a message: callers say what was expected. */
int units_parse_double(const char *text, double *out);

/* A whole percentage 0..100 (decimal or hex): "bad number 'X'" or the
 * range error ("101 is too large, the range is 0..100"). */
int units_parse_percent(const char *text, unsigned *out);

/* A rate in MB/s (10^6 bytes/s) within [min_mbps, max_mbps] -> bytes/s.
 * what names the value in the messages: "WHAT: bad throughput 'X' (a
 * number of MB/s, the range is MIN..MAX)", "WHAT: X MB/s is too small,
 * the range is MIN..MAX MB/s". */
int units_parse_rate_mbps(const char *what, const char *text, double min_mbps,
			  double max_mbps, double *out);

/* fio's booleans: 1/0, true/false, yes/no, on/off (any case); NULL (a bare
 * flag) is true. Returns false (no message) for anything else. */
bool units_parse_bool(const char *text, bool *out);

/* ---- the range check */

/* How a value and its bounds are written. */
enum units_kind {
	UNITS_COUNT,   /* 65536 */
	UNITS_BYTES,   /* 512 bytes, 4 GiB */
	UNITS_NS,      /* 1ms, 365d */
};

/* lo <= v <= hi, or -1 with "TEXT is too small, the range is LO..HI" (or
 * too large); text is the value as written. */
int units_check_range(uint64_t v, uint64_t lo, uint64_t hi, enum units_kind kind,
		      const char *text);

/* ---- formatters; each returns out */

/* How a byte count reads. */
enum units_bytes_style {
	UNITS_IEC,        /* "512 bytes", "1 byte", "1.50 KiB" .. "16.00 EiB" */
	UNITS_IEC_EXACT,  /* "512 bytes", "4 GiB": the largest unit dividing it */
	UNITS_BLOCK,      /* a block size as fio users write it: "4KiB", "1MiB", "512B" */
	UNITS_BLOCK_SHORT, /* the same in a chart's key: "4K", "1M", "512B" */
	UNITS_SI,         /* "512 B", "245.76 TB" (up to PB), two decimals */
	UNITS_SI_COARSE,  /* "512 B", "1.5 MB", "1.2 GB", "1.23 TB" */
	UNITS_FIO_SI,     /* fio's "2.05 MB", "195.3kB": see decimals */
	UNITS_FIO_IEC,    /* fio's "1.95 MiB", "1.953MiB" */
};

/* decimals matters to the fio styles only: >= 0 is that many decimals and
 * a space before the unit; < 0 is -decimals significant figures (fio's
 * significant_figures) and no space, as fio prints group totals. */
char *units_format_bytes(uint64_t bytes, enum units_bytes_style style, int decimals,
			 char *out, size_t len);

/* How a rate reads. */
enum units_rate_style {
	UNITS_RATE_FIO_SI,   /* fio's "2.05 MB/s", "kB/s" .. "TB/s" */
	UNITS_RATE_FIO_IEC,  /* fio's "1.95 MiB/s", "KiB/s" .. "TiB/s" */
	UNITS_RATE_MB_GB,    /* "512.0 MB/s", "1.50 GB/s" (progress lines) */
};

char *units_format_rate(double bytes_per_s, enum units_rate_style style, int decimals,
			char *out, size_t len);

/* fio's rule for its group totals (num2str): num shortened by 1000s
 * (pow2: 1024s) until it has at most maxlen digits; the remainder of the
 * last division gives the decimals that still fit in maxlen, or rounds
 * num when fewer than two places are left; then the prefix (k, M ... or
 * Ki, Mi ...) and unit ("B", "B/s"). 8388608 bytes, maxlen 4: "8192KiB"
 * and "8389kB". */
char *units_fio_num2str(uint64_t num, int maxlen, bool pow2, const char *unit,
			char *out, size_t len);

/* A duration as the options write it: "1ms", "365d", "1500us", "7ns"; 0
 * is "0". */
char *units_format_duration(uint64_t ns, char *out, size_t len);

/* Seconds on a clock, rounded: "0:00:07", "12:03:00"; negative is 0. */
char *units_format_clock(double seconds, char *out, size_t len);

/* A count as the progress lines write it: "12.0", "1.5k", "2.50M", "3.00G". */
char *units_format_count(double count, char *out, size_t len);

/* One PCIe lane's payload bandwidth after encoding, MB/s, by generation
 * (1..6: 250, 500, 985, 1969, 3938, 7877); 0 for any other. */
double units_pcie_lane_mbs(unsigned gen);

#endif
