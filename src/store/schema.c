/* schema.c - the results database schema as a forward migration list:
 * migrations[i] takes a database from PRAGMA user_version i to i + 1.
 * Never edit a released step; append a new one (docs/schema.md says what
 * each version holds). */
#include <stddef.h>

#include "store/schema.h"

static const char schema_v1[] =
	"CREATE TABLE hosts ("
	" id INTEGER PRIMARY KEY,"
	" hostname TEXT NOT NULL, kernel TEXT NOT NULL, cpu_model TEXT NOT NULL,"
	" cores INTEGER NOT NULL, memory_bytes INTEGER NOT NULL,"
	" UNIQUE (hostname, kernel, cpu_model, cores, memory_bytes));"
	"CREATE TABLE drives ("
	" id INTEGER PRIMARY KEY,"
	" label TEXT NOT NULL, model TEXT NOT NULL, serial TEXT NOT NULL,"
	" firmware TEXT NOT NULL, spec_ini TEXT,"
	" UNIQUE (label, model, serial, firmware));"
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" host_id INTEGER REFERENCES hosts(id),"
	" drive_id INTEGER REFERENCES drives(id),"
	" label TEXT NOT NULL, source TEXT NOT NULL, command TEXT NOT NULL,"
	" target TEXT NOT NULL, started_ms INTEGER NOT NULL,"
	" finished_ms INTEGER NOT NULL DEFAULT 0,"
	" partial INTEGER NOT NULL DEFAULT 0, drive_json TEXT);"
	"CREATE INDEX runs_label ON runs (label, started_ms);"
	"CREATE TABLE results ("
	" id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" job_name TEXT NOT NULL, groupid INTEGER NOT NULL,"
	" error INTEGER NOT NULL, partial INTEGER NOT NULL,"
	" options_json TEXT NOT NULL, rw TEXT NOT NULL, bs INTEGER NOT NULL,"
	" iodepth INTEGER NOT NULL, numjobs INTEGER NOT NULL,"
	" runtime_ns INTEGER NOT NULL, series_interval_ms INTEGER NOT NULL,"
	" drive_before TEXT, drive_after TEXT, drive_delta TEXT);"
	"CREATE INDEX results_run ON results (run_id);"
	"CREATE TABLE result_dirs ("
	" result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
	" dir TEXT NOT NULL CHECK (dir IN ('read', 'write')),"
	" ios INTEGER NOT NULL, bytes INTEGER NOT NULL, errors INTEGER NOT NULL,"
	" runtime_ms INTEGER NOT NULL, iops REAL NOT NULL, bw_bytes REAL NOT NULL,"
	" slat_min INTEGER NOT NULL, slat_max INTEGER NOT NULL,"
	" slat_mean REAL NOT NULL, slat_stddev REAL NOT NULL, slat_n INTEGER NOT NULL,"
	" clat_min INTEGER NOT NULL, clat_max INTEGER NOT NULL,"
	" clat_mean REAL NOT NULL, clat_stddev REAL NOT NULL, clat_n INTEGER NOT NULL,"
	" lat_min INTEGER NOT NULL, lat_max INTEGER NOT NULL,"
	" lat_mean REAL NOT NULL, lat_stddev REAL NOT NULL, lat_n INTEGER NOT NULL,"
	" PRIMARY KEY (result_id, dir));"
	"CREATE TABLE percentiles ("
	" result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
	" dir TEXT NOT NULL CHECK (dir IN ('read', 'write')),"
	" kind TEXT NOT NULL CHECK (kind IN ('clat', 'lat')),"
	" pct REAL NOT NULL, value_ns INTEGER NOT NULL,"
	" PRIMARY KEY (result_id, dir, kind, pct));"
	"CREATE TABLE bins ("
	" result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
	" dir TEXT NOT NULL CHECK (dir IN ('read', 'write')),"
	" value_ns INTEGER NOT NULL, count INTEGER NOT NULL,"
	" PRIMARY KEY (result_id, dir, value_ns));"
	"CREATE TABLE series ("
	" result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL, t_ms INTEGER NOT NULL,"
	" dir TEXT NOT NULL CHECK (dir IN ('read', 'write')),"
	" ios INTEGER NOT NULL, bytes INTEGER NOT NULL, lat_mean_ns REAL NOT NULL,"
	" PRIMARY KEY (result_id, idx, dir));";

