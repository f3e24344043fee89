/* test_nvme.c - the NVMe parsers over buffers built with known values at the
 * offsets the NVMe base and OCP specifications define, the 128-bit counter
 * helpers, the admin ioctl error paths, and the JSON / delta rendering of
 * NVMe snapshots. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/nvme.h"
#include "device/snapshot.h"
#include "util/error.h"
#include "helpers/tmpdir.h"
#include "helpers/fixtures.h"

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_ascii(uint8_t *p, const char *s, unsigned width)
{
	memset(p, ' ', width);
	memcpy(p, s, strlen(s));
}

static void test_parse_ctrl(void **state)
{
	uint8_t buf[NVME_IDENTIFY_SIZE] = { 0 };
	struct nvme_ctrl_info c;
	char v[16];

	(void)state;
	put_le(buf + 0, 0x144d, 2);
	put_le(buf + 2, 0x108e, 2);
	put_ascii(buf + 4, "S5RTNC0T104269", 20);
	put_ascii(buf + 24, "SAMSUNG MZWLJ7T6HALA-00AU3", 40);
	put_ascii(buf + 64, "EPK9CR5Q", 8);
	put_le(buf + 78, 0x41, 2);
	put_le(buf + 80, 0x010400, 4);
	put_le(buf + 280, 7681501126656ull, 8);
	put_le(buf + 516, 32, 4);
	assert_int_equal(nvme_parse_ctrl(buf, &c), 0);
	assert_int_equal(c.vendor_id, 0x144d);
	assert_int_equal(c.subsystem_vendor_id, 0x108e);
	assert_string_equal(c.serial, "S5RTNC0T104269");
	assert_string_equal(c.model, "SAMSUNG MZWLJ7T6HALA-00AU3");
	assert_string_equal(c.firmware, "EPK9CR5Q");
	assert_int_equal(c.controller_id, 0x41);
	assert_int_equal(c.version, 0x010400);
	assert_string_equal(nvme_version_string(c.version, v, sizeof(v)), "1.4.0");
	assert_int_equal(c.total_capacity.lo, 7681501126656ull);
	assert_int_equal(c.total_capacity.hi, 0);
	assert_int_equal(c.namespaces, 32);
	assert_int_equal(c.sanicap, 0);
	assert_int_equal(c.oncs, 0);
	/* SANICAP crypto + block erase, ONCS with Dataset Management */
	put_le(buf + 328, 0x3, 4);
	put_le(buf + 520, 0x4, 2);
	put_le(buf + 256, 0x2, 2);
	assert_int_equal(nvme_parse_ctrl(buf, &c), 0);
	assert_int_equal(c.sanicap, 0x3);
	assert_int_equal(c.oncs, 0x4);
	assert_int_equal(c.oacs, 0x2);
}

static void test_parse_ctrl_full_width_and_empty(void **state)
{
	uint8_t buf[NVME_IDENTIFY_SIZE] = { 0 };
	struct nvme_ctrl_info c;

	(void)state;
	/* Fields filling their whole width are not cut; non-ASCII becomes '?'. */
	memcpy(buf + 4, "ABCDEFGHIJKLMNOPQRST", 20);
	memcpy(buf + 64, "12345678", 8);
	buf[24] = 'M';
	buf[25] = 0x80;
	assert_int_equal(nvme_parse_ctrl(buf, &c), 0);
	assert_string_equal(c.serial, "ABCDEFGHIJKLMNOPQRST");
	assert_string_equal(c.firmware, "12345678");
	assert_string_equal(c.model, "M?");

	memset(buf, 0, sizeof(buf));
	assert_int_equal(nvme_parse_ctrl(buf, &c), -1);
	assert_non_null(strstr(err_msg(), "empty"));
}

static void test_parse_ns(void **state)
{
	uint8_t buf[NVME_IDENTIFY_SIZE] = { 0 };
	struct nvme_ns_info n;

	(void)state;
	put_le(buf + 0, 15002931888ull, 8);
	put_le(buf + 8, 15002931880ull, 8);
	put_le(buf + 16, 123456789ull, 8);
	buf[25] = 1;          /* two formats */
	buf[26] = 0x11;       /* format 1, metadata at the end of the LBA (bit 4) */
	put_le(buf + 128, 0, 2);
	buf[128 + 2] = 9;     /* format 0: 512 bytes */
	put_le(buf + 132, 8, 2);
	buf[132 + 2] = 12;    /* format 1: 4096 bytes + 8 bytes metadata */
	assert_int_equal(nvme_parse_ns(buf, &n), 0);
	assert_int_equal(n.size_blocks, 15002931888ull);
	assert_int_equal(n.capacity_blocks, 15002931880ull);
	assert_int_equal(n.used_blocks, 123456789ull);
	assert_int_equal(n.nr_lba_formats, 2);
	assert_int_equal(n.lba_format, 1);
	assert_int_equal(n.lba_data_size, 4096);
	assert_int_equal(n.metadata_size, 8);
}

