#!/bin/bash
# checkpoint-drift.sh - what pass 2's truncation does to the drive
# (docs/checkpoint.md, "Pass 1 creates the files, later passes truncate
# them"): `drivebench checkpoint --checkpoint-fs xfs` on a modelled drive
# served as a block device (drivebench vssd-serve: a FUSE file, a loop
# device over it with direct I/O; docs/vssd.md), once per binary given.
# The server counts only at its exit, so every binary runs one session per
# pass count (passes 1, 1+2, 1+2+3), each on a new backing file (a new
# drive, mkfs.xfs discarding it first); a pass's figures are the
# difference between the sessions with and without it. Prints, per binary
# and session, the server's counters (host_written, nand_written, waf,
# erases) and the mean seconds per checkpoint of each pass, then per pass
# the bytes the host and the NAND wrote, the pass's WAF and erases, and
# its mean seconds per checkpoint in the session that wrote every pass.
# Needs root, /dev/fuse and mkfs.xfs.
# Usage: bench/checkpoint-drift.sh [NAME=BINARY ...]
#   default: new=build/drivebench; e.g. main=/var/tmp/main-drivebench new=build/drivebench
# Settings (environment): MODEL (specs/solidigm-d5-p5430-30t.ini), SCALE
# (4g), SIZE (228MB), RANKS (8), PASSES (3), COUNT (checkpoints per pass;
# default: as many as fit in 90% of the XFS).
set -eu
model=$(realpath "${MODEL:-specs/solidigm-d5-p5430-30t.ini}")
scale=${SCALE:-4g}
size=${SIZE:-228MB}
ranks=${RANKS:-8}
passes=${PASSES:-3}
count=${COUNT:-}
[ "$(id -u)" -eq 0 ] || { echo "checkpoint-drift: needs root (loop devices, mkfs)" >&2; exit 2; }
[ -c /dev/fuse ] || { echo "checkpoint-drift: needs /dev/fuse" >&2; exit 2; }
[ $# -gt 0 ] || set -- "new=$(pwd)/${BUILD:-build}/drivebench"
server=$(pwd)/${BUILD:-build}/drivebench   # serves the drive for every binary
. "$(dirname "$0")/serve_lib.sh" drift

# session NAME BINARY N: a new drive, N passes written by BINARY; appends
# "NAME N host nand erases mean1 .. meanN" to $work/figures
session() {
	rm -f "$work/drive.img" "$work/drive.img.vssd-backing" "$work/drive.img.vssd-state" "$work/stats.txt" "$work/db"
	serve_start "$server" "$model" "$scale" --stats "$work/stats.txt"
	"$2" checkpoint --checkpoint-size "$size" --ranks "$ranks" --passes "$3" \
		${count:+--count "$count"} --checkpoint-fs xfs --db "$work/db" "$loop" \
		>"$work/out" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	serve_stop
	stats=$(cat "$work/stats.txt")
	means=$(awk '$1 ~ /^[0-9]+$/ && NF == 5 { printf " %s", $3 }' "$work/out")
	printf '%-6s passes 1..%s: %s\n' "$1" "$3" \
		"$(echo "$stats" | grep -o 'host_written=[0-9]* nand_written=[0-9]* waf=[0-9.]* erases=[0-9]*')"
	printf '%-6s   checkpoints per pass: %s; mean seconds per checkpoint, pass 1..%s:%s\n' "$1" \
		"$(awk '$1 == "1" && NF == 5 { print $2 }' "$work/out")" "$3" "$means"
	echo "$1 $3 $(echo "$stats" | sed 's/.*host_written=\([0-9]*\) nand_written=\([0-9]*\).*erases=\([0-9]*\).*/\1 \2 \3/')$means" \
		>>"$work/figures"
}

echo "checkpoint-drift: $(basename "$model") at $scale, checkpoints of $size over $ranks ranks" \
	"on xfs, $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
for named in "$@"; do
	name=${named%%=*} bin=${named#*=}
	[ -x "$bin" ] || { echo "checkpoint-drift: no binary at '$bin'" >&2; exit 2; }
	for n in $(seq 1 "$passes"); do
		session "$name" "$bin" "$n"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "per pass (the difference between sessions): host GB, NAND GB, WAF, erases;"
echo "mean seconds per checkpoint (the session with every pass)"
awk '{
	name = $1; n = $2
	host = $3 - ph[name]; nand = $4 - pn[name]; er = $5 - pe[name]
	line[name, n] = sprintf("%-6s pass %d: host %7.3f GB  NAND %7.3f GB  WAF %.3f  erases %6d", name, n, host / 1e9, nand / 1e9, host > 0 ? nand / host : 0, er)
	ph[name] = $3; pn[name] = $4; pe[name] = $5
	if (!(name in seen)) { seen[name] = 1; order[++names] = name }
	last[name] = n
	for (k = 1; k <= n; k++) mean[name, k] = $(5 + k)
}
END {
	for (i = 1; i <= names; i++)
		for (k = 1; k <= last[order[i]]; k++)
			printf("%s  %8.3f s\n", line[order[i], k], mean[order[i], k])
}' "$work/figures"
