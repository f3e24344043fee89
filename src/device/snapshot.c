/* snapshot.c - drive snapshots: identity from sysfs plus, for NVMe, Identify
 * Controller / Namespace, the Health log and the OCP extended SMART log read
 * through the admin passthrough ioctl; their JSON (null for anything
 * unavailable) and text forms, and the before/after delta of two. */
#include "device/snapshot.h"
#include "device/model_target.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"
#include "util/clock.h"


static void add_note(struct drive_snapshot *s, const char *text)
{
	if (s->nr_notes < SNAPSHOT_MAX_NOTES)
		snprintf(s->notes[s->nr_notes++], sizeof(s->notes[0]), "%s", text);
}

static void take_nvme(const char *path, struct drive_snapshot *s)
{
	uint8_t *buf = malloc(NVME_IDENTIFY_SIZE);
	int fd;

	if (!buf) {
		add_note(s, "nvme: out of memory");
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		char note[160];

		snprintf(note, sizeof(note), "nvme: cannot open %.100s: %s", path,
			 strerror(errno));
		add_note(s, note);
		free(buf);
		return;
	}
	if (nvme_namespace_id(fd, &s->nsid) < 0) {
		s->nsid = 0;
		add_note(s, err_msg());
	}
	if (nvme_identify(fd, 0, 1, buf) == 0 && nvme_parse_ctrl(buf, &s->ctrl) == 0)
		s->have_ctrl = true;
	else
		add_note(s, err_msg());
	if (s->nsid && nvme_identify(fd, s->nsid, 0, buf) == 0 &&
	    nvme_parse_ns(buf, &s->ns) == 0)
		s->have_ns = true;
	else if (s->nsid)
		add_note(s, err_msg());
	if (nvme_get_log(fd, NVME_NSID_ALL, NVME_LOG_HEALTH, buf, NVME_LOG_PAGE_SIZE) == 0 &&
	    nvme_parse_health(buf, &s->health) == 0)
		s->have_health = true;
	else
		add_note(s, err_msg());
	/* Most drives do not implement C0h; a failed read or a wrong GUID
	 * both mean "not available". */
	if (nvme_get_log(fd, NVME_NSID_ALL, NVME_LOG_OCP_SMART, buf, NVME_LOG_PAGE_SIZE) == 0 &&
	    nvme_parse_ocp_smart(buf, &s->ocp) == 0)
		s->have_ocp = true;
	else
		add_note(s, err_msg());
	err_clear();
	close(fd);
	free(buf);
}

int drive_snapshot_take(const char *path, struct drive_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->taken_unix_ms = wallclock_ms();
	if (model_target_is(path))
		return model_target_snapshot(path, s);
	if (identity_probe(path, &s->id) < 0)
		return -1;
	if (s->id.kind == DRIVE_NVME)
		take_nvme(path, s);
	return 0;
}

/* ---- JSON ---- */

static void json_u64(cJSON *obj, const char *key, struct maybe_u64 v)
{
	if (v.known)
		cJSON_AddNumberToObject(obj, key, (double)v.value);
	else
		cJSON_AddNullToObject(obj, key);
}

static void json_str(cJSON *obj, const char *key, const char *v)
{
	if (v && v[0])
		cJSON_AddStringToObject(obj, key, v);
	else
		cJSON_AddNullToObject(obj, key);
}

static void json_u128(cJSON *obj, const char *key, struct u128 v)
{
	char text[U128_DECIMAL_MAX];

	cJSON_AddStringToObject(obj, key, u128_to_decimal(v, text));
}

/* Data units as exact bytes; null in the impossible case of overflow. */
static void json_data_unit_bytes(cJSON *obj, const char *key, struct u128 units)
{
	bool overflow;
	struct u128 bytes = u128_mul(units, NVME_DATA_UNIT_BYTES, &overflow);

	if (overflow)
		cJSON_AddNullToObject(obj, key);
	else
		json_u128(obj, key, bytes);
}

static struct maybe_u64 known(uint64_t v)
{
	struct maybe_u64 m = { true, v };

	return m;
}

