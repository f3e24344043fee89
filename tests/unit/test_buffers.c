/* test_buffers.c - write buffer contents as fio fills them (run/buffers.c):
 * the mode each combination of options gives, scrambled blocks that never
 * repeat, compressible chunks, dedupe repeats and working sets (also
 * across clones), the pattern syntax (workload/pattern.c), the buffering
 * options and their checks, and the page-cache calls' errors
 * (target/cache.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/buffers.h"
#include "device/cache.h"
#include "util/error.h"
#include "job/options.h"
#include "job/pattern.h"
#include "helpers/tmpdir.h"

#define BS 4096

static struct job_spec *spec_with(const char *const *kv)
{
	struct job_spec *s = malloc(sizeof(*s));

	assert_non_null(s);
	job_spec_defaults(s);
	s->rw = RW_WRITE;
	for (; kv && kv[0]; kv += 2)
		if (job_option_set(s, kv[0], kv[1]))
			fail_msg("%s=%s: %s", kv[0], kv[1] ? kv[1] : "(flag)", err_msg());
	return s;
}

static enum buffer_mode mode_of(const char *const *kv)
{
	struct job_spec *s = spec_with(kv);
	enum buffer_mode m = buffers_mode_of(s);

	free(s);
	return m;
}

/* fio's rules: scramble by default; refill when asked, or implied by
 * compression, dedupe or a pattern that reads could spoil; explicit
 * refill_buffers wins; verification fills the buffer itself. */
static void modes_follow_fio(void **state)
{
	(void)state;
	assert_int_equal(mode_of(NULL), BUFFER_SCRAMBLE);
	assert_int_equal(mode_of((const char *[]){ "zero_buffers", NULL, NULL }), BUFFER_FIXED);
	assert_int_equal(mode_of((const char *[]){ "zero_buffers", NULL, "scramble_buffers", "1",
						   NULL }), BUFFER_SCRAMBLE);
	assert_int_equal(mode_of((const char *[]){ "scramble_buffers", "0", NULL }), BUFFER_FIXED);
	assert_int_equal(mode_of((const char *[]){ "refill_buffers", NULL, NULL }), BUFFER_REFILL);
	assert_int_equal(mode_of((const char *[]){ "buffer_compress_percentage", "50", NULL }),
			 BUFFER_REFILL);
	assert_int_equal(mode_of((const char *[]){ "buffer_compress_percentage", "50",
						   "refill_buffers", "0", NULL }), BUFFER_FIXED);
	assert_int_equal(mode_of((const char *[]){ "buffer_compress_percentage", "100", NULL }),
			 BUFFER_FIXED);
	/* given at all, even as 0, compression turns scrambling off (fio) */
	assert_int_equal(mode_of((const char *[]){ "buffer_compress_percentage", "0", NULL }),
			 BUFFER_FIXED);
	assert_int_equal(mode_of((const char *[]){ "dedupe_percentage", "30", NULL }),
			 BUFFER_REFILL);
	assert_int_equal(mode_of((const char *[]){ "buffer_pattern", "0xab", NULL }), BUFFER_FIXED);
	assert_int_equal(mode_of((const char *[]){ "rw", "randrw", "buffer_pattern", "0xab",
						   NULL }), BUFFER_REFILL);
	assert_int_equal(mode_of((const char *[]){ "rw", "randrw", "buffer_pattern", "0xab",
						   "refill_buffers", "0", NULL }), BUFFER_FIXED);
	/* a scramble after the pattern is its own choice again */
	assert_int_equal(mode_of((const char *[]){ "buffer_pattern", "0xab", "scramble_buffers",
						   "1", NULL }), BUFFER_SCRAMBLE);
	assert_int_equal(mode_of((const char *[]){ "verify", "crc32c", "refill_buffers", NULL,
						   NULL }), BUFFER_FIXED);
}

/* The specs of the buffers set up (a buffer points at its spec's
 * pattern), freed after each test. */
static struct job_spec *pool[16];
static unsigned pooled;

static void setup(struct buffers *b, const char *const *kv, uint64_t key, uint64_t range)
{
	struct job_spec *s = spec_with(kv);

	assert_true(pooled < 16);
	pool[pooled++] = s;
	buffers_setup(b, s, key, range, NULL, 0);
}

