#!/bin/sh
# validate --json (one JSON line per scenario, the same values as the text), and a scenario
# read from standard input with "-" by validate and run (messages say <stdin>, the run still
# writes scenario.json and the file's hash, a terminal is refused).
. "$top_srcdir/tests/lib.sh"

s=$top_srcdir/scenarios
small_rope "$tmp/small.json" small 20 '"trajectory": ["csv"]'

# --- validate --json

catena validate --json "$s/pendulum.json" "$tmp/small.json"
expect_status 0 "validate --json exits 0"
expect_eq "$(lines "$tmp/out")" 2 "validate --json prints one line per scenario"
cp "$tmp/out" "$tmp/two.json"
printf '{"catena": 1, "time": {"dt": 0, "steps": 1}}' >"$tmp/bad.json"
catena validate --json "$tmp/bad.json" "$s/pendulum.json"
expect_status 2 "validate --json exits 2 when a scenario is bad"
expect_eq "$(head -n 1 "$tmp/out")" \
    "{\"file\":\"$tmp/bad.json\",\"valid\":false,\"error\":\"$tmp/bad.json: time.dt: must be greater than 0 (got 0)\"}" \
    "a bad scenario's line says valid false and the error"
expect_err "catena: $tmp/bad.json: time.dt: must be greater than 0 (got 0)" \
    "the error is still on stderr"
check "the good scenario after it is still described" \
    grep -q '"file":"[^"]*pendulum.json","valid":true' "$tmp/out"
catena validate --json -q "$s/pendulum.json"
check "validate --json -q prints nothing" test ! -s "$tmp/out"

if command -v python3 >/dev/null 2>&1; then
    # Every shipped scenario: the JSON parses, and says what the text says.
    find "$s" -name '*.json' ! -path '*/sweeps/*' | sort >"$tmp/shipped"
    k=0
    while read -r f; do
        k=$((k + 1))
        "$CATENA" validate "$f" >"$tmp/text.$k" 2>>"$tmp/err"
        "$CATENA" validate --json "$f" >"$tmp/json.$k" 2>>"$tmp/err"
    done <"$tmp/shipped"
    python3 - "$tmp" "$k" >"$tmp/diff" 2>&1 <<'PY'
import json, sys
tmp, n = sys.argv[1], int(sys.argv[2])
for k in range(1, n + 1):
    text = {}
    for line in open("%s/text.%d" % (tmp, k)):
        if line[:1] not in (" ", "\n"):
            key, _, value = line.rstrip("\n").partition(" ")
            text[key] = value.strip()
    j = json.loads(open("%s/json.%d" % (tmp, k)).read())
    want = {
        "scenario": j["name"], "points": str(j["points"]), "links": str(j["links"]),
        "pins": str(j["pins"]), "dimensions": str(j["dimensions"]),
        "dt": repr(j["time"]["dt"]) + " s", "steps": str(j["time"]["steps"]),
        "substeps": str(j["time"]["substeps"]), "method": j["solver"]["method"],
        "iterations": str(j["solver"]["iterations"]), "order": j["solver"]["order"],
        "bodies": str(len(j["bodies"])),
        "every": "%d (%d frames)" % (j["every"], j["frames"]),
    }
    for key, value in want.items():
        if text.get(key) != value:
            print("%s: %s: text %r, json %r" % (j["file"], key, text.get(key), value))
    if j["valid"] is not True:
        print("%s: not valid" % j["file"])
PY
    check "validate --json says what the text says, on all $k shipped scenarios" \
        test ! -s "$tmp/diff"
    sed 's/^/    /' "$tmp/diff" | head -n 5
    check "the shipped scenarios are many" test "$k" -ge 30
else
    echo "SKIP: python3 is not installed: the JSON of validate --json is not parsed"
fi

# --- a scenario from standard input

catena validate - <"$s/pendulum.json"
expect_status 0 "validate - reads standard input"
expect_out "file        <stdin>" "validate - names the file <stdin>"
catena validate --json - <"$s/pendulum.json"
expect_out '"file":"<stdin>","valid":true,"name":"pendulum"' "validate --json - names the file <stdin>"
catena validate - <"$tmp/bad.json"
expect_status 2 "a bad scenario on standard input exits 2"
expect_eq "$(cat "$tmp/err")" "catena: <stdin>: time.dt: must be greater than 0 (got 0)" \
    "messages about standard input say <stdin>"
catena validate - - <"$s/pendulum.json"
expect_status 2 "validate - - exits 2"
expect_err "catena: validate: - (standard input) given more than once" "- twice is refused"

catena run - -q -o "$tmp/piped" <"$s/pendulum.json"
expect_status 0 "run - reads the scenario from standard input"
catena run "$s/pendulum.json" -q -o "$tmp/named"
check "run - writes the same trajectory as the file" \
    cmp -s "$tmp/piped/trajectory.csv" "$tmp/named/trajectory.csv"
check "run - writes scenario.json" cmp -s "$tmp/piped/scenario.json" "$tmp/named/scenario.json"
sum=$(sha256sum "$s/pendulum.json" | cut -d ' ' -f 1)
check "run - records the SHA-256 of the bytes it read" \
    json_has "$tmp/piped/summary.json" sha256 "\"$sum\""
check "the summary says where the scenario came from" \
    json_has "$tmp/piped/summary.json" file '"<stdin>"'
catena run "$tmp/piped/scenario.json" -q -o "$tmp/again"
check "the scenario.json of a run from standard input runs again to the same bytes" \
    cmp -s "$tmp/piped/trajectory.csv" "$tmp/again/trajectory.csv"

# Without "name", a scenario from standard input is named "stdin": runs/stdin.
sed '/"name": "small"/d' "$tmp/small.json" >"$tmp/noname.json"
(cd "$tmp" && "$CATENA" run - -q <noname.json) 2>"$tmp/err"
check "a scenario from standard input without a name runs into runs/stdin" \
    test -f "$tmp/runs/stdin/trajectory.csv"
check "its scenario.json gets the name stdin" json_has "$tmp/runs/stdin/scenario.json" name '"stdin"'

catena run - --steps -1 -o "$tmp/never" <"$s/pendulum.json"
expect_eq "$(cat "$tmp/err")" "catena: --steps: must be at least 0 (got -1)" \
    "an option's error names the option with a scenario from standard input too"
check "nothing is written" test ! -e "$tmp/never"

# A terminal on standard input is refused, not waited on (script(1) gives one).
if command -v script >/dev/null 2>&1; then
    script -qec "'$CATENA' validate -; echo status \$?" /dev/null </dev/null >"$tmp/term" 2>&1
    check "a terminal on standard input is refused" grep -q \
        "catena: <stdin>: standard input is a terminal; pipe a scenario in (catena run - <FILE) or name the file" \
        "$tmp/term"
    check "a terminal on standard input exits 2" grep -q 'status 2' "$tmp/term"
else
    echo "SKIP: script(1) is not installed: no terminal to refuse"
fi

finish
