/* ranks_internal.h - private to src/ranks/: the rank map both builds read. */
#ifndef DRIVEBENCH_RANKS_INTERNAL_H
#define DRIVEBENCH_RANKS_INTERNAL_H

/* Reads this rank's line of a --rank-map file; -1 with err_msg naming the
 * file and line. */
int ranks_read_rank_map(const char *path);
void ranks_forget_rank_map(void);

#endif