static void test_parse_ns_extended_format_index(void **state)
{
	uint8_t buf[NVME_IDENTIFY_SIZE] = { 0 };
	struct nvme_ns_info n;

	(void)state;
	/* 20 formats; FLBAS = 0x22: low bits 2, bits 6:5 = 1 -> index 18. */
	buf[25] = 19;
	buf[26] = 0x22;
	buf[128 + 4 * 18 + 2] = 13;
	assert_int_equal(nvme_parse_ns(buf, &n), 0);
	assert_int_equal(n.lba_format, 18);
	assert_int_equal(n.lba_data_size, 8192);
}

static void test_parse_ns_invalid(void **state)
{
	uint8_t buf[NVME_IDENTIFY_SIZE] = { 0 };
	struct nvme_ns_info n;

	(void)state;
	buf[25] = 0;  /* one format */
	buf[26] = 1;  /* but format 1 in use */
	buf[132 + 2] = 9;
	assert_int_equal(nvme_parse_ns(buf, &n), -1);
	assert_non_null(strstr(err_msg(), "LBA format 1"));

	buf[26] = 0;
	buf[130] = 8; /* 256-byte blocks are not allowed */
	assert_int_equal(nvme_parse_ns(buf, &n), -1);
	assert_non_null(strstr(err_msg(), "2^8"));
	buf[130] = 0; /* all-zero identify data (inactive namespace) */
	assert_int_equal(nvme_parse_ns(buf, &n), -1);
}

static void test_parse_health(void **state)
{
	uint8_t buf[NVME_LOG_PAGE_SIZE];
	struct nvme_health h;

	(void)state;
	memset(buf, 0, sizeof(buf));
	buf[0] = 0x04;
	put_le(buf + 1, 310, 2);
	buf[3] = 99;
	buf[4] = 10;
	buf[5] = 3;
	put_le(buf + 32, 1111, 8);
	put_le(buf + 48, 2222, 8);
	put_le(buf + 56, 5, 8);          /* high half of data units written */
	put_le(buf + 64, 3333, 8);
	put_le(buf + 80, 4444, 8);
	put_le(buf + 96, 5555, 8);
	put_le(buf + 112, 66, 8);
	put_le(buf + 128, 7777, 8);
	put_le(buf + 144, 88, 8);
	put_le(buf + 160, 9, 8);
	put_le(buf + 176, 1010, 8);
	assert_int_equal(nvme_parse_health(buf, &h), 0);
	assert_int_equal(h.critical_warning, 0x04);
	assert_int_equal(h.temperature_kelvin, 310);
	assert_int_equal(h.available_spare, 99);
	assert_int_equal(h.available_spare_threshold, 10);
	assert_int_equal(h.percentage_used, 3);
	assert_int_equal(h.data_units_read.lo, 1111);
	assert_int_equal(h.data_units_read.hi, 0);
	assert_int_equal(h.data_units_written.lo, 2222);
	assert_int_equal(h.data_units_written.hi, 5);
	assert_int_equal(h.host_read_commands.lo, 3333);
	assert_int_equal(h.host_write_commands.lo, 4444);
	assert_int_equal(h.controller_busy_minutes.lo, 5555);
	assert_int_equal(h.power_cycles.lo, 66);
	assert_int_equal(h.power_on_hours.lo, 7777);
	assert_int_equal(h.unsafe_shutdowns.lo, 88);
	assert_int_equal(h.media_errors.lo, 9);
	assert_int_equal(h.error_log_entries.lo, 1010);
}

static void fill_ocp(uint8_t buf[NVME_LOG_PAGE_SIZE])
{
	memset(buf, 0, NVME_LOG_PAGE_SIZE);
	put_le(buf + 0, 3000000000000ull, 8);
	put_le(buf + 8, 1, 8);
	put_le(buf + 16, 4000000000ull, 8);
	put_le(buf + 32, 0x0000123456789aull, 6);
	put_le(buf + 38, 100, 2);
	put_le(buf + 40, 7, 6);
	put_le(buf + 46, 99, 2);
	put_le(buf + 48, 11, 8);
	put_le(buf + 56, 12, 8);
	put_le(buf + 64, 13, 8);
	buf[80] = 2;
	buf[96] = 4;
	buf[97] = 1;
	put_le(buf + 494, 3, 2);
	memcpy(buf + 496, nvme_ocp_smart_guid, 16);
}

