/* host_facts.c - reading this machine's host facts (see the header). */
#include "store/host_facts.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/text.h"

/* "Debian GNU/Linux 12 (bookworm)" from os-release; the server as its DMI
 * vendor and product ("Dell Inc. PowerEdge R760"), "" when not known. */
static void host_os_and_server(struct host_facts *h)
{
	char line[512], vendor[128], product[128];
	FILE *f = fopen("/etc/os-release", "r");

	if (!f)
		f = fopen("/usr/lib/os-release", "r");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char *v = line + 12;

			if (strncmp(line, "PRETTY_NAME=", 12))
				continue;
			v[strcspn(v, "\n")] = '\0';
			if (*v == '"' || *v == '\'') {
				size_t n = strlen(v);
				if (n >= 2 && v[n - 1] == *v)
					v[n - 1] = '\0';
				v++;
			}
			snprintf(h->os, sizeof(h->os), "%.255s", v);
			break;
		}
		fclose(f);
	}
	text_read_small_file("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	text_read_small_file("/sys/class/dmi/id/product_name", product, sizeof(product));
	snprintf(h->server, sizeof(h->server), "%s%s%s", vendor, vendor[0] && product[0] ? " " : "",
		 product);
}

void host_facts_read(struct host_facts *h)
{
	struct utsname u;
	char line[512];
	FILE *f;

	memset(h, 0, sizeof(*h));
	if (gethostname(h->hostname, sizeof(h->hostname) - 1) < 0)
		h->hostname[0] = '\0';
	if (uname(&u) == 0)
		snprintf(h->kernel, sizeof(h->kernel), "%s %s %s", u.sysname, u.release,
			 u.machine);
	h->cores = sysconf(_SC_NPROCESSORS_ONLN);
	if (h->cores < 0)
		h->cores = 0;
	f = fopen("/proc/cpuinfo", "r");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (strncmp(line, "model name", 10) || !colon)
				continue;
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(h->cpu_model, sizeof(h->cpu_model), "%s", colon);
			break;
		}
		fclose(f);
	}
	f = fopen("/proc/meminfo", "r");
	if (f) {
		unsigned long long kib;

		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemTotal: %llu kB", &kib) == 1) {
				h->memory_bytes = (uint64_t)kib * 1024u;
				break;
			}
		fclose(f);
	}
	host_os_and_server(h);
}

