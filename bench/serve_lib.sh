# serve_lib.sh - sourced by the bench scripts that serve a modelled drive
# (drivebench vssd-serve, docs/vssd.md) and put a loop device over it:
# `. bench/serve_lib.sh NAME` makes the work directory $work
# (/var/tmp/drivebench-NAME.XXXXXX, with $work/mnt) and, at exit, detaches
# the loop device, stops the server and removes the directory.
# serve_start DRIVEBENCH MODEL SCALE [vssd-serve options]: serves the model
# from $work/drive.img at $work/mnt (its messages in $work/serve.err) and
# puts a direct-I/O loop device over it: sets $pid and $loop.
# serve_stop: detaches the loop device and stops the server (SIGTERM: it
# writes its counters and saves the drive's FTL).
work=$(mktemp -d "/var/tmp/drivebench-$1.XXXXXX")
mkdir "$work/mnt"
loop="" pid=""
serve_stop() {
	[ -n "$loop" ] && losetup -d "$loop"
	[ -n "$pid" ] && kill -TERM "$pid" && wait "$pid"
	loop="" pid=""
}
trap 'serve_stop; rm -rf "$work"' EXIT

serve_start() {
	"$1" vssd-serve --model "$2" --scale "$3" --backing "$work/drive.img" "${@:4}" \
		"$work/mnt" 2>"$work/serve.err" &
	pid=$!
	for _ in $(seq 100); do [ -f "$work/mnt/drive" ] && break; sleep 0.1; done
	[ -f "$work/mnt/drive" ] || { cat "$work/serve.err" >&2; exit 1; }
	loop=$(losetup --direct-io=on -f --show "$work/mnt/drive")
}
