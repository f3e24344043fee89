/* model_target.c - "vssd:FILE[@SCALE]" as a target: parsing, probing (the
 * scaled capacity of the model), the key that names the drive whatever the
 * spelling, aiming a job at it, and its snapshot from the process's drive
 * (io/vssd.h) in the NVMe snapshot's terms. */
#include "device/model_target.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "io/engine.h"
#include "io/vssd.h"
#include "device/snapshot.h"
#include "util/clock.h"
#include "util/error.h"
#include "vssd/model.h"


bool model_target_is(const char *path)
{
	return path && !strncmp(path, MODEL_TARGET_PREFIX, strlen(MODEL_TARGET_PREFIX));
}

int model_target_parse(const char *path, char *model, size_t model_len,
		       char *scale, size_t scale_len)
{
	const char *file = path + strlen(MODEL_TARGET_PREFIX);
	const char *at = strrchr(file, '@');
	size_t file_len = at ? (size_t)(at - file) : strlen(file);
	const char *s = at ? at + 1 : "";

	if (!model_target_is(path))
		return err_set("target '%s' is not a model (vssd:FILE[@SCALE])", path);
	if (!file_len)
		return err_set("target '%s': no model file after 'vssd:' (vssd:FILE[@SCALE], "
			       "e.g. vssd:specs/solidigm-d5-p5336-122t.ini@1/1000)", path);
	if (at && !*s)
		return err_set("target '%s': no scale after '@' (1/1000, 0.001 or a capacity "
			       "such as 8g)", path);
	if (file_len >= model_len || strlen(s) >= scale_len)
		return err_set("target '%.64s...': too long", path);
	memcpy(model, file, file_len);
	model[file_len] = '\0';
	snprintf(scale, scale_len, "%s", s);
	return 0;
}

/* The model and its scale, loaded. */
static int load(const char *path, struct vssd_model *m, char *file, size_t file_len,
		char *scale, size_t scale_len)
{
	if (model_target_parse(path, file, file_len, scale, scale_len))
		return -1;
	if (vssd_model_load(file, scale[0] ? scale : VSSD_DEFAULT_SCALE, m))
		return err_prefix("target '%s'", path);
	return 0;
}

int model_target_probe(const char *path, struct target *t)
{
	char file[JOB_PATH_MAX], scale[64];
	struct vssd_model m;

	memset(t, 0, sizeof(*t));
	if (load(path, &m, file, sizeof(file), scale, sizeof(scale)))
		return -1;
	snprintf(t->path, sizeof(t->path), "%s", path);
	t->exists = true;
	t->is_model = true;
	t->size = m.capacity;
	t->logical_block = 512;
	t->physical_block = m.geometry.iu_bytes;
	return 0;
}

void model_target_key(const char *path, char *key, size_t len)
{
	char file[JOB_PATH_MAX], scale[64], *real;

	if (model_target_parse(path, file, sizeof(file), scale, sizeof(scale))) {
		err_clear();
		snprintf(key, len, "%s", path);
		return;
	}
	real = realpath(file, NULL);
	snprintf(key, len, "%s%s@%s", MODEL_TARGET_PREFIX, real ? real : file,
		 scale[0] ? scale : VSSD_DEFAULT_SCALE);
	free(real);
}

void model_target_identity(const char *path, char *key, size_t len)
{
	char file[JOB_PATH_MAX], scale[64], scale_key[64], *real;

	if (model_target_parse(path, file, sizeof(file), scale, sizeof(scale))) {
		err_clear();
		snprintf(key, len, "%s", path);
		return;
	}
	real = realpath(file, NULL);
	/* equal scales spelled differently (2g, 2G, 2048m) are one drive */
	vssd_scale_key(scale[0] ? scale : VSSD_DEFAULT_SCALE, scale_key, sizeof(scale_key));
	snprintf(key, len, "%s%s@%s", MODEL_TARGET_PREFIX, real ? real : file, scale_key);
	free(real);
}

int model_target_aim(struct job_spec *spec, const char *path)
{
	char file[sizeof(spec->eng.vssd.model)], scale[sizeof(spec->eng.vssd.scale)];

	if (model_target_parse(path, file, sizeof(file), scale, sizeof(scale)))
		return -1;
	size_t used = strlen(spec->options_text);
	int n;

	snprintf(spec->ioengine, sizeof(spec->ioengine), "vssd");
	spec->engine = &engine_vssd;
	memcpy(spec->eng.vssd.model, file, sizeof(file));
	memcpy(spec->eng.vssd.scale, scale, sizeof(scale));
	/* the stored options say what ran (a repeated key's last value wins) */
	n = snprintf(spec->options_text + used, sizeof(spec->options_text) - used,
		     "%sioengine=vssd\nvssd_model=%s\nvssd_scale=%s\n",
		     used && spec->options_text[used - 1] != '\n' ? "\n" : "", file,
		     scale[0] ? scale : VSSD_DEFAULT_SCALE);
	if (n < 0 || (size_t)n >= sizeof(spec->options_text) - used)
		return err_set("job '%s': its options and the model's do not fit in %zu bytes",
			       spec->name, sizeof(spec->options_text));
	return job_spec_set_path(spec->filename, sizeof(spec->filename), path);
}

