/* nvme.c - NVMe admin passthrough (Identify, Get Log Page) and the parsers of
 * Identify Controller, Identify Namespace, the SMART / Health log (02h) and
 * the OCP extended SMART log (C0h). Offsets follow the NVMe Base
 * Specification 2.0 and the OCP Datacenter NVMe SSD Specification 2.0. */
#include "device/nvme.h"

#include <errno.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "util/error.h"

#define NVME_ADMIN_GET_LOG_PAGE 0x02
#define NVME_ADMIN_IDENTIFY 0x06
#define NVME_ADMIN_FORMAT_NVM 0x80
#define NVME_ADMIN_TIMEOUT_MS 5000
#define NVME_FORMAT_TIMEOUT_MS 600000

const uint8_t nvme_ocp_smart_guid[16] = {
	0xC5, 0xAF, 0x10, 0x28, 0xEA, 0xBF, 0xF2, 0xA4,
	0x9C, 0x4F, 0x6F, 0x7C, 0xC9, 0x14, 0xD5, 0xAF,
};

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* Little-endian unsigned integer of n <= 8 bytes. */
static uint64_t le_n(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

struct u128 u128_from_le(const uint8_t *bytes)
{
	struct u128 v = { le_n(bytes, 8), le_n(bytes + 8, 8) };

	return v;
}

/* The project builds with gcc or clang on 64-bit Linux, both of which have
 * unsigned __int128; it keeps the arithmetic exact and short. */
__extension__ typedef unsigned __int128 uint128;

static uint128 to_native(struct u128 v)
{
	return (uint128)v.hi << 64 | v.lo;
}

static struct u128 from_native(uint128 v)
{
	struct u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };

	return r;
}

char *u128_to_decimal(struct u128 value, char *out)
{
	char digits[U128_DECIMAL_MAX];
	uint128 v = to_native(value);
	unsigned n = 0;

	do {
		digits[n++] = (char)('0' + (unsigned)(v % 10));
		v /= 10;
	} while (v);
	for (unsigned i = 0; i < n; i++)
		out[i] = digits[n - 1 - i];
	out[n] = '\0';
	return out;
}

struct u128 u128_mul(struct u128 value, uint32_t factor, bool *overflow)
{
	uint128 v = to_native(value);
	uint128 max = ~(uint128)0;

	*overflow = false;
	if (factor && v > max / factor) {
		*overflow = true;
		return from_native(max);
	}
	return from_native(v * factor);
}

struct u128 u128_sub(struct u128 a, struct u128 b, bool *negative)
{
	uint128 x = to_native(a), y = to_native(b);

	*negative = y > x;
	return from_native(*negative ? 0 : x - y);
}

char *nvme_version_string(uint32_t version, char *out, size_t len)
{
	snprintf(out, len, "%u.%u.%u", version >> 16, (version >> 8) & 0xff,
		 version & 0xff);
	return out;
}

/* Copies a space-padded ASCII field and trims trailing spaces and NULs. */
static void copy_ascii(char *out, const uint8_t *field, size_t width)
{
	size_t n = width;

	while (n > 0 && (field[n - 1] == ' ' || field[n - 1] == '\0'))
		n--;
	for (size_t i = 0; i < n; i++)
		out[i] = (field[i] >= 0x20 && field[i] < 0x7f) ? (char)field[i] : '?';
	out[n] = '\0';
}

int nvme_parse_ctrl(const uint8_t buf[NVME_IDENTIFY_SIZE], struct nvme_ctrl_info *out)
{
	memset(out, 0, sizeof(*out));
	out->vendor_id = le16(buf + 0);
	out->subsystem_vendor_id = le16(buf + 2);
	copy_ascii(out->serial, buf + 4, 20);
	copy_ascii(out->model, buf + 24, 40);
	copy_ascii(out->firmware, buf + 64, 8);
	out->controller_id = le16(buf + 78);
	out->version = le32(buf + 80);
	out->total_capacity = u128_from_le(buf + 280);
	out->namespaces = le32(buf + 516);
	out->oacs = le16(buf + 256);
	out->sanicap = le32(buf + 328);
	out->oncs = le16(buf + 520);
	out->fna = buf[524];
	if (!out->serial[0] && !out->model[0] && !out->vendor_id)
		return err_set("identify controller data is empty");
	return 0;
}

