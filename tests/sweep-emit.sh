#!/bin/sh
# Emitted jobs run exactly what the sweep says (issue 20, finding 1): a property test over
# generated values. Each round varies a point's name over four values drawn from shell
# metacharacters, quotes, "$(touch PWNED)" and its kin, UTF-8 and, in about a third of the
# rounds, one control character (newline, tab, CR, ESC, 0x01, DEL). `catena sweep --emit
# slurm` must then either refuse the sweep (exit 2, naming the control character, writing
# nothing) or write jobs.txt with one line per run, each of which - run by the emitted
# sweep.sbatch itself, as Slurm would, with a stand-in for catena that records its
# arguments - calls catena exactly once with the exact value. Nothing injected may run. The
# other words of a line (the base scenario's path, -o, --catena) are refused the same way,
# and a relative --catena becomes absolute.
. "$top_srcdir/tests/lib.sh"
cd "$tmp" || exit 99

cat >base.json <<'JSON'
{ "catena": 1, "name": "base", "time": { "dt": 0.01, "steps": 2 },
  "points": [ { "name": "p0", "p": [0, 0], "mass": 1 }, { "name": "p1", "p": [1, 0], "mass": 1 } ] }
JSON

# Stands in for catena in the jobs: counts its calls and keeps the value of its --set, in
# $REC/calls.$SLOT and $REC/set.$SLOT.
cat >fake-catena <<'SH'
#!/bin/sh
echo call >>"$REC/calls.$SLOT"
while [ $# -gt 0 ]; do
    if [ "$1" = --set ]; then
        printf '%s' "$2" >"$REC/set.$SLOT"
        shift
    fi
    shift
done
SH
chmod +x fake-catena

rounds=40
# Writes sweep-R.json, expect-R-K (the override's exact bytes) and, for the rounds with a
# control character, ctl-R. Every token is written raw and as JSON; the seed is fixed, so
# every run of the test draws the same values.
LC_ALL=C awk -v rounds=$rounds '
BEGIN {
    srand(20);
    n = 0
    t("a", "a"); t("Z9", "Z9"); t(" ", " "); t("'\''", "'\''"); t("\"", "\\\"");
    t("\\", "\\\\"); t("$", "$"); t("`", "`"); t(";", ";"); t("|", "|"); t("&", "&");
    t("(", "("); t(")", ")"); t("*", "*"); t("?", "?"); t("[", "["); t("]", "]");
    t("{", "{"); t("}", "}"); t("~", "~"); t("#", "#"); t("!", "!"); t("%", "%");
    t("<", "<"); t(">", ">"); t("=", "="); t(",", ","); t("-", "-"); t("^", "^");
    t("$(touch PWNED)", "$(touch PWNED)"); t("`touch PWNED`", "`touch PWNED`");
    t("'\''; touch PWNED; '\''", "'\''; touch PWNED; '\''");
    t("\"; touch PWNED; \"", "\\\"; touch PWNED; \\\""); t("${IFS}", "${IFS}");
    t("\303\251", "\303\251"); t("\342\202\254", "\342\202\254")
    nc = 0
    c("\n", "\\n"); c("\t", "\\t"); c("\r", "\\r"); c("\033", "\\u001b");
    c("\001", "\\u0001"); c("\177", "\\u007f")
    for (r = 1; r <= rounds; r++) {
        ctl = rand() < 1 / 3 ? 1 + int(rand() * 4) : 0
        json = "{ \"base\": \"base.json\", \"vary\": { \"points.1.name\": ["
        for (k = 1; k <= 4; k++) {
            raw = "v" r "_" k "_"; js = raw
            len = int(rand() * 9)
            at = int(rand() * (len + 1))
            for (i = 0; i <= len; i++) {
                if (k == ctl && i == at) {
                    j = 1 + int(rand() * nc); raw = raw CR[j]; js = js CJ[j]
                }
                if (i < len) {
                    j = 1 + int(rand() * n); raw = raw R[j]; js = js J[j]
                }
            }
            printf "points.1.name=%s", raw >("expect-" r "-" k)
            json = json (k > 1 ? ", " : "") "\"" js "\""
        }
        print json "] } }" >("sweep-" r ".json")
        if (ctl)
            print "" >("ctl-" r)
    }
}
function t(raw, js) { n++; R[n] = raw; J[n] = js }
function c(raw, js) { nc++; CR[nc] = raw; CJ[nc] = js }
'

mkdir rec
# run_tasks DIR: runs each task of DIR/sweep.sbatch as Slurm would (SLURM_ARRAY_TASK_ID 0..3),
# recording task K's calls under SLOT K.
run_tasks() {
    k=1
    while [ $k -le 4 ]; do
        rm -f rec/*."$k"
        SLURM_ARRAY_TASK_ID=$((k - 1)) REC=$tmp/rec SLOT=$k sh "$1/sweep.sbatch" >/dev/null 2>&1
        k=$((k + 1))
    done
}
refused=0 emitted=0 bad_refusal= bad_lines= bad_calls= bad_values=
r=1
while [ $r -le $rounds ]; do
    catena sweep "sweep-$r.json" --emit slurm -o "out-$r" --catena "$tmp/fake-catena"
    # Whatever was emitted runs, so that an injection would show as a PWNED file.
    [ "$status" -eq 0 ] && run_tasks "out-$r"
    if [ -e "ctl-$r" ]; then
        refused=$((refused + 1))
        if [ "$status" -ne 2 ] || ! grep -q 'has a control character' "$tmp/err" ||
            [ -e "out-$r" ]; then
            bad_refusal="$bad_refusal $r"
        fi
    elif [ "$status" -ne 0 ] || [ "$(lines "out-$r/jobs.txt")" != 4 ]; then
        bad_lines="$bad_lines $r"
    else
        emitted=$((emitted + 1))
        for k in 1 2 3 4; do
            [ "$(cat rec/calls.$k 2>/dev/null)" = call ] || bad_calls="$bad_calls $r.$k"
            cmp -s "rec/set.$k" "expect-$r-$k" || bad_values="$bad_values $r.$k"
        done
    fi
    r=$((r + 1))
done
check "the generator made rounds of both kinds ($refused refused, $emitted emitted)" \
    test "$refused" -ge 5 -a "$emitted" -ge 20
expect_eq "$bad_refusal" "" "a control character in a value: exit 2, no directory written"
expect_eq "$bad_lines" "" "without one: exit 0 and one line of jobs.txt per run"
expect_eq "$bad_calls" "" "each line, run by sweep.sbatch, calls catena exactly once"
expect_eq "$bad_values" "" "... with the value of the sweep file, byte for byte"
check "nothing injected ran (no PWNED file)" test ! -e PWNED

# The issue's case, through --dry-run and --emit parallel too.
printf '%s\n' '{"base":"base.json","vary":{"points.1.name":["ok1","x\ntouch pwned #","ok2"]}}' \
    >nl.json
for how in "--emit slurm" "--emit parallel" "--dry-run"; do
    catena sweep nl.json $how -o nl --catena "$tmp/fake-catena"
    expect_status 2 "a newline in a value: $how refuses the sweep"
    [ "$status" -eq 0 ] && [ -e nl/sweep.sbatch ] && run_tasks nl
done
expect_err "nl.json: run name=x%0Atouch%20pwned%20%23: the override \"points.1.name=x?touch pwned #\" has a control character (0x0A)" \
    "the message names the run, the override and the character"
check "nothing written" test ! -e nl
check "nothing injected ran" test ! -e pwned

# The other words of a line: the base scenario's path, -o and --catena.
nl='
'
mkdir "base${nl}dir"
cp base.json "base${nl}dir/base.json"
printf '{"base":"base\\ndir/base.json","vary":{"time.steps":[1,2]}}\n' >base-nl.json
catena sweep base-nl.json --emit parallel -o bn
expect_status 2 "a newline in the base scenario's path is refused"
expect_err "the base scenario's path" "... naming it"
catena sweep sweep-1.json --emit parallel -o "dir${nl}touch pwned"
expect_status 2 "a newline in -o is refused"
check "... before the directory is made" test ! -e "dir${nl}touch pwned"
catena sweep sweep-1.json --emit parallel -o cat --catena "./cat${nl}touch pwned"
expect_status 2 "a newline in --catena is refused"
expect_err "the catena program's path (--catena)" "... naming it"

# A relative --catena is made absolute, as the jobs run from anywhere.
catena sweep sweep-2.json --emit parallel -o rel --catena ./fake-catena
expect_status 0 "--catena ./fake-catena is accepted"
check "jobs.txt names it by its absolute path" grep -q "^$tmp/fake-catena run " rel/jobs.txt

finish