static void test_parse_ocp(void **state)
{
	uint8_t buf[NVME_LOG_PAGE_SIZE];
	struct nvme_ocp_smart o;
	char text[U128_DECIMAL_MAX];

	(void)state;
	fill_ocp(buf);
	assert_int_equal(nvme_parse_ocp_smart(buf, &o), 0);
	assert_string_equal(u128_to_decimal(o.media_bytes_written, text),
			    "18446747073709551616"); /* 2^64 + 3e12 */
	assert_int_equal(o.media_bytes_read.lo, 4000000000ull);
	assert_int_equal(o.bad_user_nand_blocks, 0x123456789aull);
	assert_int_equal(o.bad_user_nand_blocks_normalized, 100);
	assert_int_equal(o.bad_system_nand_blocks, 7);
	assert_int_equal(o.bad_system_nand_blocks_normalized, 99);
	assert_int_equal(o.xor_recoveries, 11);
	assert_int_equal(o.uncorrectable_read_errors, 12);
	assert_int_equal(o.soft_ecc_errors, 13);
	assert_int_equal(o.system_data_percent_used, 2);
	assert_int_equal(o.thermal_throttling_events, 4);
	assert_int_equal(o.thermal_throttling_status, 1);
	assert_int_equal(o.log_page_version, 3);
	/* The GUID in the spec's notation, byte-reversed into the buffer. */
	assert_int_equal(buf[511], 0xAF);
	assert_int_equal(buf[496], 0xC5);
}

static void test_parse_ocp_wrong_guid(void **state)
{
	uint8_t buf[NVME_LOG_PAGE_SIZE];
	struct nvme_ocp_smart o;

	(void)state;
	fill_ocp(buf);
	buf[511] ^= 1;
	assert_int_equal(nvme_parse_ocp_smart(buf, &o), -1);
	assert_non_null(strstr(err_msg(), "GUID"));
	assert_int_equal(o.media_bytes_written.lo, 0);
	memset(buf, 0, sizeof(buf)); /* a drive returning zeros */
	assert_int_equal(nvme_parse_ocp_smart(buf, &o), -1);
}

static void test_u128(void **state)
{
	char text[U128_DECIMAL_MAX];
	struct u128 zero = { 0, 0 }, two64 = { 0, 1 }, max = { UINT64_MAX, UINT64_MAX };
	struct u128 small = { 5, 0 }, r;
	bool flag;
	uint8_t bytes[16] = { 0x01, 0, 0, 0, 0, 0, 0, 0, 0x02 };

	(void)state;
	assert_string_equal(u128_to_decimal(zero, text), "0");
	assert_string_equal(u128_to_decimal(two64, text), "18446744073709551616");
	assert_string_equal(u128_to_decimal(max, text),
			    "340282366920938463463374607431768211455");
	r = u128_from_le(bytes);
	assert_int_equal(r.lo, 1);
	assert_int_equal(r.hi, 2);

	r = u128_mul(small, 512000, &flag);
	assert_false(flag);
	assert_int_equal(r.lo, 2560000);
	r = u128_mul(two64, 3, &flag);
	assert_false(flag);
	assert_int_equal(r.hi, 3);
	r = u128_mul(max, 2, &flag);
	assert_true(flag);
	assert_int_equal(r.lo, UINT64_MAX);

	r = u128_sub(two64, small, &flag);
	assert_false(flag);
	assert_int_equal(r.lo, UINT64_MAX - 4);
	assert_int_equal(r.hi, 0);
	r = u128_sub(small, two64, &flag);
	assert_true(flag);
	assert_int_equal(r.lo, 0);
}

static void test_admin_errors(void **state)
{
	uint8_t buf[NVME_IDENTIFY_SIZE];
	uint32_t nsid;
	int fd = tmp_unlinked_fd();

	(void)state;
	assert_true(fd >= 0);
	/* A regular file is no NVMe device: the ioctl fails with ENOTTY. */
	assert_int_equal(nvme_identify(fd, 0, 1, buf), -1);
	assert_non_null(strstr(err_msg(), "identify (CNS 1)"));
	assert_int_equal(nvme_get_log(fd, NVME_NSID_ALL, NVME_LOG_HEALTH, buf, 512), -1);
	assert_non_null(strstr(err_msg(), "get log page 02h"));
	assert_int_equal(nvme_namespace_id(fd, &nsid), -1);
	assert_non_null(strstr(err_msg(), "namespace id"));
	assert_int_equal(nvme_get_log(fd, NVME_NSID_ALL, NVME_LOG_HEALTH, buf, 510), -1);
	assert_non_null(strstr(err_msg(), "multiple of 4"));
	close(fd);
	assert_int_equal(nvme_identify(-1, 0, 1, buf), -1);
	assert_non_null(strstr(err_msg(), "Bad file descriptor"));
}

