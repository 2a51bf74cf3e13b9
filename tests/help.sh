#!/bin/sh
# Each command's own help (catena CMD --help, catena help CMD), the did-you-mean for commands
# and options, the short options that mean one thing everywhere (-q quiet, -t threads, -j jobs,
# -o output), option errors that name the option, and the manual that documents every option
# the commands take.
. "$top_srcdir/tests/lib.sh"

small_rope "$tmp/small.json" small 20 '"trajectory": ["csv"]'

# The commands, as `catena --help` lists them: "run", ..., "sweep collect", ...
"$CATENA" --help >"$tmp/global"
sed -n '/^Commands:$/,/^$/p' "$tmp/global" | sed -n 's/^  \([a-z][a-z]*\( [a-z][a-z]*\)\{0,1\}\).*/\1/p' |
    sed 's/ [A-Z].*//' >"$tmp/commands"
check "catena --help lists the commands" grep -qx 'sweep collect' "$tmp/commands"
check "catena --help lists run" grep -qx run "$tmp/commands"
check "catena --help is short (one line per command, no options)" test "$(lines "$tmp/global")" -lt 40

# --- every command's own help

while read -r command; do
    # shellcheck disable=SC2086 # two words for "sweep collect"
    catena $command --help
    expect_status 0 "catena $command --help exits 0"
    check "catena $command --help is $command's own usage" \
        grep -q "^Usage: catena $command \[OPTION\]\.\.\." "$tmp/out"
    check "catena $command --help is not the program's help" sh -c "! grep -q '^Commands:' '$tmp/out'"
    check "catena $command --help has an example" grep -q '^Example:' "$tmp/out"
    check "catena $command --help lists -h, --help" grep -q '^  -h, --help  ' "$tmp/out"
    check "catena $command --help fits 80 columns" sh -c "! grep -q '.\{81\}' '$tmp/out'"
    cp "$tmp/out" "$tmp/own"
    # shellcheck disable=SC2086
    catena help $command
    expect_status 0 "catena help $command exits 0"
    check "catena help $command is catena $command --help" cmp -s "$tmp/out" "$tmp/own"
    # Every long option in the help is in the manual, in the section of the command's options.
    awk -v title=".SS Options of $command" '$0 == title { on = 1; next }
        /^\.S[SH] / { on = 0 } on' "$top_srcdir/man/catena.1" >"$tmp/section"
    for opt in $(sed -n 's/^  \(-[a-zA-Z], \)\{0,1\}--\([a-z-]*\).*/\2/p' "$tmp/own"); do
        [ "$opt" = help ] && continue
        man_opt=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
        check "man/catena.1, Options of $command, documents --$opt" \
            grep -q "^\\.B.*\\\\-\\\\-$man_opt" "$tmp/section"
    done
done <"$tmp/commands"
check "catena --help lines fit 80 columns" sh -c "! grep -q '.\{81\}' '$tmp/global'"

# The README shows the program's help as it is.
awk '/^Usage: catena COMMAND/ { on = 1 } on && /^```$/ { exit } on' "$top_srcdir/README.md" \
    >"$tmp/readme-help"
check "README.md shows catena --help as it is" cmp -s "$tmp/readme-help" "$tmp/global"

catena sweep collect --help
expect_out "Usage: catena sweep collect [OPTION]... DIR" \
    "sweep collect --help is help, not a directory named --help"
catena run --help
expect_out "  -t, --threads=N" "run's help lists -t, --threads"
check "run's help leaves the retired -j out" sh -c "! grep -q -- '-j,' '$tmp/out'"
catena help
expect_status 0 "catena help exits 0"
check "catena help is catena --help" cmp -s "$tmp/out" "$tmp/global"

catena help frobnicate
expect_status 2 "help for an unknown command exits 2"
expect_err "catena: unknown command 'frobnicate' (commands: run, validate" \
    "help for an unknown command lists the commands"
catena help run extra
expect_status 2 "help with an extra argument exits 2"
expect_err "catena: help: unexpected argument 'extra'" "help names the extra argument"

# --- did-you-mean

catena rnu "$tmp/small.json"
expect_status 2 "a mistyped command exits 2"
expect_eq "$(head -n 1 "$tmp/err")" "catena: unknown command 'rnu' (did you mean 'run'?)" \
    "a mistyped command gets a did-you-mean (two letters swapped)"
catena valdate "$tmp/small.json"
expect_eq "$(head -n 1 "$tmp/err")" "catena: unknown command 'valdate' (did you mean 'validate'?)" \
    "a mistyped command gets a did-you-mean (a letter left out)"
catena run --stpes 5 "$tmp/small.json"
expect_status 2 "a mistyped option exits 2"
expect_eq "$(cat "$tmp/err")" "catena: unrecognized option '--stpes' (did you mean '--steps'?)
Try 'catena run --help' for more information." "a mistyped option gets a did-you-mean and the command's hint"
catena sweep --dryrun x.json
expect_err "catena: unrecognized option '--dryrun' (did you mean '--dry-run'?)" \
    "sweep's options get a did-you-mean"
catena run --zzzzzz "$tmp/small.json"
expect_eq "$(head -n 1 "$tmp/err")" "catena: unrecognized option '--zzzzzz'" \
    "an option like none gets no did-you-mean"
