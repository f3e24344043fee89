/* pagecache.c - the page-cache policy of a clone (pagecache.h): fio's
 * invalidate at file open (direct or not), again at each wrap of a
 * buffered job's offsets, and before the verify phase; fadvise_hint at
 * open. The calls themselves are target/cache.c's. */
#include "run/pagecache.h"

#include <stdio.h>

#include "device/cache.h"
#include "util/error.h"

static void warn_once(struct worker *w)
{
	if (w->cache_warned)
		return;
	w->cache_warned = true;
	fprintf(stderr, "drivebench: job '%s': %s\n", w->spec->name, err_msg());
	err_clear();
}

/* An NVMe character device has no page cache: passthrough commands go
 * to the drive whatever direct= says. */
void worker_cache_drop(struct worker *w)
{
	if (w->fd < 0 || w->target->is_nvme_char)
		return;
	if (target_cache_drop(w->fd, w->target->is_block, w->target->path,
			      w->range_start, w->range_len))
		warn_once(w);
}

static void wrapped(void *arg)
{
	worker_cache_wrap(arg);
}

void worker_cache_open(struct worker *w)
{
	const struct job_buffering *b = &w->spec->buffering;

	if (w->fd < 0 || w->target->is_nvme_char)
		return;
	if (b->invalidate)
		worker_cache_drop(w);
	if (target_cache_advise(w->fd, b->fadvise, job_spec_random(w->spec), w->target->path,
				w->range_start, w->range_len))
		warn_once(w);
	w->invalidate_on_wrap = b->invalidate && !w->spec->direct;
	if (w->invalidate_on_wrap && w->random_offsets)
		offset_gen_on_pass_end(&w->offsets, wrapped, w);
}

void worker_cache_wrap(struct worker *w)
{
	if (w->invalidate_on_wrap)
		worker_cache_drop(w);
}