static cJSON *ctrl_json(const struct nvme_ctrl_info *c)
{
	cJSON *o = cJSON_CreateObject();
	char text[32];

	if (!o)
		return NULL;
	snprintf(text, sizeof(text), "0x%04x", c->vendor_id);
	cJSON_AddStringToObject(o, "vendor_id", text);
	snprintf(text, sizeof(text), "0x%04x", c->subsystem_vendor_id);
	cJSON_AddStringToObject(o, "subsystem_vendor_id", text);
	json_str(o, "serial", c->serial);
	json_str(o, "model", c->model);
	json_str(o, "firmware", c->firmware);
	json_str(o, "nvme_version", c->version ?
		 nvme_version_string(c->version, text, sizeof(text)) : NULL);
	cJSON_AddNumberToObject(o, "controller_id", c->controller_id);
	if (c->total_capacity.lo || c->total_capacity.hi)
		json_u128(o, "total_capacity_bytes", c->total_capacity);
	else
		cJSON_AddNullToObject(o, "total_capacity_bytes");
	cJSON_AddNumberToObject(o, "namespaces", c->namespaces);
	return o;
}

static cJSON *ns_json(const struct nvme_ns_info *n)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	json_u64(o, "size_blocks", known(n->size_blocks));
	json_u64(o, "capacity_blocks", known(n->capacity_blocks));
	json_u64(o, "used_blocks", known(n->used_blocks));
	cJSON_AddNumberToObject(o, "lba_formats", n->nr_lba_formats);
	cJSON_AddNumberToObject(o, "lba_format", n->lba_format);
	cJSON_AddNumberToObject(o, "lba_data_size", n->lba_data_size);
	cJSON_AddNumberToObject(o, "metadata_size", n->metadata_size);
	return o;
}

static cJSON *health_json(const struct nvme_health *h)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "critical_warning", h->critical_warning);
	if (h->temperature_kelvin) {
		cJSON_AddNumberToObject(o, "temperature_kelvin", h->temperature_kelvin);
		cJSON_AddNumberToObject(o, "temperature_celsius",
					(int)h->temperature_kelvin - 273);
	} else {
		/* 0 K means the controller does not report it. */
		cJSON_AddNullToObject(o, "temperature_kelvin");
		cJSON_AddNullToObject(o, "temperature_celsius");
	}
	cJSON_AddNumberToObject(o, "available_spare_percent", h->available_spare);
	cJSON_AddNumberToObject(o, "available_spare_threshold_percent",
				h->available_spare_threshold);
	cJSON_AddNumberToObject(o, "percentage_used", h->percentage_used);
	json_u128(o, "data_units_read", h->data_units_read);
	json_u128(o, "data_units_written", h->data_units_written);
	json_data_unit_bytes(o, "host_bytes_read", h->data_units_read);
	json_data_unit_bytes(o, "host_bytes_written", h->data_units_written);
	json_u128(o, "host_read_commands", h->host_read_commands);
	json_u128(o, "host_write_commands", h->host_write_commands);
	json_u128(o, "controller_busy_minutes", h->controller_busy_minutes);
	json_u128(o, "power_cycles", h->power_cycles);
	json_u128(o, "power_on_hours", h->power_on_hours);
	json_u128(o, "unsafe_shutdowns", h->unsafe_shutdowns);
	json_u128(o, "media_errors", h->media_errors);
	json_u128(o, "error_log_entries", h->error_log_entries);
	return o;
}

static cJSON *ocp_json(const struct nvme_ocp_smart *p)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	json_u128(o, "media_bytes_written", p->media_bytes_written);
	json_u128(o, "media_bytes_read", p->media_bytes_read);
	json_u64(o, "bad_user_nand_blocks", known(p->bad_user_nand_blocks));
	cJSON_AddNumberToObject(o, "bad_user_nand_blocks_normalized",
				p->bad_user_nand_blocks_normalized);
	json_u64(o, "bad_system_nand_blocks", known(p->bad_system_nand_blocks));
	cJSON_AddNumberToObject(o, "bad_system_nand_blocks_normalized",
				p->bad_system_nand_blocks_normalized);
	json_u64(o, "xor_recoveries", known(p->xor_recoveries));
	json_u64(o, "uncorrectable_read_errors", known(p->uncorrectable_read_errors));
	json_u64(o, "soft_ecc_errors", known(p->soft_ecc_errors));
	cJSON_AddNumberToObject(o, "system_data_percent_used", p->system_data_percent_used);
	cJSON_AddNumberToObject(o, "thermal_throttling_events", p->thermal_throttling_events);
	cJSON_AddNumberToObject(o, "thermal_throttling_status", p->thermal_throttling_status);
	cJSON_AddNumberToObject(o, "log_page_version", p->log_page_version);
	return o;
}

