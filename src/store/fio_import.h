/* fio_import.h - reading fio 3.x JSON output (normal and json+) and
 * drivebench's own fio-style JSON into result records, one per job entry,
 * ready for the store. Nothing here touches the database. See docs/import.md. */
#ifndef DRIVEBENCH_FIO_IMPORT_H
#define DRIVEBENCH_FIO_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/record.h"

struct fio_import {
	char tool_version[64];        /* "fio-3.33", or drivebench's version */
	bool from_drivebench;         /* had "drivebench version" (with or without "fio version") */
	uint64_t timestamp_ms;        /* Unix ms; 0 when the file has none */
	struct result_record *records;/* one per entry of "jobs", in order */
	unsigned nr_records;
	char *disk_util_json;         /* the top-level "disk_util" array, or NULL */
	unsigned skipped_lines;       /* non-JSON lines before the object */
};

/* Parses the text of one fio JSON file (len bytes, need not be
 * NUL-terminated). file_name only names the file in error messages. Leading
 * lines before the first line that starts with '{' (fio's "note: ..."
 * warnings) are skipped. On error returns -1 with err_msg naming the file
 * (and for malformed or truncated JSON the line and column) and leaves *out
 * empty; on success the caller frees *out with fio_import_free. */
int fio_import_parse(const char *text, size_t len, const char *file_name,
		     struct fio_import *out);
/* Reads path and parses it as above. */
int fio_import_file(const char *path, struct fio_import *out);
void fio_import_free(struct fio_import *imp);

#endif
