/* schema.h - the results database's migration list (store.c applies it). */
#ifndef DRIVEBENCH_SCHEMA_H
#define DRIVEBENCH_SCHEMA_H

/* schema_migrations[i]: SQL taking user_version i to i + 1. */
extern const char *const schema_migrations[];
/* The version this build writes (number of migrations). */
extern const unsigned schema_version;

#endif
