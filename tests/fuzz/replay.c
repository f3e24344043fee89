/* replay.c - runs a fuzz harness without libFuzzer: feeds every file named
 * on the command line (a directory: each file in it) to the harness's
 * LLVMFuzzerTestOneInput once. Built by gcc with the normal library, so the
 * corpus and each crash fix stay regression tests in `make check` (and run
 * under the sanitizers in `make asan`). Prints how many inputs ran. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t size = 0, cap = 0;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t got;

		if (size == cap) {
			uint8_t *grown;

			cap = cap ? cap * 2 : 4096;
			grown = realloc(data, cap);
			if (!grown) {
				fprintf(stderr, "replay: %s: out of memory\n", path);
				free(data);
				fclose(f);
				return -1;
			}
			data = grown;
		}
		got = fread(data + size, 1, cap - size, f);
		size += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		free(data);
		fclose(f);
		return -1;
	}
	fclose(f);
	/* an exact-size copy, so reading past the input is caught under ASan */
	uint8_t *exact = malloc(size ? size : 1);

	if (!exact) {
		free(data);
		return -1;
	}
	memcpy(exact, data, size);
	free(data);
	LLVMFuzzerTestOneInput(exact, size);
	free(exact);
	return 0;
}

static int run_path(const char *path, unsigned *count)
{
	struct stat st;
	struct dirent **names;
	int nr, rc = 0;

	if (stat(path, &st)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (run_file(path))
			return -1;
		(*count)++;
		return 0;
	}
	nr = scandir(path, &names, NULL, alphasort);
	if (nr < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < nr; i++) {
		char child[4096];

		if (names[i]->d_name[0] != '.' && !rc) {
			snprintf(child, sizeof(child), "%s/%s", path, names[i]->d_name);
			rc = run_path(child, count);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned count = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
		if (run_path(argv[i], &count))
			return 1;
	printf("replayed %u inputs\n", count);
	return 0;
}