/* Adds child (or null when it is missing); false when out of memory. */
static bool add_part(cJSON *obj, const char *key, bool have, cJSON *child)
{
	if (!have) {
		cJSON_AddNullToObject(obj, key);
		return true;
	}
	if (!child)
		return false;
	cJSON_AddItemToObject(obj, key, child);
	return true;
}

static cJSON *nvme_json(const struct drive_snapshot *s)
{
	const struct drive_identity *id = &s->id;
	cJSON *o = cJSON_CreateObject();
	struct maybe_u64 nsid = id->nvme_nsid;

	if (!o)
		return NULL;
	if (s->nsid)
		nsid = known(s->nsid);
	json_str(o, "controller", id->nvme_controller);
	json_u64(o, "namespace_id", nsid);
	json_str(o, "pcie_link_speed", id->pcie_link_speed);
	json_u64(o, "pcie_link_width", id->pcie_link_width);
	if (!add_part(o, "identify_controller", s->have_ctrl,
		      s->have_ctrl ? ctrl_json(&s->ctrl) : NULL) ||
	    !add_part(o, "identify_namespace", s->have_ns,
		      s->have_ns ? ns_json(&s->ns) : NULL) ||
	    !add_part(o, "health", s->have_health,
		      s->have_health ? health_json(&s->health) : NULL) ||
	    !add_part(o, "ocp_smart", s->have_ocp,
		      s->have_ocp ? ocp_json(&s->ocp) : NULL)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *drive_snapshot_json(const struct drive_snapshot *s)
{
	const struct drive_identity *id = &s->id;
	cJSON *o = cJSON_CreateObject(), *notes;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "timestamp_ms", (double)s->taken_unix_ms);
	cJSON_AddStringToObject(o, "path", id->path);
	cJSON_AddStringToObject(o, "kind", drive_kind_name(id->kind));
	json_str(o, "kernel_name", id->kernel_name);
	json_str(o, "disk", id->disk_name);
	cJSON_AddBoolToObject(o, "partition", id->is_partition);
	json_str(o, "filesystem_device", id->fs_device);
	json_str(o, "loop_backing_file", id->loop_backing_file);
	json_u64(o, "size_bytes", id->size_bytes);
	json_u64(o, "logical_block_size", id->logical_block);
	json_u64(o, "physical_block_size", id->physical_block);
	if (id->rotational.known)
		cJSON_AddBoolToObject(o, "rotational", id->rotational.value != 0);
	else
		cJSON_AddNullToObject(o, "rotational");
	json_str(o, "scheduler", id->scheduler);
	json_u64(o, "nr_requests", id->nr_requests);
	json_str(o, "write_cache", id->write_cache);
	json_str(o, "zoned", id->zoned);
	if (id->zoned[0] && strcmp(id->zoned, "none")) {
		cJSON *zo = cJSON_AddObjectToObject(o, "zones");

		if (zo) {
			json_u64(zo, "count", id->nr_zones);
			json_u64(zo, "size_bytes", id->zone_size);
			json_u64(zo, "capacity_bytes", id->zone_capacity);
			json_u64(zo, "max_open", id->max_open_zones);
			json_u64(zo, "max_active", id->max_active_zones);
		}
	}
	json_str(o, "model", id->model);
	json_str(o, "serial", id->serial);
	json_str(o, "firmware", id->firmware);
	json_str(o, "vendor", id->vendor);
	json_str(o, "model_file", id->model_file);
	json_str(o, "model_scale", id->model_scale);
	json_u64(o, "model_rated_capacity", id->model_rated_capacity);
	if (id->kind == DRIVE_NVME || id->kind == DRIVE_MODEL) {
		cJSON *nvme = nvme_json(s);

		if (!nvme) {
			cJSON_Delete(o);
			return NULL;
		}
		cJSON_AddItemToObject(o, "nvme", nvme);
	} else {
		cJSON_AddNullToObject(o, "nvme");
	}
	notes = cJSON_AddArrayToObject(o, "notes");
	for (unsigned i = 0; notes && i < s->nr_notes; i++)
		cJSON_AddItemToArray(notes, cJSON_CreateString(s->notes[i]));
	return o;
}

/* ---- delta ---- */

static void delta_u128(cJSON *o, const char *key, bool have, struct u128 before,
		       struct u128 after, uint32_t factor, struct u128 *result)
{
	bool negative = false, overflow = false;
	struct u128 d;

	if (!have) {
		cJSON_AddNullToObject(o, key);
		return;
	}
	d = u128_mul(u128_sub(after, before, &negative), factor, &overflow);
	if (negative || overflow) {
		/* A counter going backwards means a different drive or a reset. */
		cJSON_AddNullToObject(o, key);
		return;
	}
	json_u128(o, key, d);
	if (result)
		*result = d;
}

static double u128_to_double(struct u128 v)
{
	return (double)v.hi * 18446744073709551616.0 + (double)v.lo;
}

cJSON *drive_snapshot_delta_json(const struct drive_snapshot *before,
				 const struct drive_snapshot *after)
{
	cJSON *o = cJSON_CreateObject();
	bool health = before->have_health && after->have_health;
	bool ocp = before->have_ocp && after->have_ocp;
	struct u128 host = { 0, 0 }, media = { 0, 0 };

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "elapsed_ms",
				(double)(after->taken_unix_ms - before->taken_unix_ms));
	delta_u128(o, "host_bytes_read", health, before->health.data_units_read,
		   after->health.data_units_read, NVME_DATA_UNIT_BYTES, NULL);
	delta_u128(o, "host_bytes_written", health, before->health.data_units_written,
		   after->health.data_units_written, NVME_DATA_UNIT_BYTES, &host);
	delta_u128(o, "host_read_commands", health, before->health.host_read_commands,
		   after->health.host_read_commands, 1, NULL);
	delta_u128(o, "host_write_commands", health, before->health.host_write_commands,
		   after->health.host_write_commands, 1, NULL);
	delta_u128(o, "media_bytes_read", ocp, before->ocp.media_bytes_read,
		   after->ocp.media_bytes_read, 1, NULL);
	delta_u128(o, "media_bytes_written", ocp, before->ocp.media_bytes_written,
		   after->ocp.media_bytes_written, 1, &media);
	if (health && ocp && (host.lo || host.hi) &&
	    cJSON_IsString(cJSON_GetObjectItem(o, "media_bytes_written")))
		cJSON_AddNumberToObject(o, "write_amplification",
					u128_to_double(media) / u128_to_double(host));
	else
		cJSON_AddNullToObject(o, "write_amplification");
	delta_u128(o, "media_errors", health, before->health.media_errors,
		   after->health.media_errors, 1, NULL);
	return o;
}

