# Shell TAP helpers for csbench's script tests (sourced): tap_ok,
# tap_grep, tap_line (both through tap_match), tap_nogrep, tap_skip, tap_done. Output and exit codes match tests/tap.h.
tap_n=0
tap_fails=0

echo "TAP version 13"

# tap_ok DESC COMMAND...: passes when COMMAND succeeds.
tap_ok() {
	desc=$1
	shift
	tap_n=$((tap_n + 1))
	if "$@"; then
		echo "ok $tap_n - $desc"
	else
		echo "not ok $tap_n - $desc"
		echo "#   failed: $*"
		tap_fails=$((tap_fails + 1))
	fi
}

# tap_match DESC GREP-OPTIONS WANT FILE: passes when grep finds WANT in FILE;
# otherwise shows the end of FILE.
tap_match() {
	tap_n=$((tap_n + 1))
	if grep -q $2 -- "$3" "$4" 2>/dev/null; then
		echo "ok $tap_n - $1"
	else
		echo "not ok $tap_n - $1"
		echo "#   want: $3"
		sed 's/^/#   got: /' "$4" 2>/dev/null | tail -n 15
		tap_fails=$((tap_fails + 1))
	fi
}

# tap_grep DESC PATTERN FILE: FILE has a line matching PATTERN.
tap_grep() { tap_match "$1" -G "$2" "$3"; }

# tap_line DESC LINE FILE: FILE has LINE, whole and verbatim.
tap_line() { tap_match "$1" -xF "$2" "$3"; }

# tap_nogrep DESC PATTERN FILE: passes when no line of FILE matches PATTERN.
tap_nogrep() {
	tap_n=$((tap_n + 1))
	if grep -q -- "$2" "$3" 2>/dev/null; then
		echo "not ok $tap_n - $1"
		grep -- "$2" "$3" | sed 's/^/#   got: /' | tail -n 15
		tap_fails=$((tap_fails + 1))
	else
		echo "ok $tap_n - $1"
	fi
}

# tap_skip DESC WHY
tap_skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

tap_done() {
	echo "1..$tap_n"
	echo "# $((tap_n - tap_fails)) passed, $tap_fails failed"
	[ "$tap_fails" -eq 0 ]
	exit $?
}
