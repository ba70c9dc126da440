# What the mtf-mpi test scripts share (sourced): BUILD and N set by the caller; MPI runs
# mtf-mpi on N processes (as root with --allow-run-as-root), WORK is a scratch folder
# removed on exit.
MPIRUN=(mpirun --oversubscribe -np "$N")
[[ $(id -u) == 0 ]] && MPIRUN+=(--allow-run-as-root)
MPI=("${MPIRUN[@]}" "$BUILD/mtf-mpi" -q)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