/* v2: a free-text note per run (empty by default). */
static const char schema_v2[] =
	"ALTER TABLE runs ADD COLUMN note TEXT NOT NULL DEFAULT '';";

/* v3: steps of a run (a job file's reporting groups; a suite's steps),
 * and the step each result belongs to. */
static const char schema_v3[] =
	"CREATE TABLE steps ("
	" id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES runs(id),"
	" idx INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,"
	" status TEXT NOT NULL DEFAULT 'running',"
	" started_ms INTEGER NOT NULL, finished_ms INTEGER NOT NULL DEFAULT 0,"
	" UNIQUE (run_id, idx));"
	"ALTER TABLE results ADD COLUMN step_id INTEGER REFERENCES steps(id);";

/* v4: suites. The suite file a run ran (for resume), a JSON detail per
 * step (purge method, steady-state rounds and verdict), and an index for
 * finding the last suite run on a target. */
static const char schema_v4[] =
	"ALTER TABLE runs ADD COLUMN suite TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE steps ADD COLUMN detail TEXT;"
	"CREATE INDEX runs_target ON runs (source, target, id);";

/* v5: the I/O buffer memory a result's job held (object storage states it). */
static const char schema_v5[] =
	"ALTER TABLE results ADD COLUMN max_buffer_bytes INTEGER NOT NULL DEFAULT 0;";

/* v6: data verification (docs/verify.md): the seed a result's blocks carry
 * (NULL when verify was off), blocks checked and failed, the first
 * failures with their verdicts; and the first I/O error per direction. */
static const char schema_v6[] =
	"ALTER TABLE results ADD COLUMN verify_seed INTEGER;"
	"ALTER TABLE results ADD COLUMN verify_checked INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE results ADD COLUMN verify_failed INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE result_dirs ADD COLUMN first_error INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE result_dirs ADD COLUMN first_error_offset INTEGER NOT NULL DEFAULT 0;"
	"CREATE TABLE verify_failures ("
	" result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL, offset INTEGER NOT NULL, len INTEGER NOT NULL,"
	" verdict TEXT NOT NULL CHECK (verdict IN ('never written', 'header corrupt',"
	"  'stale', 'misdirected', 'lost write', 'torn', 'corrupt')),"
	" expected_seq INTEGER NOT NULL, found_seq INTEGER NOT NULL,"
	" found_offset INTEGER NOT NULL, found_seed INTEGER NOT NULL,"
	" bad_offset INTEGER NOT NULL, expected_byte INTEGER NOT NULL,"
	" found_byte INTEGER NOT NULL,"
	" PRIMARY KEY (result_id, idx));";

/* v7: verify_fatal and short files (docs/verify.md): the units due to be
 * checked (older rows: the units checked) and whether verify_fatal stopped
 * the check; failures get the verdict 'missing' (a range past the end of a
 * short file) and the units each covers. SQLite cannot change a CHECK in
 * place, so verify_failures is rebuilt. */
static const char schema_v7[] =
	"ALTER TABLE results ADD COLUMN verify_units INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE results ADD COLUMN verify_stopped INTEGER NOT NULL DEFAULT 0;"
	"UPDATE results SET verify_units = verify_checked;"
	"CREATE TABLE verify_failures_v7 ("
	" result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL, offset INTEGER NOT NULL, len INTEGER NOT NULL,"
	" verdict TEXT NOT NULL CHECK (verdict IN ('never written', 'header corrupt',"
	"  'stale', 'misdirected', 'lost write', 'torn', 'corrupt', 'missing')),"
	" expected_seq INTEGER NOT NULL, found_seq INTEGER NOT NULL,"
	" found_offset INTEGER NOT NULL, found_seed INTEGER NOT NULL,"
	" bad_offset INTEGER NOT NULL, expected_byte INTEGER NOT NULL,"
	" found_byte INTEGER NOT NULL, units INTEGER NOT NULL DEFAULT 1,"
	" PRIMARY KEY (result_id, idx));"
	"INSERT INTO verify_failures_v7 (result_id, idx, offset, len, verdict,"
	" expected_seq, found_seq, found_offset, found_seed, bad_offset,"
	" expected_byte, found_byte)"
	" SELECT result_id, idx, offset, len, verdict, expected_seq, found_seq,"
	" found_offset, found_seed, bad_offset, expected_byte, found_byte"
	" FROM verify_failures;"
	"DROP TABLE verify_failures;"
	"ALTER TABLE verify_failures_v7 RENAME TO verify_failures;";

