/* test_units.c - util/units.c, the one parser and formatter of each kind
 * of value: sizes with fio's kb_base rule both ways, durations, counts,
 * decimals, percentages, rates, booleans, the range check, and every
 * formatting style its callers print. Every error path: empty, sign,
 * blanks, bad suffix, trailing junk, overflow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/units.h"

static uint64_t size_ok(const char *text, unsigned kb_base)
{
	uint64_t v = 0;

	assert_int_equal(units_parse_size(text, kb_base, &v), 0);
	return v;
}

static void size_bad(const char *text, unsigned kb_base, const char *msg)
{
	uint64_t v = 7;

	assert_int_equal(units_parse_size(text, kb_base, &v), -1);
	assert_string_equal(err_msg(), msg);
	assert_int_equal(v, 7);
}

/* fio's parse.c: kb_base=1024 is "compatibility mode" (k = KB = 1024,
 * KiB = 1000); kb_base=1000 uses true units (k = KB = 1000, KiB = 1024). */
static void sizes_follow_kb_base(void **state)
{
	(void)state;
	assert_int_equal(size_ok("4k", 1024), 4096);
	assert_int_equal(size_ok("4K", 1024), 4096);
	assert_int_equal(size_ok("4KB", 1024), 4096);
	assert_int_equal(size_ok("4kb", 1024), 4096);
	assert_int_equal(size_ok("4KiB", 1024), 4000);
	assert_int_equal(size_ok("4k", 1000), 4000);
	assert_int_equal(size_ok("4KB", 1000), 4000);
	assert_int_equal(size_ok("4KiB", 1000), 4096);
	assert_int_equal(size_ok("1MiB", 1000), 1ull << 20);
	assert_int_equal(size_ok("1MiB", 1024), 1000000);
	assert_int_equal(size_ok("3g", 1024), 3ull << 30);
	assert_int_equal(size_ok("2t", 1024), 2ull << 40);
	assert_int_equal(size_ok("1p", 1024), 1ull << 50);
	assert_int_equal(size_ok("1PB", 1000), 1000000000000000ull);
	assert_int_equal(size_ok("1pib", 1024), 1000000000000000ull);
}

static void sizes_plain_hex_fraction(void **state)
{
	(void)state;
	assert_int_equal(size_ok("0", 1024), 0);
	assert_int_equal(size_ok("512", 1024), 512);
	assert_int_equal(size_ok("512b", 1024), 512);
	assert_int_equal(size_ok("512B", 1000), 512);
	assert_int_equal(size_ok("0x10", 1024), 16);
	assert_int_equal(size_ok("1.5k", 1024), 1536);
	assert_int_equal(size_ok(".5k", 1024), 512);
	assert_int_equal(size_ok("1.5k", 1000), 1500);
	/* a fraction of a byte is dropped */
	assert_int_equal(size_ok("1.0009k", 1000), 1000);
	assert_int_equal(size_ok("18446744073709551615", 1024), UINT64_MAX);
	assert_int_equal(size_ok("16777215t", 1024), 16777215ull << 40);
}

static void sizes_refused(void **state)
{
	(void)state;
	size_bad("", 1024, "bad size ''");
	size_bad(NULL, 1024, "bad size ''");
	size_bad("-4k", 1024, "bad size '-4k'");
	size_bad("+4k", 1024, "bad size '+4k'");
	size_bad(" 4k", 1024, "bad size ' 4k'");
	size_bad("4k ", 1024, "bad size '4k '");
	size_bad("4 k", 1024, "bad size '4 k'");
	size_bad("k", 1024, "bad size 'k'");
	size_bad("4x", 1024, "bad size '4x'");
	size_bad("4kx", 1024, "bad size '4kx'");
	size_bad("4e", 1024, "bad size '4e'");
	size_bad("4kib2", 1024, "bad size '4kib2'");
	size_bad("4kkkkkkkkkkk", 1024, "bad size '4kkkkkkkkkkk'");
	size_bad("1.", 1024, "bad size '1.'");
	size_bad(".", 1024, "bad size '.'");
	size_bad("0x", 1024, "bad size '0x'");
	size_bad("0x1k", 1024, "bad size '0x1k'");
	size_bad("99999999999999999999", 1024, "bad size '99999999999999999999': too large");
	size_bad("18446744073709551616", 1024, "bad size '18446744073709551616': too large");
	size_bad("16777216t", 1024, "bad size '16777216t': too large");
	/* the fraction tips it over: 2^64 - 1 is 18446744073709551000 + 615 */
	size_bad("18446744073709551.999k", 1000, "bad size '18446744073709551.999k': too large");
	assert_int_equal(size_ok("18446744073709551.615k", 1000), UINT64_MAX);
	size_bad("4k", 512, "bad kb_base 512");
}

