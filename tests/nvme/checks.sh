# checks.sh - the host's checks of what tests/nvme/guest.sh left in $R
# (sourced by test_nvme_qemu.sh; lib.sh's ok/not_ok). Each compares what
# drivebench said inside the guest with what QEMU was told.

# rc NAME: the exit status the guest recorded for NAME
rc() { cat "$R/$1.rc" 2>/dev/null || echo missing; }
# show NAME: what NAME printed, for a failing check
show() { head -c 3000 "$R/$1.out"; head -c 2000 "$R/$1.err"; }
# pycheck WHAT PYTHON: PYTHON with j(NAME) = the parsed JSON of NAME.out;
# a failed assert fails the check
pycheck() {
	what=$1
	if python3 - "$R" "$2" 2>$TMP/py.err <<'PY'
import json, sys
R, code = sys.argv[1], sys.argv[2]
def j(name):
    return json.load(open(f"{R}/{name}.out"))
exec(code)
PY
	then ok "$what"; else not_ok "$what"; cat $TMP/py.err; fi
}

cat $R/map.txt
for n in A:1 A:2 B:1 B:2 B:3; do
	grep -q "^$n /dev/nvme" $R/map.txt && ok "namespace $n found" \
		|| not_ok "namespace $n found"
done