static int release(void **state)
{
	(void)state;
	while (pooled)
		free(pool[--pooled]);
	return 0;
}

/* The default: one slot written again and again, at other offsets and
 * times, never gives the same 512 bytes twice. */
static void scrambled_sectors_never_repeat(void **state)
{
	struct buffers b;
	static unsigned char slot[BS], seen[64][BS];
	struct io io = { .buf = slot, .len = BS };

	(void)state;
	setup(&b, NULL, 7, 1 << 20);
	buffers_fill_slots(&b, slot, 1, BS);
	for (int i = 0; i < 64; i++) {
		io.offset = (uint64_t)(i % 8) * BS;   /* offsets repeat too */
		buffers_write(&b, &io, 1000 + (uint64_t)i);
		memcpy(seen[i], slot, BS);
	}
	for (int i = 0; i < 64; i++)
		for (int j = 0; j < 64; j++)
			for (int x = 0; x < BS; x += 512)
				for (int y = 0; y < BS; y += 512)
					if ((i != j || x != y) &&
					    !memcmp(seen[i] + x, seen[j] + y, 512))
						fail_msg("write %d sector %d equals write %d sector %d",
							 i, x / 512, j, y / 512);
}

static unsigned zero_bytes(const unsigned char *p, size_t n)
{
	unsigned z = 0;

	for (size_t i = 0; i < n; i++)
		z += !p[i];
	return z;
}

/* buffer_compress_percentage=50: each 512-byte chunk is 256 random bytes,
 * then 256 zeros; with buffer_compress_chunk=0 one region per write; the
 * pattern replaces the zeros. */
static void compressible_chunks(void **state)
{
	struct buffers b;
	static unsigned char buf[BS];

	(void)state;
	setup(&b, (const char *[]){ "buffer_compress_percentage", "50", NULL }, 1, 1 << 20);
	buffers_refill(&b, buf, BS);
	for (int c = 0; c < BS; c += 512) {
		assert_int_equal(zero_bytes(buf + c + 256, 256), 256);
		assert_true(zero_bytes(buf + c, 256) < 16);
	}
	setup(&b, (const char *[]){ "buffer_compress_percentage", "75", "buffer_compress_chunk",
				    "0", NULL }, 1, 1 << 20);
	buffers_refill(&b, buf, BS);
	assert_true(zero_bytes(buf, 1024) < 32);
	assert_int_equal(zero_bytes(buf + 1024, BS - 1024), BS - 1024);
	setup(&b, (const char *[]){ "buffer_compress_percentage", "50", "buffer_pattern",
				    "\"xy\"", NULL }, 1, 1 << 20);
	buffers_refill(&b, buf, BS);
	for (int i = 256; i < 512; i += 2)
		assert_memory_equal(buf + i, "xy", 2);
	setup(&b, (const char *[]){ "buffer_compress_percentage", "100", NULL }, 1, 1 << 20);
	memset(buf, 1, sizeof(buf));
	buffers_refill(&b, buf, BS);
	assert_int_equal(zero_bytes(buf, BS), BS);
}

/* How many of n buffers equal an earlier one. */
static unsigned count_copies(struct buffers *b, unsigned n, unsigned char (*bufs)[BS])
{
	unsigned copies = 0;

	for (unsigned i = 0; i < n; i++) {
		buffers_refill(b, bufs[i], BS);
		for (unsigned j = 0; j < i; j++)
			if (!memcmp(bufs[i], bufs[j], BS)) {
				copies++;
				break;
			}
	}
	return copies;
}

static void dedupe_repeats_its_share(void **state)
{
	static unsigned char bufs[2000][BS];
	struct buffers b;
	unsigned copies;

	(void)state;
	setup(&b, (const char *[]){ "dedupe_percentage", "50", NULL }, 3, 1 << 30);
	copies = count_copies(&b, 2000, bufs);
	assert_true(copies > 900 && copies < 1100);
	setup(&b, (const char *[]){ "dedupe_percentage", "0", NULL }, 3, 1 << 30);
	assert_int_equal(count_copies(&b, 200, bufs), 0);
	setup(&b, (const char *[]){ "dedupe_percentage", "100", NULL }, 3, 1 << 30);
	assert_int_equal(count_copies(&b, 200, bufs), 199);
	/* dedupe and compression together: copies are compressible too */
	setup(&b, (const char *[]){ "dedupe_percentage", "50", "buffer_compress_percentage",
				    "50", NULL }, 3, 1 << 30);
	copies = count_copies(&b, 400, bufs);
	assert_true(copies > 150 && copies < 250);
	assert_int_equal(zero_bytes(bufs[399] + 256, 256), 256);
}