catena run --s 5 "$tmp/small.json"
expect_err "catena: option '--s' is ambiguous; possibilities: '--steps' '--set'" \
    "an ambiguous prefix lists what it could be"
catena run --plot=yes "$tmp/small.json"
expect_err "catena: option '--plot' doesn't allow an argument" "an argument to a flag is refused"
catena run "$tmp/small.json" --steps
expect_err "catena: option '--steps' requires an argument" "a missing argument is named"
catena run "$tmp/small.json" -o
expect_err "catena: option requires an argument -- 'o'" "a missing short argument is named"
catena run -x "$tmp/small.json"
expect_err "catena: invalid option -- 'x'" "an unknown short option is named"

# --- one meaning per short option

catena run -j 2 -o "$tmp/j" "$tmp/small.json"
expect_status 2 "run -j is refused"
expect_err "catena: run: -j is now -t, --threads (the solver's threads); -j is the runs at a time of catena sweep" \
    "run -j says what took its place"
check "run -j writes nothing" test ! -e "$tmp/j"
catena run -t 2 -q -o "$tmp/t2" "$tmp/small.json"
expect_status 0 "run -t 2 runs"
catena run -q -o "$tmp/t1" "$tmp/small.json"
check "run -t 2 writes the bytes of one thread" cmp -s "$tmp/t1/trajectory.csv" "$tmp/t2/trajectory.csv"
check "run -t 2 sets solver.threads" json_has "$tmp/t2/scenario.json" threads 2
catena bench -j 2 --quick
expect_status 2 "bench -j is refused"
expect_err "catena: bench: -j is now -t, --threads" "bench -j says what took its place"

# -q: every command that prints progress or chatter takes it.
catena validate -q "$tmp/small.json"
expect_status 0 "validate -q exits 0 for a good scenario"
check "validate -q prints nothing" test ! -s "$tmp/out"
catena validate "$tmp/small.json"
check "validate without -q describes the scenario" grep -q '^points' "$tmp/out"
printf '{"catena": 1}' >"$tmp/bad.json"
catena validate --quiet "$tmp/bad.json"
expect_status 2 "validate -q exits 2 for a bad scenario"
expect_err 'catena: '"$tmp"'/bad.json: missing required key "time"' "validate -q still reports errors"
catena compare -q "$tmp/t1/trajectory.csv" "$tmp/t2/trajectory.csv"
expect_status 0 "compare -q exits 0 for equal trajectories"
check "compare -q prints no report" test ! -s "$tmp/out"
catena run -q -o "$tmp/fewer" --set solver.iterations=1 "$tmp/small.json"
catena compare -q "$tmp/fewer/trajectory.csv" "$tmp/t1/trajectory.csv"
expect_status 1 "compare -q exits 1 for different trajectories"
check "compare -q prints no report when they differ" test ! -s "$tmp/out"
expect_err "differ:" "compare -q still says on stderr that they differ"

# --- option errors name the option

catena run --every 0 -o "$tmp/never" "$tmp/small.json"
expect_eq "$(cat "$tmp/err")" "catena: --every: must be at least 1 (got 0)" "--every 0 names --every"
catena run --set time.steps=-5 -o "$tmp/never" "$tmp/small.json"
expect_eq "$(cat "$tmp/err")" "catena: --set time.steps=-5: must be at least 0 (got -5)" \
    "a --set value is named as the --set that gave it"
catena run --set time.steps=-5 --steps 10 -q -o "$tmp/won" "$tmp/small.json"
expect_status 0 "--steps wins over a --set of the same key"
catena run --set solver.iteratoins=4 -o "$tmp/never" "$tmp/small.json"
expect_eq "$(cat "$tmp/err")" \
    "catena: --set solver.iteratoins=4: unknown key (did you mean \"iterations\"?)" \
    "a --set key typo is named as the --set, with a did-you-mean"
catena run --set 'output.trajectory=["xml"]' -o "$tmp/never" "$tmp/small.json"
expect_eq "$(cat "$tmp/err")" \
    "catena: --set output.trajectory=[\"xml\"]: output.trajectory[0]: unknown value \"xml\" (expected \"csv\", \"json\" or \"npy\")" \
    "an error inside a --set value names the --set and the place"
catena run --set bodies.0.segments=0 -o "$tmp/never" "$tmp/small.json"
expect_eq "$(cat "$tmp/err")" "catena: --set bodies.0.segments=0: must be at least 1 (got 0)" \
    "a --set into an array element is named"
catena run --set bodies.0.mass=2 --set bodies.0.segments=0 -o "$tmp/never" "$tmp/small.json"
expect_eq "$(cat "$tmp/err")" "catena: --set bodies.0.segments=0: must be at least 1 (got 0)" \
    "only the --set of the bad value is named"
printf '{"catena": 1, "time": {"dt": 0.01, "steps": -1}, "points": [{"p": [0, 0]}]}' \
    >"$tmp/neg.json"
catena run --every 2 -o "$tmp/never" "$tmp/neg.json"
expect_eq "$(cat "$tmp/err")" "catena: $tmp/neg.json: time.steps: must be at least 0 (got -1)" \
    "an error in the file still names the file, whatever the options"
test ! -e "$tmp/never"
check "nothing is written for a bad option value" test $? -eq 0

finish
