/* nvme.h - NVMe admin commands through the kernel's passthrough ioctl and
 * pure parsers of what they return: Identify Controller (CNS 1), Identify
 * Namespace (CNS 0), the SMART / Health log (page 02h) and the OCP extended
 * SMART log (page C0h). Parsers take byte buffers laid out as the NVMe base
 * specification and the OCP Datacenter NVMe SSD specification define them. */
#ifndef DRIVEBENCH_NVME_H
#define DRIVEBENCH_NVME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NVME_IDENTIFY_SIZE 4096
#define NVME_LOG_PAGE_SIZE 512
#define NVME_LOG_HEALTH 0x02
#define NVME_LOG_OCP_SMART 0xC0
#define NVME_NSID_ALL 0xffffffffu
/* A Health log data unit: 1000 x 512 bytes (counts are rounded up). */
#define NVME_DATA_UNIT_BYTES 512000u

/* NVMe counters of 16 bytes, printed exactly by u128_to_decimal. */
#define U128_DECIMAL_MAX 40

/* A 128-bit little-endian counter from a log page. */
struct u128 {
	uint64_t lo;
	uint64_t hi;
};

/* Identify Controller, the fields drivebench reports. Strings are the
 * ASCII fields with trailing spaces removed. */
struct nvme_ctrl_info {
	uint16_t vendor_id;           /* VID, bytes 0-1 (PCI vendor ID) */
	uint16_t subsystem_vendor_id; /* SSVID, bytes 2-3 */
	char serial[21];              /* SN, bytes 4-23 */
	char model[41];               /* MN, bytes 24-63 */
	char firmware[9];             /* FR, bytes 64-71 */
	uint16_t controller_id;       /* CNTLID, bytes 78-79 */
	uint32_t version;             /* VER, bytes 80-83: major<<16|minor<<8|tertiary */
	struct u128 total_capacity;   /* TNVMCAP, bytes 280-295, in bytes (0: not reported) */
	uint32_t namespaces;          /* NN, bytes 516-519 */
	uint16_t oacs;                /* OACS, bytes 256-257: bit 1 Format NVM */
	uint32_t sanicap;             /* SANICAP, bytes 328-331: bit 0 crypto erase,
				       * bit 1 block erase, bit 2 overwrite */
	uint16_t oncs;                /* ONCS, bytes 520-521: bit 2 Dataset Management */
	uint8_t fna;                  /* FNA, byte 524: bit 0 a format, bit 1 a secure
				       * erase, acts on every namespace */
};

/* Identify Namespace, the fields drivebench reports. */
struct nvme_ns_info {
	uint64_t size_blocks;         /* NSZE, bytes 0-7 */
	uint64_t capacity_blocks;     /* NCAP, bytes 8-15 */
	uint64_t used_blocks;         /* NUSE, bytes 16-23 */
	unsigned nr_lba_formats;      /* NLBAF (byte 25) + 1 */
	unsigned lba_format;          /* index from FLBAS (byte 26) */
	uint32_t lba_data_size;       /* 2^LBADS of the format in use, bytes */
	uint16_t metadata_size;       /* MS of the format in use, bytes */
};

/* SMART / Health Information log page (02h), 512 bytes. */
struct nvme_health {
	uint8_t critical_warning;        /* byte 0 */
	uint16_t temperature_kelvin;     /* bytes 1-2, composite */
	uint8_t available_spare;         /* byte 3, percent */
	uint8_t available_spare_threshold; /* byte 4, percent */
	uint8_t percentage_used;         /* byte 5, may exceed 100 */
	struct u128 data_units_read;     /* bytes 32-47, units of 1000 x 512 bytes */
	struct u128 data_units_written;  /* bytes 48-63 */
	struct u128 host_read_commands;  /* bytes 64-79 */
	struct u128 host_write_commands; /* bytes 80-95 */
	struct u128 controller_busy_minutes; /* bytes 96-111 */
	struct u128 power_cycles;        /* bytes 112-127 */
	struct u128 power_on_hours;      /* bytes 128-143 */
	struct u128 unsafe_shutdowns;    /* bytes 144-159 */
	struct u128 media_errors;        /* bytes 160-175 */
	struct u128 error_log_entries;   /* bytes 176-191 */
};

/* OCP extended SMART log (C0h, "SMART / Health Information Extended"),
 * 512 bytes, valid only when bytes 496-511 hold the OCP GUID. */
struct nvme_ocp_smart {
	struct u128 media_bytes_written;  /* bytes 0-15, written to NAND */
	struct u128 media_bytes_read;     /* bytes 16-31 */
	uint64_t bad_user_nand_blocks;    /* bytes 32-37 raw count */
	uint16_t bad_user_nand_blocks_normalized; /* bytes 38-39 */
	uint64_t bad_system_nand_blocks;  /* bytes 40-45 raw count */
	uint16_t bad_system_nand_blocks_normalized; /* bytes 46-47 */
	uint64_t xor_recoveries;          /* bytes 48-55 */
	uint64_t uncorrectable_read_errors; /* bytes 56-63 */
	uint64_t soft_ecc_errors;         /* bytes 64-71 */
	uint8_t system_data_percent_used; /* byte 80 */
	uint8_t thermal_throttling_events; /* byte 96 */
	uint8_t thermal_throttling_status; /* byte 97 */
	uint16_t log_page_version;        /* bytes 494-495 */
};

