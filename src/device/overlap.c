/* overlap.c - tells whether two targets are one drive (overlap.h): files
 * by device and inode (a missing one by its real directory and name),
 * block devices by device number and the disk they are on (sysfs), a loop
 * device and its backing file, modelled drives by their key. */
#include "device/overlap.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "device/loop_backing.h"
#include "device/model_target.h"
#include "util/error.h"

enum key_kind { KEY_MODEL, KEY_MISSING, KEY_FILE, KEY_BLOCK };

/* What a target is, for comparing. */
struct drive_key {
	enum key_kind kind;
	char name[PATH_MAX + 64];   /* model key, a missing file's real path, a
				     * block device's kernel name */
	char disk[NAME_MAX + 1];    /* block: the whole disk's kernel name;
				     * file: the loop device it backs, or "" */
	dev_t dev;                  /* file: st_dev; block: st_rdev */
	ino_t ino;
};

int target_block_disk(const char *sysfs_root, unsigned major_nr, unsigned minor_nr,
		      char *name, size_t name_len, char *disk, size_t disk_len)
{
	char link[PATH_MAX], resolved[PATH_MAX], attribute[PATH_MAX + 16];
	char *slash;
	struct stat st;

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysfs_root, major_nr, minor_nr);
	if (!realpath(link, resolved) || !(slash = strrchr(resolved, '/')))
		return err_set("cannot find %s: %s", link, strerror(errno));
	snprintf(name, name_len, "%s", slash + 1);
	snprintf(disk, disk_len, "%s", slash + 1);
	snprintf(attribute, sizeof(attribute), "%s/partition", resolved);
	if (stat(attribute, &st) == 0) {   /* a partition: its parent is the disk */
		*slash = '\0';
		slash = strrchr(resolved, '/');
		snprintf(disk, disk_len, "%s", slash ? slash + 1 : resolved);
	}
	return 0;
}

static int block_names(const char *path, dev_t rdev, struct drive_key *k)
{
	if (target_block_disk("/sys", major(rdev), minor(rdev), k->name, sizeof(k->name),
			      k->disk, sizeof(k->disk)))
		return err_prefix("'%s'", path);
	return 0;
}

/* A path that does not exist yet: its directory's real path and its name,
 * so "./x" and "x" are one file to be created. */
static void missing_key(const char *path, struct drive_key *k)
{
	char *dir_copy = strdup(path), *base_copy = strdup(path), *real = NULL;

	k->kind = KEY_MISSING;
	if (dir_copy && base_copy)
		real = realpath(dirname(dir_copy), NULL);
	if (real)
		snprintf(k->name, sizeof(k->name), "%s/%s", real, basename(base_copy));
	else
		snprintf(k->name, sizeof(k->name), "%s", path);
	free(real);
	free(dir_copy);
	free(base_copy);
}

static int key_of(const char *path, struct drive_key *k)
{
	struct stat st;

	memset(k, 0, sizeof(*k));
	if (model_target_is(path)) {
		k->kind = KEY_MODEL;
		model_target_identity(path, k->name, sizeof(k->name));
		return 0;
	}
	if (stat(path, &st)) {
		if (errno != ENOENT)
			return err_set("cannot examine '%s': %s", path, strerror(errno));
		missing_key(path, k);
		return 0;
	}
	if (S_ISBLK(st.st_mode)) {
		k->kind = KEY_BLOCK;
		k->dev = st.st_rdev;
		return block_names(path, st.st_rdev, k);
	}
	k->kind = KEY_FILE;
	k->dev = st.st_dev;
	k->ino = st.st_ino;
	if (S_ISREG(st.st_mode) && loop_device_backed_by(&st, k->disk, sizeof(k->disk)) != 1)
		k->disk[0] = '\0';
	return 0;
}

/* A file and a block device: one drive when the file backs the device's
 * loop (or the loop disk the device is a partition of). */
static bool file_backs(const struct drive_key *file, const struct drive_key *block)
{
	return file->disk[0] && !strcmp(file->disk, block->disk);
}

int target_overlap(const char *a, const char *b, char *why, size_t len)
{
	struct drive_key ka, kb;

	if (key_of(a, &ka) || key_of(b, &kb))
		return -1;
	if (ka.kind == KEY_FILE && kb.kind == KEY_BLOCK) {
		if (!file_backs(&ka, &kb))
			return 0;
		snprintf(why, len, "'%s' is the file behind loop device %s, which '%s' is on", a,
			 ka.disk, b);
		return 1;
	}
	if (ka.kind == KEY_BLOCK && kb.kind == KEY_FILE)
		return target_overlap(b, a, why, len);
	if (ka.kind != kb.kind)
		return 0;
	switch (ka.kind) {
	case KEY_MODEL:
	case KEY_MISSING:
		if (strcmp(ka.name, kb.name))
			return 0;
		snprintf(why, len, "'%s' and '%s' are the same %s (%s)", a, b,
			 ka.kind == KEY_MODEL ? "modelled drive" : "file", ka.name);
		return 1;
	case KEY_FILE:
		if (ka.dev != kb.dev || ka.ino != kb.ino)
			return 0;
		snprintf(why, len, "'%s' and '%s' are the same file", a, b);
		return 1;
	case KEY_BLOCK:
		if (ka.dev == kb.dev) {
			snprintf(why, len, "'%s' and '%s' are the same device (%s)", a, b, ka.name);
			return 1;
		}
		if (strcmp(ka.disk, kb.disk))
			return 0;
		snprintf(why, len, "'%s' (%s) and '%s' (%s) are on the same disk %s", a, ka.name,
			 b, kb.name, ka.disk);
		return 1;
	}
	return 0;
}