static void durations(void **state)
{
	uint64_t ns = 0;

	(void)state;
	assert_int_equal(units_parse_duration("30", UNITS_NS_PER_SEC, &ns), 0);
	assert_int_equal(ns, 30 * UNITS_NS_PER_SEC);
	assert_int_equal(units_parse_duration("30", UNITS_NS_PER_US, &ns), 0);
	assert_int_equal(ns, 30000);
	assert_int_equal(units_parse_duration("7ns", 1, &ns), 0);
	assert_int_equal(ns, 7);
	assert_int_equal(units_parse_duration("10us", 1, &ns), 0);
	assert_int_equal(ns, 10000);
	assert_int_equal(units_parse_duration("10usec", 1, &ns), 0);
	assert_int_equal(ns, 10000);
	assert_int_equal(units_parse_duration("500ms", 1, &ns), 0);
	assert_int_equal(ns, 500 * UNITS_NS_PER_MS);
	assert_int_equal(units_parse_duration("3SEC", 1, &ns), 0);
	assert_int_equal(ns, 3 * UNITS_NS_PER_SEC);
	assert_int_equal(units_parse_duration("2m", 1, &ns), 0);
	assert_int_equal(ns, 120 * UNITS_NS_PER_SEC);
	assert_int_equal(units_parse_duration("2min", 1, &ns), 0);
	assert_int_equal(ns, 120 * UNITS_NS_PER_SEC);
	assert_int_equal(units_parse_duration("1h", 1, &ns), 0);
	assert_int_equal(ns, 3600 * UNITS_NS_PER_SEC);
	assert_int_equal(units_parse_duration("1d", 1, &ns), 0);
	assert_int_equal(ns, UNITS_NS_PER_DAY);
	assert_int_equal(units_parse_duration("2day", 1, &ns), 0);
	assert_int_equal(ns, 2 * UNITS_NS_PER_DAY);

	ns = 5;
	assert_int_equal(units_parse_duration("", 1, &ns), -1);
	assert_string_equal(err_msg(), "bad time ''");
	assert_int_equal(units_parse_duration(NULL, 1, &ns), -1);
	assert_string_equal(err_msg(), "bad time ''");
	assert_int_equal(units_parse_duration("-1s", 1, &ns), -1);
	assert_string_equal(err_msg(), "bad time '-1s'");
	assert_int_equal(units_parse_duration("1x", 1, &ns), -1);
	assert_string_equal(err_msg(), "bad time '1x'");
	assert_int_equal(units_parse_duration("1.5s", 1, &ns), -1);
	assert_string_equal(err_msg(), "bad time '1.5s'");
	assert_int_equal(units_parse_duration("1s ", 1, &ns), -1);
	assert_string_equal(err_msg(), "bad time '1s '");
	assert_int_equal(units_parse_duration("99999999999999999999", 1, &ns), -1);
	assert_string_equal(err_msg(), "bad time '99999999999999999999': too large");
	assert_int_equal(units_parse_duration("213504d", 1, &ns), -1);
	assert_string_equal(err_msg(), "bad time '213504d': too large");
	assert_int_equal(ns, 5);
}