/* ---- text ---- */

static const char not_available[] = "not available";

static void line(FILE *out, const char *key, const char *value)
{
	fprintf(out, "%-28s %s\n", key, value && value[0] ? value : not_available);
}

static void line_u64(FILE *out, const char *key, struct maybe_u64 v, const char *unit)
{
	char text[64];

	if (!v.known) {
		line(out, key, NULL);
		return;
	}
	snprintf(text, sizeof(text), "%" PRIu64 "%s", v.value, unit);
	line(out, key, text);
}

static void line_u128(FILE *out, const char *key, struct u128 v)
{
	char text[U128_DECIMAL_MAX];

	line(out, key, u128_to_decimal(v, text));
}

static void line_data_units(FILE *out, const char *key, struct u128 units)
{
	char count[U128_DECIMAL_MAX], bytes[U128_DECIMAL_MAX], text[128];
	bool overflow;
	struct u128 b = u128_mul(units, NVME_DATA_UNIT_BYTES, &overflow);

	u128_to_decimal(units, count);
	if (overflow)
		snprintf(text, sizeof(text), "%s units", count);
	else
		snprintf(text, sizeof(text), "%s units (%s bytes)", count,
			 u128_to_decimal(b, bytes));
	line(out, key, text);
}

static void print_nvme(FILE *out, const struct drive_snapshot *s)
{
	const struct drive_identity *id = &s->id;
	struct maybe_u64 nsid = id->nvme_nsid;
	char text[128];

	if (s->nsid)
		nsid = known(s->nsid);
	line(out, "nvme controller:", id->nvme_controller);
	line_u64(out, "namespace id:", nsid, "");
	line(out, "pcie link speed:", id->pcie_link_speed);
	line_u64(out, "pcie link width:", id->pcie_link_width, "");
	if (s->have_ctrl) {
		const struct nvme_ctrl_info *c = &s->ctrl;

		snprintf(text, sizeof(text), "0x%04x", c->vendor_id);
		line(out, "pci vendor id:", text);
		line(out, "nvme version:", c->version ?
		     nvme_version_string(c->version, text, sizeof(text)) : NULL);
		line_u64(out, "namespaces:", known(c->namespaces), "");
	} else {
		line(out, "identify controller:", NULL);
	}
	if (s->have_ns) {
		line_u64(out, "namespace size:", known(s->ns.size_blocks), " blocks");
		line_u64(out, "namespace capacity:", known(s->ns.capacity_blocks), " blocks");
		line_u64(out, "namespace used:", known(s->ns.used_blocks), " blocks");
		snprintf(text, sizeof(text), "%u: %u-byte data, %u-byte metadata",
			 s->ns.lba_format, s->ns.lba_data_size, s->ns.metadata_size);
		line(out, "lba format:", text);
	} else {
		line(out, "identify namespace:", NULL);
	}
	if (s->have_health) {
		const struct nvme_health *h = &s->health;

		if (h->temperature_kelvin) {
			snprintf(text, sizeof(text), "%d C (%u K)",
				 (int)h->temperature_kelvin - 273, h->temperature_kelvin);
			line(out, "temperature:", text);
		} else {
			line(out, "temperature:", NULL);
		}
		snprintf(text, sizeof(text), "0x%02x", h->critical_warning);
		line(out, "critical warning:", text);
		snprintf(text, sizeof(text), "%u%% (threshold %u%%)", h->available_spare,
			 h->available_spare_threshold);
		line(out, "available spare:", text);
		snprintf(text, sizeof(text), "%u%%", h->percentage_used);
		line(out, "percentage used:", text);
		line_data_units(out, "data units read:", h->data_units_read);
		line_data_units(out, "data units written:", h->data_units_written);
		line_u128(out, "host read commands:", h->host_read_commands);
		line_u128(out, "host write commands:", h->host_write_commands);
		line_u128(out, "power cycles:", h->power_cycles);
		line_u128(out, "power on hours:", h->power_on_hours);
		line_u128(out, "unsafe shutdowns:", h->unsafe_shutdowns);
		line_u128(out, "media errors:", h->media_errors);
		line_u128(out, "error log entries:", h->error_log_entries);
	} else {
		line(out, "health log:", NULL);
	}
	if (s->have_ocp) {
		line_u128(out, "nand bytes written:", s->ocp.media_bytes_written);
		line_u128(out, "nand bytes read:", s->ocp.media_bytes_read);
		line_u64(out, "bad user nand blocks:", known(s->ocp.bad_user_nand_blocks), "");
	} else {
		line(out, "ocp extended smart log:", NULL);
	}
}