/* v8: the point of its step a result belongs to (0-based: sweep point,
 * steady round, checkpoint), so suite --resume keeps a step's completed
 * points; NULL for results outside suite steps and for older rows. */
static const char schema_v8[] =
	"ALTER TABLE results ADD COLUMN point INTEGER;";

/* v9: the pass of its step a result belongs to and its index there
 * (checkpoints: pass 1.., 0 = the read-back; the checkpoint's number), so
 * the report reads them from the store, not from job names. Older
 * checkpoint rows get them from the names their steps gave them
 * ("pass2-ckpt003", "read-ckpt001"). */
static const char schema_v9[] =
	"ALTER TABLE results ADD COLUMN pass INTEGER;"
	"ALTER TABLE results ADD COLUMN pass_index INTEGER;"
	"UPDATE results SET"
	" pass = CAST(substr(job_name, 5, instr(job_name, '-ckpt') - 5) AS INTEGER),"
	" pass_index = CAST(substr(job_name, instr(job_name, '-ckpt') + 5) AS INTEGER)"
	" WHERE job_name GLOB 'pass[0-9]*-ckpt[0-9]*'"
	" AND step_id IN (SELECT id FROM steps WHERE kind GLOB 'checkpoint*');"
	"UPDATE results SET pass = 0,"
	" pass_index = CAST(substr(job_name, 10) AS INTEGER)"
	" WHERE job_name GLOB 'read-ckpt[0-9]*'"
	" AND step_id IN (SELECT id FROM steps WHERE kind GLOB 'checkpoint*');";

/* v10: the host's OS (os-release PRETTY_NAME) and server model (DMI
 * vendor and product); '' where not known (hosts stored before). */
static const char schema_v10[] =
	"ALTER TABLE hosts ADD COLUMN os TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE hosts ADD COLUMN server TEXT NOT NULL DEFAULT '';";

/* v11: MPI runs (record/rank_run.h): a result of one rank (rank set; the
 * run's own results have rank NULL), the ranks an aggregate merged and its
 * first-done figures, and each rank's host, clock offset and drive. */
static const char schema_v11[] =
	"ALTER TABLE results ADD COLUMN rank INTEGER;"
	"ALTER TABLE results ADD COLUMN ranks INTEGER NOT NULL DEFAULT 1;"
	"ALTER TABLE results ADD COLUMN first_done_ns INTEGER;"
	"ALTER TABLE results ADD COLUMN first_done_ios INTEGER;"
	"ALTER TABLE results ADD COLUMN first_done_bytes INTEGER;"
	"CREATE TABLE run_ranks ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" rank INTEGER NOT NULL, local_rank INTEGER NOT NULL,"
	" host_id INTEGER REFERENCES hosts(id),"
	" clock_offset_ns INTEGER NOT NULL, drive_json TEXT,"
	" PRIMARY KEY (run_id, rank));";

/* v12: the fio JSON of a result as `run` wrote it, for export --format
 * fio: the top level without "jobs" and the result's job object. */
static const char schema_v12[] =
	"ALTER TABLE results ADD COLUMN fio_head TEXT;"
	"ALTER TABLE results ADD COLUMN fio_job TEXT;";

const char *const schema_migrations[] = { schema_v1, schema_v2, schema_v3, schema_v4,
					  schema_v5, schema_v6, schema_v7, schema_v8,
					  schema_v9, schema_v10, schema_v11, schema_v12 };
const unsigned schema_version = sizeof(schema_migrations) / sizeof(schema_migrations[0]);