/* Bytes as Health log data units, rounded up as the spec says. */
static struct u128 data_units(uint64_t bytes)
{
	return (struct u128){ .lo = (bytes + NVME_DATA_UNIT_BYTES - 1) / NVME_DATA_UNIT_BYTES };
}

int model_target_snapshot(const char *path, struct drive_snapshot *s)
{
	char file[JOB_PATH_MAX], scale[64];
	struct vssd_counters c;
	struct vssd_model m;
	struct drive_identity *id = &s->id;

	memset(s, 0, sizeof(*s));
	s->taken_unix_ms = wallclock_ms();
	if (load(path, &m, file, sizeof(file), scale, sizeof(scale)) ||
	    vssd_drive_counters(file, scale, &c))
		return -1;
	snprintf(id->path, sizeof(id->path), "%s", path);
	id->kind = DRIVE_MODEL;
	snprintf(id->model, sizeof(id->model), "%.80s (model, scale %.24s)",
		 m.name[0] ? m.name : file, scale[0] ? scale : VSSD_DEFAULT_SCALE);
	snprintf(id->vendor, sizeof(id->vendor), "drivebench vssd");
	snprintf(id->model_file, sizeof(id->model_file), "%.*s",
		 (int)sizeof(id->model_file) - 1, file);
	snprintf(id->model_scale, sizeof(id->model_scale), "%s",
		 scale[0] ? scale : VSSD_DEFAULT_SCALE);
	id->size_bytes = (struct maybe_u64){ true, m.capacity };
	id->logical_block = (struct maybe_u64){ true, 512 };
	id->physical_block = (struct maybe_u64){ true, m.geometry.iu_bytes };
	id->rotational = (struct maybe_u64){ true, 0 };
	id->model_rated_capacity = (struct maybe_u64){ m.rated_capacity > 0, m.rated_capacity };
	s->have_health = true;
	s->health.available_spare = 100;
	s->health.data_units_read = data_units(c.host_read_bytes);
	s->health.data_units_written = data_units(c.host_written_bytes);
	s->have_ocp = true;
	s->ocp.media_bytes_written = (struct u128){ .lo = c.nand_written_bytes };
	s->ocp.media_bytes_read = (struct u128){ .lo = c.nand_read_bytes };
	if (!c.opened)
		snprintf(s->notes[s->nr_notes++], sizeof(s->notes[0]),
			 "the modelled drive has not served this process yet: fresh");
	return 0;
}

bool model_target_of_job(const struct job_spec *spec, char *name, size_t len)
{
	const struct vssd_opts *m = &spec->eng.vssd;

	if (strcmp(spec->ioengine, "vssd") || !m->model[0])
		return false;
	snprintf(name, len, "%s%.*s@%s", MODEL_TARGET_PREFIX, (int)(len / 2), m->model,
		 m->scale[0] ? m->scale : VSSD_DEFAULT_SCALE);
	return true;
}

int model_target_check_job(const struct job_spec *spec, const char *path)
{
	char want[JOB_PATH_MAX + 80], have[JOB_PATH_MAX + 80], named[JOB_PATH_MAX + 80];

	if (!model_target_is(path))
		return 0;
	if (strcmp(spec->ioengine, "vssd"))
		return err_set("target '%s' is a modelled drive: it takes ioengine=vssd, not "
			       "ioengine=%s", path, spec->ioengine);
	model_target_identity(path, want, sizeof(want));
	if (!model_target_of_job(spec, named, sizeof(named)))
		named[0] = '\0';   /* no vssd_model: no drive of its own (vssd_check refuses it) */
	model_target_identity(named, have, sizeof(have));
	if (strcmp(want, have))
		return err_set("target '%s' and vssd_model=%s vssd_scale=%s name different "
			       "drives", path, spec->eng.vssd.model,
			       spec->eng.vssd.scale[0] ? spec->eng.vssd.scale : VSSD_DEFAULT_SCALE);
	return 0;
}

int model_target_open_state(const char *path, const char *state)
{
	char file[JOB_PATH_MAX], scale[64];

	if (!state || !state[0])
		return 0;
	if (model_target_parse(path, file, sizeof(file), scale, sizeof(scale)))
		return -1;
	return vssd_drive_open_state(file, scale, state, NULL);
}

int model_target_format(const char *path)
{
	char file[JOB_PATH_MAX], scale[64];

	if (model_target_parse(path, file, sizeof(file), scale, sizeof(scale)))
		return -1;
	return vssd_drive_format(file, scale);
}
