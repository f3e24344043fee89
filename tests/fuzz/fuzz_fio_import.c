/* fuzz_fio_import.c - libFuzzer target for the fio JSON importer
 * (fio_import_parse, fed the raw bytes, not NUL-terminated, as a file read
 * gives them) and for the size parser it reads fio's options with
 * (units_parse_size, both kb_base) on the input's first line. */
#include "fuzz_common.h"

#include "store/fio_import.h"
#include "util/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fio_import imp;
	char first_line[64];
	size_t line_len = 0;
	uint64_t value;

	if (fio_import_parse((const char *)data, size, "fuzz.json", &imp) == 0)
		fio_import_free(&imp);
	while (line_len < size && line_len < sizeof(first_line) - 1 && data[line_len] != '\n')
		line_len++;
	memcpy(first_line, data, line_len);
	first_line[line_len] = '\0';
	(void)units_parse_size(first_line, 1024, &value);
	(void)units_parse_size(first_line, 1000, &value);
	return 0;
}
