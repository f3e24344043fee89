# mpi_lib.sh - what the MPI tests share; source it after lib.sh. Sets
# MPI_DB (drivebench-mpi beside $DB) and MPI_ASAN_OPTIONS, and fails the
# test when the binary or mpirun is missing.
MPI_DB="${DB%/drivebench}/drivebench-mpi"
if [ ! -x "$MPI_DB" ] || ! command -v mpirun >/dev/null; then
	not_ok "drivebench-mpi or mpirun missing (make mpi builds it; make check runs it)"
	exit 1
fi
# root in CI: OpenMPI wants both to run as root
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# ASan builds: under mpirun, OpenMPI's own allocations at exit come from
# plugins it has unloaded, so no suppression can name them: leaks are not
# checked there (address errors are); test_mpi.sh's runs without mpirun
# check drivebench-mpi's leaks, and the unit tests the packing and merging
MPI_ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
