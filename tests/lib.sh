# Helpers for the shell tests, sourced by each: a scratch directory removed on exit,
# pass/fail counters, and the closing "N passed, M failed" line with the exit status.
# The tests find the program in $CATENA and the sources in $top_srcdir (Makefile.am).

: "${CATENA:?set CATENA to the catena program}"
: "${top_srcdir:?set top_srcdir to the source tree}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/catena-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
passed=0
failed=0
status=0

pass() {
    passed=$((passed + 1))
    printf 'PASS: %s\n' "$1"
}

# fail DESCRIPTION: counts a failure and shows the last command's stderr for context.
fail() {
    failed=$((failed + 1))
    printf 'FAIL: %s\n' "$1"
    if [ -s "$tmp/err" ]; then
        sed 's/^/    stderr: /' "$tmp/err" | head -n 5
    fi
}

# check DESCRIPTION COMMAND...: passes when COMMAND succeeds.
check() {
    what=$1
    shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}

# catena ARGUMENT...: runs the program; stdout goes to $tmp/out, stderr to $tmp/err and
# the exit status to $status.
catena() {
    status=0
    "$CATENA" "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
}

# expect_status N DESCRIPTION: the last catena exited with N.
expect_status() {
    if [ "$status" -eq "$1" ]; then
        pass "$2"
    else
        fail "$2 (exit status $status, expected $1)"
    fi
}

# expect_err TEXT DESCRIPTION / expect_out TEXT DESCRIPTION: the last catena's stderr or
# stdout contains TEXT (a fixed string).
expect_err() {
    if grep -qF -- "$1" "$tmp/err"; then pass "$2"; else fail "$2 (stderr lacks '$1')"; fi
}
expect_out() {
    if grep -qF -- "$1" "$tmp/out"; then pass "$2"; else fail "$2 (stdout lacks '$1')"; fi
}

# lines FILE: its number of lines.
lines() {
    wc -l <"$1" | tr -d ' '
}

# expect_eq ACTUAL EXPECTED DESCRIPTION
expect_eq() {
    if [ "$1" = "$2" ]; then pass "$3"; else fail "$3 (got '$1', expected '$2')"; fi
}

# json_has FILE KEY VALUE: FILE has "KEY": VALUE, whatever its spacing and layout.
json_has() {
    tr -d ' \t\n' <"$1" | grep -q "\"$2\":$3[],}]"
}

# small_rope FILE NAME STEPS OUTPUT: writes a scenario of a 5-point rope 1 m long pinned at
# its first point, in 2D, dt 0.01 s, STEPS steps, with OUTPUT as the members of "output".
small_rope() {
    cat >"$1" <<JSON
{
  "catena": 1,
  "name": "$2",
  "dimensions": 2,
  "time": { "dt": 0.01, "steps": $3 },
  "bodies": [
    { "type": "rope", "name": "rope", "from": [0, 0], "to": [1, 0], "segments": 4,
      "mass": 1, "pins": ["first"] }
  ],
  "output": { $4 }
}
JSON
}

# relist DIR [NAME...]: rewrites the manifest of run directory DIR (summary.json's "files",
# its last member) to list exactly the files NAME... (without names: every file in DIR but
# summary.json) as they are now, as if the run had written them: for tests that plant known
# contents in a run directory.
relist() {
    relist_dir=$1
    shift
    [ $# -gt 0 ] || set -- $(cd "$relist_dir" && ls | grep -v '^summary.json$')
    {
        sed '/^	"files":/,$d' "$relist_dir/summary.json"
        printf '\t"files":\t['
        relist_sep=
        for relist_name in "$@"; do
            printf '%s{"name": "%s", "size": %s, "sha256": "%s"}' "$relist_sep" "$relist_name" \
                "$(wc -c <"$relist_dir/$relist_name" | tr -d ' ')" \
                "$(sha256sum "$relist_dir/$relist_name" | cut -d' ' -f1)"
            relist_sep=', '
        done
        printf ']\n}\n'
    } >"$relist_dir/summary.json.new" && mv "$relist_dir/summary.json.new" "$relist_dir/summary.json"
}

# junit_valid FILE: FILE is well-formed XML that follows tests/data/junit.xsd, the schema of
# the JUnit reports CI services read (xmllint, from libxml2-utils; where it is missing,
# python3's XML parser checks that it is well-formed).
junit_valid() {
    if command -v xmllint >/dev/null 2>&1; then
        xmllint --noout --schema "$top_srcdir/tests/data/junit.xsd" "$1" >/dev/null 2>"$tmp/err"
    elif command -v python3 >/dev/null 2>&1; then
        python3 -c 'import sys, xml.etree.ElementTree as e; e.parse(sys.argv[1])' "$1" 2>"$tmp/err"
    else
        echo "neither xmllint (libxml2-utils) nor python3 to read $1 with" >"$tmp/err"
        return 1
    fi
}

finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}
