/* io_dir.h - the directions of an I/O. DIR_COUNT counts the data
 * directions (read, write): what the database, fio import and the reports
 * keep. A trim (DIR_TRIM) moves no data; results, series and fio JSON count
 * it beside them (DIR_ALL entries). */
#ifndef DRIVEBENCH_IO_DIR_H
#define DRIVEBENCH_IO_DIR_H

enum io_dir { DIR_READ = 0, DIR_WRITE = 1, DIR_TRIM = 2 };

#define DIR_COUNT 2
#define DIR_ALL 3

#endif