/* working_set: every copy is one of the working set's pages, which are
 * the first unique buffers (size x share / bs of them). */
static void working_set_pages_are_the_first_unique_ones(void **state)
{
	static unsigned char bufs[600][BS], ws[64][BS];
	struct buffers b, first;
	/* 64 pages: 5% of 5 MiB / 4 KiB */
	const char *const kv[] = { "dedupe_percentage", "60", "dedupe_mode", "working_set",
				   "size", "5m", NULL };
	unsigned copies = 0;

	(void)state;
	/* the same stream with no copies: its first 64 buffers */
	setup(&first, kv, 9, 5 << 20);
	first.dedupe_pct = 0;
	for (int i = 0; i < 64; i++)
		buffers_refill(&first, ws[i], BS);
	setup(&b, kv, 9, 5 << 20);
	assert_int_equal(b.ws_pages, 64);
	for (int i = 0; i < 600; i++) {
		bool in_set = false;

		buffers_refill(&b, bufs[i], BS);
		for (int p = 0; p < 64 && !in_set; p++)
			in_set = !memcmp(bufs[i], ws[p], BS);
		copies += in_set;
	}
	/* 60% copies, and the first 64 unique buffers are the set itself */
	assert_true(copies > 380 && copies < 470);
}

/* dedupe_global: a clone's copies come from every participant's pages. */
static void global_working_set_spans_clones(void **state)
{
	static unsigned char a_pages[64][BS], buf[BS];
	uint64_t keys[2] = { 11, 22 };
	struct buffer_keys global = { keys, 2 };
	const char *const kv[] = { "dedupe_percentage", "50", "dedupe_mode", "working_set",
				   "dedupe_global", "1", "size", "5m", NULL };
	struct job_spec *s = spec_with(kv);
	struct buffers a, b;
	unsigned from_a = 0;

	(void)state;
	buffers_setup(&a, s, 11, 5 << 20, &global, 0);
	a.dedupe_pct = 0;   /* clone a's unique buffers */
	for (int i = 0; i < 64; i++)
		buffers_refill(&a, a_pages[i], BS);
	buffers_setup(&b, s, 22, 5 << 20, &global, 1);
	assert_int_equal(b.ws_per_key, 32);
	for (int i = 0; i < 400; i++) {
		buffers_refill(&b, buf, BS);
		for (int p = 0; p < 32; p++)
			if (!memcmp(buf, a_pages[p], BS)) {
				from_a++;
				break;
			}
	}
	/* half the copies (a quarter of the writes) are clone a's pages */
	assert_true(from_a > 60 && from_a < 140);
	free(s);
}

static void zero_and_pattern_fill(void **state)
{
	struct buffers b;
	static unsigned char buf[3 * 1000];

	(void)state;
	setup(&b, (const char *[]){ "zero_buffers", NULL, NULL }, 1, 1 << 20);
	memset(buf, 1, sizeof(buf));
	buffers_fill_slots(&b, buf, 3, 1000);
	assert_int_equal(zero_bytes(buf, sizeof(buf)), sizeof(buf));
	setup(&b, (const char *[]){ "buffer_pattern", "0xdeadbeef\"!\"", NULL }, 1, 1 << 20);
	buffers_fill_slots(&b, buf, 3, 1000);
	for (int s = 0; s < 3; s++)
		for (int i = 0; i + 5 <= 1000; i += 5)
			assert_memory_equal(buf + s * 1000 + i, "\xde\xad\xbe\xef!", 5);
}

static void parse_ok(const char *text, const char *bytes, size_t n)
{
	unsigned char out[BUFFER_PATTERN_MAX];
	size_t len = 0;

	if (pattern_parse(text, out, sizeof(out), &len))
		fail_msg("%s: %s", text, err_msg());
	assert_int_equal(len, n);
	assert_memory_equal(out, bytes, n);
}

