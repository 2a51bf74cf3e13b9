#!/bin/sh
# catena schema scenario|sweep: the JSON Schemas (draft 2020-12) are valid schemas, take every
# shipped scenario and sweep, refuse a misspelt key (solver.iteratoins) and every bad file
# the loader refuses for an unknown key, and agree with the loader on every object of the
# format (tests/schema_walk.py). The checks that need python3-jsonschema skip without it.
. "$top_srcdir/tests/lib.sh"

catena schema scenario
expect_status 0 "schema scenario exits 0"
cp "$tmp/out" "$tmp/scenario.schema.json"
expect_out '"$schema":	"https://json-schema.org/draft/2020-12/schema"' \
    "the scenario schema is draft 2020-12"
catena schema sweep
expect_status 0 "schema sweep exits 0"
cp "$tmp/out" "$tmp/sweep.schema.json"
catena schema bogus
expect_status 2 "schema of an unknown kind exits 2"
expect_err "catena: schema: unknown file kind 'bogus' (valid: scenario, sweep)" \
    "schema names the kinds it knows"
catena schema
expect_status 2 "schema without a kind exits 2"
expect_err "catena: schema: missing scenario or sweep" "schema says what is missing"
catena schema scenario sweep
expect_err "catena: schema: unexpected argument 'sweep'" "schema takes one kind"
catena schema scenario
check "schema writes the same bytes twice" cmp -s "$tmp/out" "$tmp/scenario.schema.json"

# python3-jsonschema: Debian's python3 has it when the package is installed; a python3 of
# its own (a virtual environment, pyenv) may have it from pip.
python=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import jsonschema; jsonschema.Draft202012Validator' >/dev/null 2>&1; then
        python=$p
        break
    fi
done
if [ -z "$python" ]; then
    echo "SKIP: python3-jsonschema is not installed: the schemas are not checked"
    finish
fi

# check_files SCHEMA FILE...: prints "FILE: PATH: message" for each error (none: valid).
check_files() {
    "$python" - "$@" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
check = jsonschema.Draft202012Validator(schema)
for f in sys.argv[2:]:
    for e in check.iter_errors(json.load(open(f))):
        print("%s: %s: %s" % (f, "/".join(map(str, e.absolute_path)), e.message))
PY
}

scenarios=$(find "$top_srcdir/scenarios" "$top_srcdir/tests/data/schema" -name '*.json' \
    ! -path '*/sweeps/*' | sort)
check_files "$tmp/scenario.schema.json" $scenarios >"$tmp/errors" 2>&1
check "every shipped scenario is valid under catena schema scenario" test ! -s "$tmp/errors"
sed 's/^/    /' "$tmp/errors" | head -n 10
check "the scenarios checked are many" test "$(echo "$scenarios" | wc -l)" -ge 30

sweeps=$(find "$top_srcdir/scenarios" -path '*/sweeps/*.json' | sort)
check_files "$tmp/sweep.schema.json" $sweeps >"$tmp/errors" 2>&1
check "every shipped sweep is valid under catena schema sweep" test ! -s "$tmp/errors"
sed 's/^/    /' "$tmp/errors" | head -n 10

# A misspelt key: the schema refuses it, as the loader does.
sed 's/"solver": {/"solver": { "iteratoins": 40,/' "$top_srcdir/scenarios/hanging-chain.json" \
    >"$tmp/misspelt.json"
catena validate "$tmp/misspelt.json"
expect_err 'solver.iteratoins: unknown key (did you mean "iterations"?)' \
    "the loader refuses solver.iteratoins"
check_files "$tmp/scenario.schema.json" "$tmp/misspelt.json" >"$tmp/errors" 2>&1
expect_eq "$(cat "$tmp/errors")" \
    "$tmp/misspelt.json: solver: Additional properties are not allowed ('iteratoins' was unexpected)" \
    "the schema refuses solver.iteratoins"
printf '{"base": "x.json", "vary": {"solver.iterations": [1]}, "colect": []}' >"$tmp/sweep.json"
check_files "$tmp/sweep.schema.json" "$tmp/sweep.json" >"$tmp/errors" 2>&1
expect_eq "$(cat "$tmp/errors")" \
    "$tmp/sweep.json: : Additional properties are not allowed ('colect' was unexpected)" \
    "the sweep schema refuses a misspelt key"

# Every bad file that the loader refuses for an unknown key, the schema refuses too.
bad=$(grep -l 'unknown key' "$top_srcdir"/tests/data/bad/*.err | sed 's/\.err$/.json/')
check_files "$tmp/scenario.schema.json" $bad >"$tmp/errors" 2>&1
n=0
for json in $bad; do
    n=$((n + 1))
    check "${json##*/}: the schema refuses it too" grep -q "^$json: " "$tmp/errors"
done
check "bad files with unknown keys were checked" test "$n" -ge 5

# The schema and the loader agree on every object of the format: its keys, the keys each type
# takes, and what its keys hold (tests/schema_walk.py says how).
mkdir "$tmp/walk"
"$python" "$top_srcdir/tests/schema_walk.py" "$CATENA" "$tmp/scenario.schema.json" "$tmp/walk" \
    $scenarios >"$tmp/walk.out" 2>&1
status=$?
check "schema and loader agree on every object ($(tail -n 1 "$tmp/walk.out"))" test "$status" -eq 0
grep -v 'objects checked' "$tmp/walk.out" | sed 's/^/    /' | head -n 20

finish
