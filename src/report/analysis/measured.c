/* measured.c - what a drive was measured on (see the header). */
#include "report/analysis/measured.h"

#include <stdio.h>
#include <string.h>

#define MODEL_TAG " (model, scale "

bool measured_model_split(const char *drive_model, char *name, size_t name_len,
			  char *scale, size_t scale_len)
{
	const char *tag = NULL, *p = drive_model;
	size_t len = drive_model ? strlen(drive_model) : 0;

	name[0] = scale[0] = '\0';
	if (!len || drive_model[len - 1] != ')')
		return false;
	/* the last tag: a model's own name may hold the words */
	while ((p = strstr(p, MODEL_TAG)) != NULL)
		tag = p++;
	if (!tag)
		return false;
	const char *s = tag + strlen(MODEL_TAG);
	int scale_n = (int)(drive_model + len - 1 - s);

	if (scale_n <= 0)
		return false;
	snprintf(name, name_len, "%.*s", (int)(tag - drive_model), drive_model);
	snprintf(scale, scale_len, "%.*s", scale_n, s);
	return true;
}

bool measured_model_mark(const char *const *measured_on, unsigned nr, char *buf, size_t len)
{
	char scales[160] = "", name[128], scale[64];
	unsigned models = 0, nr_scales = 0;
	bool real = false;

	buf[0] = '\0';
	for (unsigned i = 0; i < nr; i++) {
		if (!measured_model_split(measured_on[i], name, sizeof(name), scale, sizeof(scale))) {
			real = real || (measured_on[i] && measured_on[i][0]);
			continue;
		}
		models++;
		/* each scale once: two model files at one scale are one mark */
		bool seen = false;
		for (unsigned k = 0; k < i && !seen; k++) {
			char n2[128], s2[64];

			seen = measured_model_split(measured_on[k], n2, sizeof(n2), s2, sizeof(s2)) &&
			       !strcmp(s2, scale);
		}
		if (seen)
			continue;
		snprintf(scales + strlen(scales), sizeof(scales) - strlen(scales), "%s%s",
			 nr_scales ? ", " : "", scale);
		nr_scales++;
	}
	if (!models)
		return false;
	snprintf(buf, len, "%smodel, scale%s %s", real ? "partly " : "",
		 nr_scales > 1 ? "s" : "", scales);
	return true;
}

void measured_shown_label(const char *label, const char *const *measured_on, unsigned nr,
			  char *buf, size_t len)
{
	char mark[200];

	if (measured_model_mark(measured_on, nr, mark, sizeof(mark)))
		snprintf(buf, len, "%.100s (%.56s)", label, mark);
	else
		snprintf(buf, len, "%s", label);
}