void drive_snapshot_print(FILE *out, const struct drive_snapshot *s)
{
	const struct drive_identity *id = &s->id;
	struct maybe_u64 rot = id->rotational;

	line(out, "path:", id->path);
	line(out, "kind:", drive_kind_name(id->kind));
	if (id->kind == DRIVE_FILE) {
		line(out, "filesystem device:", id->fs_device);
	} else {
		line(out, "kernel name:", id->kernel_name);
		if (id->is_partition)
			line(out, "partition of:", id->disk_name);
	}
	if (id->kind == DRIVE_LOOP)
		line(out, "backing file:", id->loop_backing_file);
	line_u64(out, "size:", id->size_bytes, " bytes");
	line_u64(out, "logical block size:", id->logical_block, "");
	line_u64(out, "physical block size:", id->physical_block, "");
	line(out, "rotational:", rot.known ? (rot.value ? "yes" : "no") : NULL);
	line(out, "scheduler:", id->scheduler);
	line_u64(out, "nr_requests:", id->nr_requests, "");
	line(out, "write cache:", id->write_cache);
	if (id->zoned[0] && strcmp(id->zoned, "none")) {
		line(out, "zoned:", id->zoned);
		line_u64(out, "zones:", id->nr_zones, "");
		line_u64(out, "zone size:", id->zone_size, " bytes");
		line_u64(out, "zone capacity:", id->zone_capacity, " bytes");
		line_u64(out, "max open zones:", id->max_open_zones, " (0: no limit)");
		line_u64(out, "max active zones:", id->max_active_zones, " (0: no limit)");
	}
	line(out, "model:", id->model);
	line(out, "serial:", id->serial);
	line(out, "firmware:", id->firmware);
	line(out, "vendor:", id->vendor);
	if (id->kind == DRIVE_MODEL) {
		line(out, "model file:", id->model_file);
		line(out, "model scale:", id->model_scale);
		line_u64(out, "rated capacity:", id->model_rated_capacity, " bytes");
	}
	if (id->kind == DRIVE_NVME || id->kind == DRIVE_MODEL)
		print_nvme(out, s);
	for (unsigned i = 0; i < s->nr_notes; i++)
		fprintf(out, "note: %s\n", s->notes[i]);
}
