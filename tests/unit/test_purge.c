/* test_purge.c - the purge methods (device/purge.h): their names, what an
 * NVMe controller offers by OACS, ONCS and SANICAP, the choice of the
 * strongest, the consent a sanitize needs for its sibling namespaces, and
 * the refusal of NVMe methods on a target that is no NVMe namespace. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "device/nvme.h"
#include "device/purge.h"
#include "util/error.h"
#include "helpers/tmpdir.h"

static void test_method_names(void **state)
{
	static const char *const names[] = { "discard", "format", "sanitize-block",
					     "sanitize-crypto", "sanitize", "strongest" };
	enum purge_method m;

	(void)state;
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(purge_method_parse(names[i], &m), 0);
		assert_int_equal(m, i);
		assert_string_equal(purge_method_name(m), names[i]);
	}
	assert_int_equal(purge_method_parse("sanitize-overwrite", &m), -1);
	assert_non_null(strstr(err_msg(), "'sanitize-overwrite' is not a purge method"));
	assert_non_null(strstr(err_msg(), "sanitize-crypto"));
	assert_int_equal(purge_method_parse("", &m), -1);
}

static void test_offers(void **state)
{
	struct nvme_ctrl_info c;
	char text[96];

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_int_equal(purge_nvme_offers(&c), 0);
	purge_offers_text(0, text, sizeof(text));
	assert_string_equal(text, "none");
	c.oacs = 0x2;    /* Format NVM */
	c.oncs = 0x4;    /* Dataset Management */
	assert_int_equal(purge_nvme_offers(&c),
			 PURGE_OFFERS(PURGE_FORMAT) | PURGE_OFFERS(PURGE_DISCARD));
	purge_offers_text(purge_nvme_offers(&c), text, sizeof(text));
	assert_string_equal(text, "format, discard");
	c.sanicap = NVME_SANICAP_BLOCK | 0x4;   /* block erase, overwrite (not used) */
	purge_offers_text(purge_nvme_offers(&c), text, sizeof(text));
	assert_string_equal(text, "sanitize-block, format, discard");
	c.sanicap |= NVME_SANICAP_CRYPTO;
	c.oacs = 0x1;    /* Security Send/Receive only: no Format NVM */
	purge_offers_text(purge_nvme_offers(&c), text, sizeof(text));
	assert_string_equal(text, "sanitize-crypto, sanitize-block, discard");
}

static void test_choose(void **state)
{
	unsigned all = PURGE_OFFERS(PURGE_DISCARD) | PURGE_OFFERS(PURGE_FORMAT) |
		PURGE_OFFERS(PURGE_SANITIZE_BLOCK) | PURGE_OFFERS(PURGE_SANITIZE_CRYPTO);
	unsigned qemu = PURGE_OFFERS(PURGE_DISCARD) | PURGE_OFFERS(PURGE_FORMAT);
	enum purge_method use;

	(void)state;
	assert_true(purge_choose(PURGE_STRONGEST, all, &use));
	assert_int_equal(use, PURGE_SANITIZE_CRYPTO);
	assert_true(purge_choose(PURGE_SANITIZE, all, &use));
	assert_int_equal(use, PURGE_SANITIZE_CRYPTO);
	assert_true(purge_choose(PURGE_SANITIZE, all & ~PURGE_OFFERS(PURGE_SANITIZE_CRYPTO), &use));
	assert_int_equal(use, PURGE_SANITIZE_BLOCK);
	assert_true(purge_choose(PURGE_STRONGEST, qemu, &use));
	assert_int_equal(use, PURGE_FORMAT);
	assert_true(purge_choose(PURGE_STRONGEST, PURGE_OFFERS(PURGE_DISCARD), &use));
	assert_int_equal(use, PURGE_DISCARD);
	assert_false(purge_choose(PURGE_STRONGEST, 0, &use));
	assert_false(purge_choose(PURGE_SANITIZE, qemu, &use));
	assert_false(purge_choose(PURGE_SANITIZE_CRYPTO, qemu, &use));
	assert_false(purge_choose(PURGE_FORMAT, PURGE_OFFERS(PURGE_SANITIZE_BLOCK), &use));
	assert_true(purge_choose(PURGE_SANITIZE_BLOCK, all, &use));
	assert_int_equal(use, PURGE_SANITIZE_BLOCK);   /* asked, not the strongest */
	assert_true(purge_choose(PURGE_FORMAT, all, &use));
	assert_int_equal(use, PURGE_FORMAT);
}

static void test_sanitize_siblings(void **state)
{
	const uint32_t nsids[] = { 1, 2, 5 };
	const char *const some[] = { "S1:ns1", "S1:ns2" };
	const char *const both[] = { "S1:ns5", "S1:ns2" };
	const char *const other[] = { "S2:ns2", "S1:ns5" };

	(void)state;
	assert_int_equal(purge_sanitize_siblings("S1", 1, nsids, 1, NULL, 0), 0);
	assert_int_equal(purge_sanitize_siblings("S1", 1, nsids, 3, some, 2), -1);
	assert_true(err_refused());
	assert_non_null(strstr(err_msg(), "erases every namespace of controller S1"));
	assert_non_null(strstr(err_msg(), "--destroy-data=S1:ns5"));
	assert_int_equal(purge_sanitize_siblings("S1", 1, nsids, 3, both, 2), 0);
	assert_int_equal(purge_sanitize_siblings("S1", 1, nsids, 3, other, 2), -1);
	assert_non_null(strstr(err_msg(), "S1:ns2"));
}

/* A regular file offers only a discard (its hole punch): the NVMe methods
 * are refused before any I/O, naming it; strongest and sanitize resolve
 * or are refused likewise; a missing target's strongest is a discard. */
static void test_resolve_file(void **state)
{
	struct tmpdir d;
	char path[TMPDIR_PATH_MAX + 16];
	enum purge_method use;
	FILE *f;
	int code = 0;

	(void)state;
	assert_int_equal(tmpdir_make(&d, NULL, "purge"), 0);
	tmpdir_join(&d, "t.dat", path, sizeof(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("data", f);
	fclose(f);
	assert_int_equal(target_purge_resolve(path, PURGE_STRONGEST, &use, &code), 0);
	assert_int_equal(use, PURGE_DISCARD);
	assert_int_equal(target_purge_resolve(path, PURGE_DISCARD, &use, &code), 0);
	assert_int_equal(use, PURGE_DISCARD);
	assert_int_equal(target_purge_resolve(path, PURGE_FORMAT, &use, &code), -1);
	assert_int_equal(code, 2);
	assert_non_null(strstr(err_msg(), "purge = format: '"));
	assert_non_null(strstr(err_msg(), "' is not an NVMe namespace; it offers: discard"));
	code = 0;
	assert_int_equal(target_purge_resolve(path, PURGE_SANITIZE, &use, &code), -1);
	assert_int_equal(code, 2);
	assert_non_null(strstr(err_msg(), "purge = sanitize: "));
	tmpdir_join(&d, "missing.dat", path, sizeof(path));
	assert_int_equal(target_purge_resolve(path, PURGE_STRONGEST, &use, &code), 0);
	assert_int_equal(use, PURGE_DISCARD);
	assert_int_equal(tmpdir_remove(&d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_method_names),
		cmocka_unit_test(test_offers),
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_sanitize_siblings),
		cmocka_unit_test(test_resolve_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
