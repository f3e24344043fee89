/* text.h - small string helpers shared by the text parsers (job files,
 * spec sheets). */
#ifndef DRIVEBENCH_TEXT_H
#define DRIVEBENCH_TEXT_H

/* Strips leading and trailing white space in place; returns the start. */
char *text_trim(char *s);

#endif