/* Statuses that mean "the controller lacks this log page" (QEMU: 0x4002),
 * and ones that mean something else (a media error, a vendor status). */
static void test_status_not_offered(void **state)
{
	(void)state;
	assert_true(nvme_status_not_offered(0x4002));
	assert_true(nvme_status_not_offered(0x0009));
	assert_true(nvme_status_not_offered(0x4009));
	assert_false(nvme_status_not_offered(0x0004));
	assert_false(nvme_status_not_offered(0x0281));
	assert_false(nvme_status_not_offered(0x0102));
	assert_false(nvme_status_not_offered(0));
}

/* A snapshot as an NVMe drive would give it, without the device. */
static struct drive_snapshot *nvme_snapshot(uint64_t units_written, uint64_t nand_written)
{
	struct drive_snapshot *s = calloc(1, sizeof(*s));
	uint8_t buf[NVME_LOG_PAGE_SIZE];

	assert_non_null(s);
	s->taken_unix_ms = 1700000000000ull;
	s->id.kind = DRIVE_NVME;
	strcpy(s->id.path, "/dev/nvme0n1");
	strcpy(s->id.kernel_name, "nvme0n1");
	strcpy(s->id.nvme_controller, "nvme0");
	s->nsid = 1;
	s->have_health = true;
	s->health.data_units_written.lo = units_written;
	s->health.data_units_read.lo = 10;
	s->health.temperature_kelvin = 0;
	memset(buf, 0, sizeof(buf));
	fill_ocp(buf);
	put_le(buf, nand_written, 8);
	put_le(buf + 8, 0, 8);
	assert_int_equal(nvme_parse_ocp_smart(buf, &s->ocp), 0);
	s->have_ocp = true;
	return s;
}

static void test_snapshot_json(void **state)
{
	struct drive_snapshot *s = nvme_snapshot(3, 100);
	cJSON *j, *nvme, *health;

	(void)state;
	s->health.data_units_read.hi = 1;
	j = drive_snapshot_json(s);
	assert_non_null(j);
	assert_string_equal(cJSON_GetObjectItem(j, "kind")->valuestring, "nvme");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "model")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "size_bytes")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "rotational")));
	nvme = cJSON_GetObjectItem(j, "nvme");
	assert_true(cJSON_IsObject(nvme));
	assert_int_equal(cJSON_GetObjectItem(nvme, "namespace_id")->valueint, 1);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(nvme, "identify_controller")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(nvme, "identify_namespace")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(nvme, "pcie_link_width")));
	health = cJSON_GetObjectItem(nvme, "health");
	assert_string_equal(cJSON_GetObjectItem(health, "data_units_written")->valuestring, "3");
	assert_string_equal(cJSON_GetObjectItem(health, "host_bytes_written")->valuestring,
			    "1536000");
	/* (2^64 + 10) x 512000, exactly */
	assert_string_equal(cJSON_GetObjectItem(health, "host_bytes_read")->valuestring,
			    "9444732965739290432512000");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(health, "temperature_kelvin")));
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(nvme, "ocp_smart"),
						"media_bytes_written")->valuestring, "100");
	cJSON_Delete(j);
	free(s);
}

static void test_snapshot_delta(void **state)
{
	struct drive_snapshot *before = nvme_snapshot(1000, 600000000);
	struct drive_snapshot *after = nvme_snapshot(3000, 2136000000);
	cJSON *d;

	(void)state;
	after->taken_unix_ms += 2500;
	d = drive_snapshot_delta_json(before, after);
	assert_non_null(d);
	assert_int_equal(cJSON_GetObjectItem(d, "elapsed_ms")->valueint, 2500);
	assert_string_equal(cJSON_GetObjectItem(d, "host_bytes_written")->valuestring,
			    "1024000000");
	assert_string_equal(cJSON_GetObjectItem(d, "media_bytes_written")->valuestring,
			    "1536000000");
	assert_float_equal(cJSON_GetObjectItem(d, "write_amplification")->valuedouble,
			   1.5, 1e-9);
	cJSON_Delete(d);

	/* Without the OCP log on one side there is no NAND figure. */
	after->have_ocp = false;
	d = drive_snapshot_delta_json(before, after);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(d, "media_bytes_written")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(d, "write_amplification")));
	assert_true(cJSON_IsString(cJSON_GetObjectItem(d, "host_bytes_written")));
	cJSON_Delete(d);

	/* A counter going backwards (another drive) gives null, not a wrap. */
	after->have_ocp = true;
	d = drive_snapshot_delta_json(after, before);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(d, "host_bytes_written")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(d, "write_amplification")));
	cJSON_Delete(d);
	free(before);
	free(after);
}