static void numbers(void **state)
{
	static const char *const bad[] = { "", "-1", "+1", " 1", "1 ", "0x", "0xg", "1k",
					   "18446744073709551616" };
	uint64_t v = 0;

	(void)state;
	assert_int_equal(units_parse_u64("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(units_parse_u64("0x1F", &v), 0);
	assert_int_equal(v, 31);
	assert_int_equal(units_parse_u64("18446744073709551615", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[64];

		snprintf(want, sizeof(want), "bad number '%s'", bad[i]);
		assert_int_equal(units_parse_u64(bad[i], &v), -1);
		assert_string_equal(err_msg(), want);
	}
	assert_int_equal(units_parse_u64(NULL, &v), -1);
	assert_string_equal(err_msg(), "bad number ''");
}

static void counts(void **state)
{
	static const char *const bad[] = { "", "x", "-1", "+1", " 1", "1 ", "0x10", "1k",
					   "99999999999999999999" };
	uint64_t v = 0;

	(void)state;
	assert_int_equal(units_parse_count("5", 1, 10, &v), 0);
	assert_int_equal(v, 5);
	assert_int_equal(units_parse_count("18446744073709551615", 0, UINT64_MAX, &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(units_parse_count("0", 1, 10, &v), -2);
	assert_string_equal(err_msg(), "0 is out of range, the range is 1..10");
	assert_int_equal(units_parse_count("11", 1, 10, &v), -2);
	assert_string_equal(err_msg(), "11 is out of range, the range is 1..10");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[64];

		snprintf(want, sizeof(want), "'%s' is not a whole number", bad[i]);
		assert_int_equal(units_parse_count(bad[i], 0, UINT64_MAX, &v), -1);
		assert_string_equal(err_msg(), want);
	}
	assert_int_equal(units_parse_count(NULL, 0, 1, &v), -1);
	assert_int_equal(v, UINT64_MAX);
}

static void decimals(void **state)
{
	static const char *const bad[] = { "", "x", "1.5x", "nan", "inf", "-inf", "1e999",
					   " 1", "1 " };
	double d = 0;

	(void)state;
	assert_int_equal(units_parse_double("1.5", &d), 0);
	assert_true(d == 1.5);
	assert_int_equal(units_parse_double("-2", &d), 0);
	assert_true(d == -2);
	assert_int_equal(units_parse_double("+1e3", &d), 0);
	assert_true(d == 1000);
	assert_int_equal(units_parse_double(".5", &d), 0);
	assert_true(d == 0.5);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(units_parse_double(bad[i], &d), -1);
	assert_int_equal(units_parse_double(NULL, &d), -1);
	assert_true(d == 0.5);
}

static void percentages(void **state)
{
	unsigned pct = 9;

	(void)state;
	assert_int_equal(units_parse_percent("0", &pct), 0);
	assert_int_equal(pct, 0);
	assert_int_equal(units_parse_percent("100", &pct), 0);
	assert_int_equal(pct, 100);
	assert_int_equal(units_parse_percent("0x32", &pct), 0);
	assert_int_equal(pct, 50);
	assert_int_equal(units_parse_percent("101", &pct), -1);
	assert_string_equal(err_msg(), "101 is too large, the range is 0..100");
	assert_int_equal(units_parse_percent("x", &pct), -1);
	assert_string_equal(err_msg(), "bad number 'x'");
	assert_int_equal(units_parse_percent("-1", &pct), -1);
	assert_string_equal(err_msg(), "bad number '-1'");
	assert_int_equal(units_parse_percent("50%", &pct), -1);
	assert_string_equal(err_msg(), "bad number '50%'");
	assert_int_equal(units_parse_percent("", &pct), -1);
	assert_string_equal(err_msg(), "bad number ''");
	assert_int_equal(units_parse_percent("99999999999999999999", &pct), -1);
	assert_int_equal(pct, 50);
}

static void rates(void **state)
{
	double bps = 0;

	(void)state;
	assert_int_equal(units_parse_rate_mbps("--w", "3000", 0.01, 1e6, &bps), 0);
	assert_true(bps == 3e9);
	assert_int_equal(units_parse_rate_mbps("--w", "0.01", 0.01, 1e6, &bps), 0);
	assert_true(bps == 0.01 * 1e6);
	assert_int_equal(units_parse_rate_mbps("--w", "fast", 0.01, 1e6, &bps), -1);
	assert_string_equal(err_msg(),
			    "--w: bad throughput 'fast' (a number of MB/s, the range is 0.01..1000000)");
	assert_int_equal(units_parse_rate_mbps("--w", "nan", 0.01, 1e6, &bps), -1);
	assert_string_equal(err_msg(),
			    "--w: bad throughput 'nan' (a number of MB/s, the range is 0.01..1000000)");
	assert_int_equal(units_parse_rate_mbps("--w", "", 0.01, 1e6, &bps), -1);
	assert_int_equal(units_parse_rate_mbps("--w", "5x", 0.01, 1e6, &bps), -1);
	assert_int_equal(units_parse_rate_mbps("--w", "0", 0.01, 1e6, &bps), -1);
	assert_string_equal(err_msg(), "--w: 0 MB/s is too small, the range is 0.01..1000000 MB/s");
	assert_int_equal(units_parse_rate_mbps("--w", "-1", 0.01, 1e6, &bps), -1);
	assert_string_equal(err_msg(), "--w: -1 MB/s is too small, the range is 0.01..1000000 MB/s");
	assert_int_equal(units_parse_rate_mbps("--w", "inf", 0.01, 1e6, &bps), -1);
	assert_string_equal(err_msg(), "--w: inf MB/s is too large, the range is 0.01..1000000 MB/s");
	assert_int_equal(units_parse_rate_mbps("--w", "1e300", 0.01, 1e6, &bps), -1);
	assert_string_equal(err_msg(), "--w: 1e300 MB/s is too large, the range is 0.01..1000000 MB/s");
	assert_true(bps == 0.01 * 1e6);
}

static void booleans(void **state)
{
	static const char *const yes[] = { "1", "true", "yes", "on", "TRUE", "Yes", "ON" };
	static const char *const no[] = { "0", "false", "no", "off", "FALSE", "No", "Off" };
	static const char *const bad[] = { "", "2", "maybe", "y", "n", " 1", "1 ", "enable" };
	bool b;

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		assert_true(units_parse_bool(yes[i], &b));
		assert_true(b);
		assert_true(units_parse_bool(no[i], &b));
		assert_false(b);
	}
	assert_true(units_parse_bool(NULL, &b));   /* a bare flag */
	assert_true(b);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(units_parse_bool(bad[i], &b));
}

static void range_check_says_the_range(void **state)
{
	(void)state;
	assert_int_equal(units_check_range(5, 1, 10, UNITS_COUNT, "5"), 0);
	assert_int_equal(units_check_range(0, 1, 65536, UNITS_COUNT, "0"), -1);
	assert_string_equal(err_msg(), "0 is too small, the range is 1..65536");
	assert_int_equal(units_check_range(8ull << 30, 512, 4ull << 30, UNITS_BYTES, "8g"), -1);
	assert_string_equal(err_msg(), "8g is too large, the range is 512 bytes..4 GiB");
	assert_int_equal(units_check_range(1, UNITS_NS_PER_MS, UNITS_NS_PER_DAY, UNITS_NS, "1ns"),
			 -1);
	assert_string_equal(err_msg(), "1ns is too small, the range is 1ms..1d");
	assert_int_equal(units_check_range(2, 0, 1, UNITS_COUNT, NULL), -1);
	assert_string_equal(err_msg(), " is too large, the range is 0..1");
}

#define BYTES(v, style, dec, want) \
	assert_string_equal(units_format_bytes(v, style, dec, b, sizeof(b)), want)

static void bytes_in_each_style(void **state)
{
	char b[32];

	(void)state;
	BYTES(0, UNITS_IEC, 0, "0 bytes");
	BYTES(1, UNITS_IEC, 0, "1 byte");
	BYTES(1023, UNITS_IEC, 0, "1023 bytes");
	BYTES(1536, UNITS_IEC, 0, "1.50 KiB");
	BYTES(3ull << 20, UNITS_IEC, 0, "3.00 MiB");
	BYTES(UINT64_MAX, UNITS_IEC, 0, "16.00 EiB");

	BYTES(0, UNITS_IEC_EXACT, 0, "0 bytes");
	BYTES(1, UNITS_IEC_EXACT, 0, "1 byte");
	BYTES(1536, UNITS_IEC_EXACT, 0, "1536 bytes");
	BYTES(4ull << 30, UNITS_IEC_EXACT, 0, "4 GiB");
	BYTES(1ull << 60, UNITS_IEC_EXACT, 0, "1 EiB");

	BYTES(0, UNITS_BLOCK, 0, "0B");
	BYTES(512, UNITS_BLOCK, 0, "512B");
	BYTES(1536, UNITS_BLOCK, 0, "1536B");
	BYTES(4096, UNITS_BLOCK, 0, "4KiB");
	BYTES(3ull << 20, UNITS_BLOCK, 0, "3MiB");
	BYTES(0, UNITS_BLOCK_SHORT, 0, "0B");
	BYTES(1536, UNITS_BLOCK_SHORT, 0, "1536B");
	BYTES(4096, UNITS_BLOCK_SHORT, 0, "4K");
	BYTES(1ull << 20, UNITS_BLOCK_SHORT, 0, "1M");

	BYTES(999, UNITS_SI, 0, "999 B");
	BYTES(1000, UNITS_SI, 0, "1.00 KB");
	BYTES(245760000000000ull, UNITS_SI, 0, "245.76 TB");
	BYTES(2000000000000000000ull, UNITS_SI, 0, "2000.00 PB");

	BYTES(999999, UNITS_SI_COARSE, 0, "999999 B");
	BYTES(1500000, UNITS_SI_COARSE, 0, "1.5 MB");
	BYTES(1200000000, UNITS_SI_COARSE, 0, "1.2 GB");
	BYTES(1230000000000ull, UNITS_SI_COARSE, 0, "1.23 TB");

	BYTES(500, UNITS_FIO_SI, 2, "500.00 B");
	BYTES(2050000, UNITS_FIO_SI, 2, "2.05 MB");
	BYTES(1953000, UNITS_FIO_SI, -4, "1.953MB");
	BYTES(195300, UNITS_FIO_SI, -4, "195.3kB");
	BYTES(2048000, UNITS_FIO_IEC, -4, "1.953MiB");
	BYTES(2048000, UNITS_FIO_IEC, 2, "1.95 MiB");
	BYTES(10240, UNITS_FIO_IEC, -4, "10.00KiB");
}

#define RATE(v, style, dec, want) \
	assert_string_equal(units_format_rate(v, style, dec, b, sizeof(b)), want)

static void rates_in_each_style(void **state)
{
	char b[32];

	(void)state;
	RATE(500, UNITS_RATE_FIO_SI, 2, "500.00 B/s");
	RATE(1000, UNITS_RATE_FIO_SI, 2, "1.00 kB/s");
	RATE(2.5e15, UNITS_RATE_FIO_SI, 2, "2500.00 TB/s");
	RATE(1e12, UNITS_RATE_FIO_IEC, -4, "931.3GiB/s");
	RATE(1024, UNITS_RATE_FIO_IEC, 2, "1.00 KiB/s");
	RATE(5e8, UNITS_RATE_MB_GB, 0, "500.0 MB/s");
	RATE(1.5e9, UNITS_RATE_MB_GB, 0, "1.50 GB/s");
}

static void durations_and_clocks(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(units_format_duration(0, b, sizeof(b)), "0");
	assert_string_equal(units_format_duration(7, b, sizeof(b)), "7ns");
	assert_string_equal(units_format_duration(1500, b, sizeof(b)), "1500ns");
	assert_string_equal(units_format_duration(1500 * UNITS_NS_PER_US, b, sizeof(b)), "1500us");
	assert_string_equal(units_format_duration(UNITS_NS_PER_MS, b, sizeof(b)), "1ms");
	assert_string_equal(units_format_duration(90 * UNITS_NS_PER_SEC, b, sizeof(b)), "90s");
	assert_string_equal(units_format_duration(120 * UNITS_NS_PER_SEC, b, sizeof(b)), "2m");
	assert_string_equal(units_format_duration(3600 * UNITS_NS_PER_SEC, b, sizeof(b)), "1h");
	assert_string_equal(units_format_duration(365 * UNITS_NS_PER_DAY, b, sizeof(b)), "365d");

	assert_string_equal(units_format_clock(0, b, sizeof(b)), "0:00:00");
	assert_string_equal(units_format_clock(-5, b, sizeof(b)), "0:00:00");
	assert_string_equal(units_format_clock(7.4, b, sizeof(b)), "0:00:07");
	assert_string_equal(units_format_clock(7.5, b, sizeof(b)), "0:00:08");
	assert_string_equal(units_format_clock(43380, b, sizeof(b)), "12:03:00");
	assert_string_equal(units_format_clock(360000, b, sizeof(b)), "100:00:00");

	assert_string_equal(units_format_count(12, b, sizeof(b)), "12.0");
	assert_string_equal(units_format_count(1500, b, sizeof(b)), "1.5k");
	assert_string_equal(units_format_count(2.5e6, b, sizeof(b)), "2.50M");
	assert_string_equal(units_format_count(3e9, b, sizeof(b)), "3.00G");
}

/* What the parser reads, the exact formatters write back. */
static void formats_read_back(void **state)
{
	static const uint64_t ns[] = { 1, 999, 1000, 1500000, UNITS_NS_PER_DAY * 3 };
	static const uint64_t bytes[] = { 512, 4096, 1ull << 20, 3ull << 30 };
	char b[32], text[32];
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		assert_int_equal(units_parse_duration(units_format_duration(ns[i], b, sizeof(b)),
						      1, &v), 0);
		assert_int_equal(v, ns[i]);
	}
	for (size_t i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++) {
		/* "4KiB" is 4096 only with kb_base=1000, as in fio */
		snprintf(text, sizeof(text), "%s", units_format_bytes(bytes[i], UNITS_BLOCK, 0,
								      b, sizeof(b)));
		assert_int_equal(units_parse_size(text, 1000, &v), 0);
		assert_int_equal(v, bytes[i]);
	}
}

/* fio's num2str, as its group lines print (fio 3.33 on the same jobs):
 * io=8192KiB (8389kB), bw=4000KiB/s (4096kB/s), io=512KiB (524kB),
 * bw=235MiB/s, 62.2MiB/s. */
static void fio_num2str_rule(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(units_fio_num2str(8388608, 4, true, "B", b, sizeof(b)), "8192KiB");
	assert_string_equal(units_fio_num2str(8388608, 4, false, "B", b, sizeof(b)), "8389kB");
	assert_string_equal(units_fio_num2str(4096000, 4, true, "B/s", b, sizeof(b)), "4000KiB/s");
	assert_string_equal(units_fio_num2str(4096000, 4, false, "B/s", b, sizeof(b)), "4096kB/s");
	assert_string_equal(units_fio_num2str(524288, 4, true, "B", b, sizeof(b)), "512KiB");
	assert_string_equal(units_fio_num2str(524288, 4, false, "B", b, sizeof(b)), "524kB");
	/* 234 MiB and 618/1024: no room for a decimal, rounded up */
	assert_string_equal(units_fio_num2str(246000000, 4, true, "B/s", b, sizeof(b)), "235MiB/s");
	/* 62 MiB and 206/1024: one decimal */
	assert_string_equal(units_fio_num2str(65222656, 4, true, "B/s", b, sizeof(b)), "62.2MiB/s");
	/* short numbers are printed whole; 0 is 0 */
	assert_string_equal(units_fio_num2str(4096, 4, true, "B", b, sizeof(b)), "4096B");
	assert_string_equal(units_fio_num2str(0, 4, true, "B/s", b, sizeof(b)), "0B/s");
	/* more significant figures keep a decimal */
	assert_string_equal(units_fio_num2str(1500000, 6, false, "B", b, sizeof(b)), "1500.0kB");
	/* a remainder that rounds to a whole one carries: 1 and 999/1000 */
	assert_string_equal(units_fio_num2str(1999999, 3, false, "B", b, sizeof(b)), "2.0MB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fio_num2str_rule),
		cmocka_unit_test(sizes_follow_kb_base),
		cmocka_unit_test(sizes_plain_hex_fraction),
		cmocka_unit_test(sizes_refused),
		cmocka_unit_test(durations),
		cmocka_unit_test(numbers),
		cmocka_unit_test(counts),
		cmocka_unit_test(decimals),
		cmocka_unit_test(percentages),
		cmocka_unit_test(rates),
		cmocka_unit_test(booleans),
		cmocka_unit_test(range_check_says_the_range),
		cmocka_unit_test(bytes_in_each_style),
		cmocka_unit_test(rates_in_each_style),
		cmocka_unit_test(durations_and_clocks),
		cmocka_unit_test(formats_read_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