static void parse_fails(const char *text, const char *fragment)
{
	unsigned char out[BUFFER_PATTERN_MAX];
	size_t len;

	err_clear();
	assert_int_equal(pattern_parse(text, out, sizeof(out), &len), -1);
	if (!strstr(err_msg(), fragment))
		fail_msg("%s: '%s' lacks '%s'", text, err_msg(), fragment);
}

/* fio's pattern syntax, piece by piece and combined. */
static void patterns_parse_as_fio(void **state)
{
	char path[TMPDIR_PATH_MAX + 64], text[TMPDIR_PATH_MAX + 128];
	char big[600];
	int fd;

	(void)state;
	parse_ok("0xdeadface", "\xde\xad\xfa\xce", 4);
	parse_ok("0xabc", "\x0a\xbc", 2);
	parse_ok("0xff0x14", "\xff\x14", 2);
	parse_ok("-12", "\xf4\xff\xff\xff", 4);
	parse_ok("0", "\x00", 1);
	parse_ok("258", "\x02\x01", 2);
	parse_ok("120x14", "\x0c\x14", 2);
	parse_ok("\"abcd\"", "abcd", 4);
	parse_ok("0xdeadface\"abcd\"-12", "\xde\xad\xfa\xce" "abcd" "\xf4\xff\xff\xff", 12);
	fd = tmp_file("drivebench-pattern", path, sizeof(path));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "PQ", 2), 2);
	close(fd);
	snprintf(text, sizeof(text), "0x01'%s'", path);
	parse_ok(text, "\x01PQ", 3);
	unlink(path);
	parse_fails("", "empty pattern");
	parse_fails("0x", "'0x' without hex digits");
	parse_fails("\"ab", "without its closing");
	parse_fails("'ab", "without its closing");
	parse_fails("'/nonexistent/drivebench-pattern'", "cannot read pattern file '/nonexistent/drivebench-pattern': No such file");
	parse_fails("%o", "formats such as %o are not supported");
	parse_fails("abc", "unexpected 'a'");
	parse_fails("-", "unexpected '-'");
	parse_fails("2147483648", "number out of range");
	memset(big, 'a', sizeof(big));
	big[0] = '"';
	big[514] = '"';
	big[515] = '\0';
	parse_fails(big, "pattern longer than 512 bytes");
	big[513] = '"';
	big[514] = '\0';
	parse_ok(big, big + 1, 512);
}

static void options_set_and_check(void **state)
{
	struct job_spec *s = spec_with(NULL);

	(void)state;
	assert_true(s->buffering.invalidate);
	assert_true(s->buffering.scramble_buffers);
	assert_int_equal(s->buffering.compress_chunk, 512);
	assert_int_equal(s->buffering.dedupe_ws_pct, 5);
	assert_int_equal(s->buffering.fadvise, FADVISE_TYPE);
	assert_int_equal(job_option_set(s, "zero_buffers", NULL), 0);
	assert_true(s->buffering.zero_buffers && s->buffering.zero_set);
	assert_int_equal(job_option_set(s, "buffer_pattern", "0x00"), 0);
	assert_false(s->buffering.zero_buffers || s->buffering.scramble_buffers);
	assert_int_equal(job_option_set(s, "fadvise_hint", "sequential"), 0);
	assert_int_equal(s->buffering.fadvise, FADVISE_SEQUENTIAL);
	assert_int_equal(job_option_set(s, "fadvise_hint", "2"), -1);
	assert_string_equal(err_msg(), "option 'fadvise_hint': bad hint '2' (0, 1, random, sequential or noreuse)");
	assert_int_equal(job_option_set(s, "dedupe_mode", "all"), -1);
	assert_string_equal(err_msg(), "option 'dedupe_mode': bad mode 'all' (repeat or working_set)");
	assert_int_equal(job_option_set(s, "refill_buffers", "maybe"), -1);
	assert_string_equal(err_msg(), "option 'refill_buffers': bad boolean 'maybe'");
	assert_int_equal(job_option_set(s, "scramble_buffers", "2"), -1);
	assert_int_equal(job_option_set(s, "zero_buffers", "x"), -1);
	assert_int_equal(job_option_set(s, "fdatasync", "8"), 0);
	assert_int_equal(s->buffering.fdatasync_every, 8);
	assert_int_equal(job_option_set(s, "invalidate", "0"), 0);
	assert_false(s->buffering.invalidate);
	assert_int_equal(job_spec_validate(s), 0);
	/* the working set is a share of an explicit size */
	assert_int_equal(job_option_set(s, "dedupe_percentage", "50"), 0);
	assert_int_equal(job_option_set(s, "dedupe_mode", "working_set"), 0);
	assert_int_equal(job_spec_validate(s), -1);
	assert_non_null(strstr(err_msg(), "option 'dedupe_mode': working_set needs size="));
	assert_int_equal(job_option_set(s, "size", "1g"), 0);
	assert_int_equal(job_spec_validate(s), 0);
	assert_int_equal(job_option_set(s, "dedupe_working_set_percentage", "60"), 0);
	assert_int_equal(job_spec_validate(s), -1);
	assert_non_null(strstr(err_msg(), "dedupe_percentage=50 cannot be reached"));
	free(s);
}