int nvme_parse_ns(const uint8_t buf[NVME_IDENTIFY_SIZE], struct nvme_ns_info *out)
{
	uint8_t flbas = buf[26];
	const uint8_t *lbaf;
	unsigned lbads;

	memset(out, 0, sizeof(*out));
	out->size_blocks = le_n(buf + 0, 8);
	out->capacity_blocks = le_n(buf + 8, 8);
	out->used_blocks = le_n(buf + 16, 8);
	out->nr_lba_formats = (unsigned)buf[25] + 1;
	/* FLBAS bits 3:0 are the low bits of the format index; bits 6:5 its
	 * high bits when more than 16 formats exist (NVMe 2.0). */
	out->lba_format = (flbas & 0x0fu) | ((flbas >> 5) & 0x03u) << 4;
	if (out->nr_lba_formats > 64 || out->lba_format >= out->nr_lba_formats)
		return err_set("identify namespace: LBA format %u in use but %u formats",
			       out->lba_format, out->nr_lba_formats);
	/* LBA Format descriptors start at byte 128, 4 bytes each:
	 * MS bits 15:0, LBADS bits 23:16, RP bits 25:24. */
	lbaf = buf + 128 + 4 * out->lba_format;
	out->metadata_size = le16(lbaf);
	lbads = lbaf[2];
	if (lbads < 9 || lbads > 31)
		return err_set("identify namespace: LBA data size 2^%u is not valid", lbads);
	out->lba_data_size = 1u << lbads;
	return 0;
}

int nvme_parse_health(const uint8_t buf[NVME_LOG_PAGE_SIZE], struct nvme_health *out)
{
	memset(out, 0, sizeof(*out));
	out->critical_warning = buf[0];
	out->temperature_kelvin = le16(buf + 1);
	out->available_spare = buf[3];
	out->available_spare_threshold = buf[4];
	out->percentage_used = buf[5];
	out->data_units_read = u128_from_le(buf + 32);
	out->data_units_written = u128_from_le(buf + 48);
	out->host_read_commands = u128_from_le(buf + 64);
	out->host_write_commands = u128_from_le(buf + 80);
	out->controller_busy_minutes = u128_from_le(buf + 96);
	out->power_cycles = u128_from_le(buf + 112);
	out->power_on_hours = u128_from_le(buf + 128);
	out->unsafe_shutdowns = u128_from_le(buf + 144);
	out->media_errors = u128_from_le(buf + 160);
	out->error_log_entries = u128_from_le(buf + 176);
	return 0;
}

int nvme_parse_ocp_smart(const uint8_t buf[NVME_LOG_PAGE_SIZE], struct nvme_ocp_smart *out)
{
	memset(out, 0, sizeof(*out));
	if (memcmp(buf + 496, nvme_ocp_smart_guid, sizeof(nvme_ocp_smart_guid)))
		return err_set("log page C0h does not carry the OCP extended SMART GUID");
	out->media_bytes_written = u128_from_le(buf + 0);
	out->media_bytes_read = u128_from_le(buf + 16);
	out->bad_user_nand_blocks = le_n(buf + 32, 6);
	out->bad_user_nand_blocks_normalized = le16(buf + 38);
	out->bad_system_nand_blocks = le_n(buf + 40, 6);
	out->bad_system_nand_blocks_normalized = le16(buf + 46);
	out->xor_recoveries = le_n(buf + 48, 8);
	out->uncorrectable_read_errors = le_n(buf + 56, 8);
	out->soft_ecc_errors = le_n(buf + 64, 8);
	out->system_data_percent_used = buf[80];
	out->thermal_throttling_events = buf[96];
	out->thermal_throttling_status = buf[97];
	out->log_page_version = le16(buf + 494);
	return 0;
}

bool nvme_status_not_offered(unsigned status)
{
	/* Generic command status (SCT 0) Invalid Field in Command (02h) or
	 * Invalid Log Page (09h); bit 14 (Do Not Retry) and bit 13 (More)
	 * are ignored. QEMU answers an unknown log page with 0x4002. */
	unsigned sct = (status >> 8) & 0x7u, sc = status & 0xffu;

	return sct == 0 && (sc == 0x02 || sc == 0x09);
}

/* Runs one admin command; a positive ioctl result is the NVMe status. */
static int admin_command(int fd, struct nvme_admin_cmd *cmd, const char *what)
{
	int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, cmd);

	if (rc < 0)
		return err_set("%s: %s", what, strerror(errno));
	if (rc > 0)
		return err_set("%s: NVMe status 0x%x", what, (unsigned)rc);
	return 0;
}

int nvme_identify(int fd, uint32_t nsid, uint8_t cns, uint8_t buf[NVME_IDENTIFY_SIZE])
{
	struct nvme_admin_cmd cmd;
	char what[48];

	memset(&cmd, 0, sizeof(cmd));
	memset(buf, 0, NVME_IDENTIFY_SIZE);
	cmd.opcode = NVME_ADMIN_IDENTIFY;
	cmd.nsid = nsid;
	cmd.addr = (uint64_t)(uintptr_t)buf;
	cmd.data_len = NVME_IDENTIFY_SIZE;
	cmd.cdw10 = cns;
	cmd.timeout_ms = NVME_ADMIN_TIMEOUT_MS;
	snprintf(what, sizeof(what), "identify (CNS %u)", (unsigned)cns);
	return admin_command(fd, &cmd, what);
}

