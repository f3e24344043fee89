/* dist_internal.h - private to src/dist/: the rank map both builds read. */
#ifndef DRIVEBENCH_DIST_INTERNAL_H
#define DRIVEBENCH_DIST_INTERNAL_H

/* Reads this rank's line of a --rank-map file; -1 with err_msg naming the
 * file and line. */
int dist_read_rank_map(const char *path);
void dist_forget_rank_map(void);

#endif