/* Values no option can set (a spec built in code) are still refused. */
static void out_of_range_fields_are_refused(void **state)
{
	struct job_spec *s = spec_with(NULL);

	(void)state;
	s->buffering.compress_pct = 101;
	assert_int_equal(job_spec_validate(s), -1);
	assert_non_null(strstr(err_msg(), "over 100"));
	s->buffering.compress_pct = 0;
	s->buffering.pattern_len = BUFFER_PATTERN_MAX + 1;
	assert_int_equal(job_spec_validate(s), -1);
	assert_non_null(strstr(err_msg(), "option 'buffer_pattern': longer than 512 bytes"));
	free(s);
}

/* A target the calls do not apply to: an error naming it and the cause
 * (the runner turns it into a warning). */
static void cache_calls_report_failures(void **state)
{
	int fds[2];
	char path[TMPDIR_PATH_MAX + 64], expected[TMPDIR_PATH_MAX + 128];
	int fd = tmp_file("drivebench-cache", path, sizeof(path));

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(target_cache_drop(fds[0], false, "a pipe", 0, 4096), -1);
	assert_string_equal(err_msg(), "cache invalidation of 'a pipe' failed: Illegal seek");
	assert_int_equal(target_cache_advise(fds[0], FADVISE_RANDOM, true, "a pipe", 0, 4096), -1);
	assert_string_equal(err_msg(), "fadvise_hint on 'a pipe' failed: Illegal seek");
	assert_int_equal(target_cache_advise(fds[0], FADVISE_NONE, true, "a pipe", 0, 4096), 0);
	close(fds[0]);
	close(fds[1]);
	assert_true(fd >= 0);
	/* BLKFLSBUF on a regular file */
	assert_int_equal(target_cache_drop(fd, true, path, 0, 0), -1);
	snprintf(expected, sizeof(expected), "cache invalidation of '%s'", path);
	assert_non_null(strstr(err_msg(), expected));
	assert_int_equal(target_cache_drop(fd, false, path, 0, 0), 0);
	for (int h = FADVISE_NONE; h <= FADVISE_NOREUSE; h++)
		assert_int_equal(target_cache_advise(fd, (enum fadvise_hint)h, false, path, 0, 0), 0);
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(modes_follow_fio, release),
		cmocka_unit_test_teardown(scrambled_sectors_never_repeat, release),
		cmocka_unit_test_teardown(compressible_chunks, release),
		cmocka_unit_test_teardown(dedupe_repeats_its_share, release),
		cmocka_unit_test_teardown(working_set_pages_are_the_first_unique_ones, release),
		cmocka_unit_test_teardown(global_working_set_spans_clones, release),
		cmocka_unit_test_teardown(zero_and_pattern_fill, release),
		cmocka_unit_test_teardown(patterns_parse_as_fio, release),
		cmocka_unit_test_teardown(options_set_and_check, release),
		cmocka_unit_test_teardown(out_of_range_fields_are_refused, release),
		cmocka_unit_test_teardown(cache_calls_report_failures, release),
	};

	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