int nvme_get_log(int fd, uint32_t nsid, uint8_t log_id, uint8_t *buf, uint32_t len)
{
	struct nvme_admin_cmd cmd;
	uint32_t dwords = len / 4 - 1; /* NUMD is 0's based */
	char what[48];
	int rc;

	if (len < 4 || len % 4)
		return err_set("log page length %u is not a multiple of 4", len);
	memset(&cmd, 0, sizeof(cmd));
	memset(buf, 0, len);
	cmd.opcode = NVME_ADMIN_GET_LOG_PAGE;
	cmd.nsid = nsid;
	cmd.addr = (uint64_t)(uintptr_t)buf;
	cmd.data_len = len;
	/* CDW10: NUMDL in bits 31:16, LID in 7:0; CDW11: NUMDU in 15:0. */
	cmd.cdw10 = (dwords & 0xffffu) << 16 | log_id;
	cmd.cdw11 = dwords >> 16;
	cmd.timeout_ms = NVME_ADMIN_TIMEOUT_MS;
	snprintf(what, sizeof(what), "get log page %02Xh", (unsigned)log_id);
	rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);
	if (rc > 0 && nvme_status_not_offered((unsigned)rc))
		return err_set("log page %02Xh is not offered by this controller",
			       (unsigned)log_id);
	if (rc < 0)
		return err_set("%s: %s", what, strerror(errno));
	if (rc > 0)
		return err_set("%s: NVMe status 0x%x", what, (unsigned)rc);
	return 0;
}

int nvme_namespace_id(int fd, uint32_t *nsid)
{
	int rc = ioctl(fd, NVME_IOCTL_ID);

	if (rc < 0)
		return err_set("namespace id: %s", strerror(errno));
	*nsid = (uint32_t)rc;
	return 0;
}

int nvme_format_nvm(int fd, uint32_t nsid, unsigned lbaf, unsigned ses)
{
	struct nvme_admin_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = NVME_ADMIN_FORMAT_NVM;
	cmd.nsid = nsid;
	/* CDW10: LBAF bits 3:0 (high bits 13:12), SES bits 11:9; no PI. */
	cmd.cdw10 = (lbaf & 0x0fu) | ((lbaf >> 4) & 0x3u) << 12 | (ses & 0x7u) << 9;
	cmd.timeout_ms = NVME_FORMAT_TIMEOUT_MS;
	return admin_command(fd, &cmd, "format NVM");
}

int nvme_active_namespaces(int fd, uint32_t nsids[1024], unsigned *nr)
{
	uint8_t buf[NVME_IDENTIFY_SIZE];

	*nr = 0;
	if (nvme_identify(fd, 0, 2, buf))
		return -1;
	for (unsigned i = 0; i < NVME_IDENTIFY_SIZE / 4; i++) {
		uint32_t id = le32(buf + 4 * i);

		if (!id)
			break;
		nsids[(*nr)++] = id;
	}
	return 0;
}

void nvme_sanitize_command(unsigned sanact, struct nvme_command_dwords *out)
{
	memset(out, 0, sizeof(*out));
	out->opcode = NVME_ADMIN_SANITIZE;
	/* CDW10: SANACT bits 2:0, AUSE bit 3, OWPASS 7:4, OIPBP 8, NODAS 9 */
	out->cdw10 = sanact & 0x7u;
}

int nvme_sanitize(int fd, unsigned sanact)
{
	struct nvme_command_dwords d;
	struct nvme_admin_cmd cmd;

	nvme_sanitize_command(sanact, &d);
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = d.opcode;
	cmd.nsid = d.nsid;
	cmd.cdw10 = d.cdw10;
	cmd.cdw11 = d.cdw11;
	cmd.timeout_ms = NVME_ADMIN_TIMEOUT_MS;   /* it only starts the sanitize */
	return admin_command(fd, &cmd, "sanitize");
}

void nvme_parse_sanitize_status(const uint8_t buf[NVME_SANITIZE_LOG_SIZE],
				struct nvme_sanitize_status *out)
{
	memset(out, 0, sizeof(*out));
	/* SPROG is the fraction done, numerator of x/65536 */
	out->progress_pct = le16(buf) == 0xffffu ? 100u : (unsigned)(le16(buf) * 100u / 65536u);
	out->state = le16(buf + 2) & 0x7u;
	out->cdw10 = le32(buf + 4);
	out->block_erase_s = le32(buf + 12);
	out->crypto_erase_s = le32(buf + 16);
}
