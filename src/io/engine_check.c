/* engine_check.c - the engine catalog this layer hands the job model
 * (job/engine_catalog.h): each engine's options, and the checks of a job
 * against what lies above the model: verify (only an engine that keeps
 * data can be verified), the fault wrapper's options, and each engine's
 * own needs and options, as fio refuses them at init. */
#include "job/engine_catalog.h"

#include <stdio.h>
#include <string.h>

#include "io/engine.h"
#include "io/fault.h"
#include "job/job_spec.h"
#include "job/option_table.h"
#include "util/error.h"
#include "verify/verify.h"

static bool engine_declares(const struct engine_ops *ops, const char *name)
{
	for (const struct option_def *d = ops->options; d && d->name; d++)
		if (!strcmp(d->name, name))
			return true;
	return false;
}

/* "ioengine=libaio or io_uring": the engines that declare the option. */
static void owners_of(const char *name, char *out, size_t len)
{
	const struct engine_ops *ops;
	size_t used = 0;
	unsigned n = 0;

	out[0] = '\0';
	for (unsigned i = 0; (ops = engine_at(i)) && used < len; i++)
		if (engine_declares(ops, name))
			used += (size_t)snprintf(out + used, len - used, "%s%s",
						 n++ ? " or " : "ioengine=", ops->name);
}

/* "io_uring, libaio, psync or null": the engines with flag, from the
 * table (a list written out by hand went stale when falloc learnt to
 * trim). A fault wrapper is not listed: it has the flags it wraps. */
static void engines_with(unsigned flag, char *out, size_t len)
{
	const struct engine_ops *ops;
	unsigned nr = 0, n = 0;
	size_t used = 0;

	for (unsigned i = 0; (ops = engine_at(i)); i++)
		nr += engine_has(ops, flag);
	out[0] = '\0';
	for (unsigned i = 0; (ops = engine_at(i)) && used < len; i++)
		if (engine_has(ops, flag)) {
			n++;
			used += (size_t)snprintf(out + used, len - used, "%s%s",
						 n == 1 ? "" : n == nr ? " or " : ", ", ops->name);
		}
}

static int check_engine_options(const struct job_spec *spec, const struct engine_ops *ops)
{
	const struct engine_opts *o = &spec->eng;
	char owners[256];

	for (unsigned i = 0; i < o->nr_engine_options; i++) {
		if (engine_declares(ops, o->engine_option[i]) || i < o->nr_global_engine_options)
			continue;
		owners_of(o->engine_option[i], owners, sizeof(owners));
		return err_set("option '%s' is an option of %s, not of ioengine=%s",
			       o->engine_option[i], owners, spec->ioengine);
	}
	return 0;
}

int engine_check_writes_only(const struct job_spec *spec, const char *engine)
{
	if (job_spec_reads(spec))
		return err_set("ioengine=%s only writes (rw=write or randwrite): "
			       "its reads fail with EINVAL in fio", engine);
	return 0;
}

/* What every engine of a kind needs, then what the engine itself says
 * (its ops->check; fio refuses the same at init). */
static int check_engine_needs(const struct job_spec *spec, const struct engine_ops *ops)
{
	if (ops->check && ops->check(spec))
		return -1;
	if (engine_has(ops, ENGINE_NO_IO) && spec->runtime_ns == 0)
		return err_set("ioengine=%s moves no data, so only runtime= ends it "
			       "(fio would run it until stopped)", ops->name);
	return 0;
}

static int check_engine(const struct job_spec *spec)
{
	const struct engine_opts *o = &spec->eng;
	const struct engine_ops *ops = engine_base(spec->ioengine);
	char names[256];

	if (!ops)       /* an unknown engine is refused by name when it runs */
		return 0;
	if (check_engine_options(spec, ops) || check_engine_needs(spec, ops))
		return -1;
	if (job_spec_trims(spec) && !engine_has(ops, ENGINE_TRIMS)) {
		engines_with(ENGINE_TRIMS, names, sizeof(names));
		return err_set("option 'rw': ioengine=%s does not trim (rw=%s): use %s",
			       spec->ioengine, job_spec_rw_name(spec->rw), names);
	}
	if (o->atomic && job_spec_writes(spec) && !engine_has(ops, ENGINE_ATOMIC)) {
		engines_with(ENGINE_ATOMIC, names, sizeof(names));
		return err_set("option 'atomic': ioengine=%s has no atomic writes (use %s)",
			       spec->ioengine, names);
	}
	return 0;
}

static bool alters_target(const struct job_spec *spec)
{
	const struct engine_ops *ops = engine_base(spec->ioengine);

	return ops && (ops->flags & ENGINE_ALTERS);
}

/* fault_* options only mean something to the fault engine: given with
 * another engine they would be silently ignored. */
static int check_fault_options(const struct job_spec *spec)
{
	const char *option;

	if (!fault_engine_named(spec->ioengine) && fault_spec_used(&spec->fault, &option))
		return err_set("option '%s': needs ioengine=fault:<engine> (e.g. fault:%s)",
			       option, spec->ioengine);
	return 0;
}

/* Only an engine that moves the runner's buffers to and from the target
 * (ENGINE_KEEPS_DATA) can be verified: not null, not cufile's GPU
 * transfers (a fault engine has the flags of the engine it wraps); an
 * unknown engine is the runner's error to report. */
static int check_verify_engine(const struct job_spec *spec)
{
	const struct engine_ops *ops;

	if (spec->verify == VERIFY_NONE)
		return 0;
	ops = engine_find(spec->ioengine);
	if (!ops)
		err_clear();
	else if (!(ops->flags & ENGINE_KEEPS_DATA))
		return err_set("option 'verify': the %s engine keeps no data to verify",
			       ops->name);
	return 0;
}

static int check_job(const struct job_spec *spec)
{
	if (check_verify_engine(spec) || verify_spec_check(spec) ||
	    check_fault_options(spec) || check_engine(spec))
		return -1;
	return 0;
}

static bool engine_options(unsigned i, const char **name, const struct option_def **options)
{
	const struct engine_ops *ops = engine_at(i);

	if (!ops)
		return false;
	*name = ops->name;
	*options = ops->options;
	return true;
}

static const struct engine_catalog catalog = {
	.engine_options = engine_options,
	.check_job = check_job,
	.alters_target = alters_target,
	.find_engine = engine_find,
};

__attribute__((constructor)) static void register_catalog(void)
{
	engine_catalog_set(&catalog);
}