static void test_snapshot_print(void **state)
{
	struct drive_snapshot *s = nvme_snapshot(3, 100);
	struct fx_capture c;
	char *text;

	(void)state;
	strcpy(s->notes[0], "identify (CNS 1): Permission denied");
	s->nr_notes = 1;
	drive_snapshot_print(fx_capture_open(&c), s);
	text = fx_capture_text(&c);
	assert_non_null(strstr(text, "identify controller:         not available"));
	assert_non_null(strstr(text, "data units written:          3 units (1536000 bytes)"));
	assert_non_null(strstr(text, "temperature:                 not available"));
	assert_non_null(strstr(text, "nand bytes written:          100"));
	assert_non_null(strstr(text, "note: identify (CNS 1): Permission denied"));
	free(text);
	free(s);
}

/* The Sanitize command as sent: opcode 84h, NSID 0, SANACT in CDW10 bits
 * 2:0 with AUSE, OWPASS, OIPBP and NODAS 0, no overwrite pattern. */
static void test_sanitize_command(void **state)
{
	struct nvme_command_dwords d;

	(void)state;
	nvme_sanitize_command(NVME_SANACT_BLOCK_ERASE, &d);
	assert_int_equal(d.opcode, 0x84);
	assert_int_equal(d.nsid, 0);
	assert_int_equal(d.cdw10, 0x2);
	assert_int_equal(d.cdw11, 0);
	nvme_sanitize_command(NVME_SANACT_CRYPTO_ERASE, &d);
	assert_int_equal(d.opcode, 0x84);
	assert_int_equal(d.cdw10, 0x4);
	assert_int_equal(d.cdw11, 0);
	/* only SANACT's three bits are ever set */
	nvme_sanitize_command(0xff, &d);
	assert_int_equal(d.cdw10, 0x7);
}

static void test_parse_sanitize_status(void **state)
{
	uint8_t buf[NVME_SANITIZE_LOG_SIZE] = { 0 };
	struct nvme_sanitize_status st;

	(void)state;
	put_le(buf + 0, 0x8000, 2);             /* half way */
	put_le(buf + 2, 0x0102, 2);             /* in progress; bit 8 global erased */
	put_le(buf + 4, 0x4, 4);                /* the last one: crypto erase */
	put_le(buf + 12, 120, 4);
	put_le(buf + 16, 0xffffffffu, 4);
	nvme_parse_sanitize_status(buf, &st);
	assert_int_equal(st.progress_pct, 50);
	assert_int_equal(st.state, NVME_SANITIZE_RUNNING);
	assert_int_equal(st.cdw10, 4);
	assert_int_equal(st.block_erase_s, 120);
	assert_int_equal(st.crypto_erase_s, 0xffffffffu);
	put_le(buf + 0, 0xffff, 2);
	put_le(buf + 2, 0x1, 2);
	nvme_parse_sanitize_status(buf, &st);
	assert_int_equal(st.progress_pct, 100);
	assert_int_equal(st.state, NVME_SANITIZE_DONE);
	put_le(buf + 2, 0x3, 2);
	nvme_parse_sanitize_status(buf, &st);
	assert_int_equal(st.state, NVME_SANITIZE_FAILED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ctrl),
		cmocka_unit_test(test_parse_ctrl_full_width_and_empty),
		cmocka_unit_test(test_parse_ns),
		cmocka_unit_test(test_parse_ns_extended_format_index),
		cmocka_unit_test(test_parse_ns_invalid),
		cmocka_unit_test(test_parse_health),
		cmocka_unit_test(test_parse_ocp),
		cmocka_unit_test(test_parse_ocp_wrong_guid),
		cmocka_unit_test(test_u128),
		cmocka_unit_test(test_admin_errors),
		cmocka_unit_test(test_status_not_offered),
		cmocka_unit_test(test_sanitize_command),
		cmocka_unit_test(test_parse_sanitize_status),
		cmocka_unit_test(test_snapshot_json),
		cmocka_unit_test(test_snapshot_delta),
		cmocka_unit_test(test_snapshot_print),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