/* The OCP C0h log page GUID as it lies in bytes 496-511
 * (AFD514C97C6F4F9CA4F2BFEA2810AFC5, little-endian). */
extern const uint8_t nvme_ocp_smart_guid[16];

/* Parsers. Return 0, or -1 with err_msg when the buffer is not a valid
 * structure of that kind. */
int nvme_parse_ctrl(const uint8_t buf[NVME_IDENTIFY_SIZE], struct nvme_ctrl_info *out);
/* Fails when FLBAS names a format beyond NLBAF or LBADS is not 9..31. */
int nvme_parse_ns(const uint8_t buf[NVME_IDENTIFY_SIZE], struct nvme_ns_info *out);
int nvme_parse_health(const uint8_t buf[NVME_LOG_PAGE_SIZE], struct nvme_health *out);
/* Fails ("not available") when the GUID at 496-511 is not the OCP one. */
int nvme_parse_ocp_smart(const uint8_t buf[NVME_LOG_PAGE_SIZE], struct nvme_ocp_smart *out);

/* Reads a 16-byte little-endian counter. */
struct u128 u128_from_le(const uint8_t *bytes);
/* Exact decimal; out needs U128_DECIMAL_MAX bytes. Returns out. */
char *u128_to_decimal(struct u128 value, char *out);
/* value * factor, saturating at 2^128 - 1 (then *overflow = true). */
struct u128 u128_mul(struct u128 value, uint32_t factor, bool *overflow);
/* a - b, or 0 with *negative = true when b > a. */
struct u128 u128_sub(struct u128 a, struct u128 b, bool *negative);
/* "1.4.0" style from VER; out needs 16 bytes. */
char *nvme_version_string(uint32_t version, char *out, size_t len);

/* Device side: fd is an NVMe namespace block device or /dev/nvmeX char
 * device. Return 0 or -1 with err_msg naming the command and the errno or
 * the NVMe status. */
int nvme_identify(int fd, uint32_t nsid, uint8_t cns, uint8_t buf[NVME_IDENTIFY_SIZE]);
int nvme_get_log(int fd, uint32_t nsid, uint8_t log_id, uint8_t *buf, uint32_t len);
/* The namespace ID of a namespace block device (NVME_IOCTL_ID). */
int nvme_namespace_id(int fd, uint32_t *nsid);

/* Whether an NVMe completion status (as NVME_IOCTL_ADMIN_CMD returns it)
 * says the controller does not offer what was asked: a log page it lacks. */
bool nvme_status_not_offered(unsigned status);

/* Format NVM (admin 80h) of namespace nsid to LBA format lbaf with Secure
 * Erase Setting ses (1: user data erase). 0, or -1 with err_msg. */
int nvme_format_nvm(int fd, uint32_t nsid, unsigned lbaf, unsigned ses);

/* Identify CNS 02h: the active namespace IDs, ascending (at most 1024, a
 * zero ends the list); *nr gets their count. 0, or -1 with err_msg. */
int nvme_active_namespaces(int fd, uint32_t nsids[1024], unsigned *nr);

/* Sanitize (admin 84h): its actions (SANACT, CDW10 bits 2:0). A sanitize
 * acts on the whole NVM subsystem - every namespace - not on one. */
#define NVME_ADMIN_SANITIZE 0x84
#define NVME_SANACT_BLOCK_ERASE 2
#define NVME_SANACT_OVERWRITE 3
#define NVME_SANACT_CRYPTO_ERASE 4
/* SANICAP bits */
#define NVME_SANICAP_CRYPTO 0x1u
#define NVME_SANICAP_BLOCK 0x2u
#define NVME_LOG_SANITIZE 0x81
#define NVME_SANITIZE_LOG_SIZE 20

/* The dwords of a Sanitize command: NSID 0, no data, CDW10 = sanact with
 * AUSE 0 (a failed sanitize is retried only by another sanitize) and
 * NODAS 0 (the media is deallocated afterwards), CDW11 (overwrite pattern)
 * 0. */
struct nvme_command_dwords {
	uint8_t opcode;
	uint32_t nsid;
	uint32_t cdw10;
	uint32_t cdw11;
};
void nvme_sanitize_command(unsigned sanact, struct nvme_command_dwords *out);
/* Starts a sanitize; it runs on in the controller (nvme_sanitize_status). */
int nvme_sanitize(int fd, unsigned sanact);

/* The Sanitize Status log (81h). */
enum nvme_sanitize_state {
	NVME_SANITIZE_NEVER = 0,       /* never sanitized */
	NVME_SANITIZE_DONE = 1,        /* the last one completed */
	NVME_SANITIZE_RUNNING = 2,
	NVME_SANITIZE_FAILED = 3,
	NVME_SANITIZE_DONE_NO_DEALLOC = 4,
};
struct nvme_sanitize_status {
	unsigned progress_pct;        /* SPROG (bytes 0-1) as a percentage */
	unsigned state;               /* SSTAT bits 2:0 (enum nvme_sanitize_state) */
	uint32_t cdw10;               /* SCDW10, bytes 4-7: of the last sanitize */
	uint32_t block_erase_s;       /* bytes 12-15: estimated seconds, 0xffffffff none */
	uint32_t crypto_erase_s;      /* bytes 16-19 */
};
void nvme_parse_sanitize_status(const uint8_t buf[NVME_SANITIZE_LOG_SIZE],
				struct nvme_sanitize_status *out);

#endif
