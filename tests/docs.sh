#!/bin/sh
# The examples of README.md, docs/guide.md and the man pages run as shown: every command is run
# against the built catena, in a scratch directory that holds the repository's scenarios/,
# tests/regression/ and python/, and what it prints must be the output the document shows
# under it: its standard output, then its standard error (as a terminal shows catena's, whose
# messages to stderr close what it prints; captured in one file, stdout's buffer would come
# last).
#
# Which blocks are examples:
#   README.md and docs/guide.md: fenced blocks opened with ```console. A line starting with
#     "$ " is a command (continued on the next line while it ends with "\", and up to the
#     closing word of a here-document it opens); the lines after it, up to the next command,
#     are its output. A "$ " line in any other fenced block fails the test: an example must
#     not escape it. (docs/internals.md's commands are measurements, not examples.)
#   man pages: .EX/.EE blocks whose first line starts with "$ " (roff escapes undone).
#   A line "<!-- needs: TOOL -->" before the fence (a roff comment '.\" needs: TOOL' before
#   .EX) runs the block only where TOOL is there (ffmpeg, numpy, parallel); without it the
#   block is skipped with a message, and fails instead with CATENA_REQUIRE_TEST_TOOLS=1 (CI's
#   .ci/run installs them).
# The commands of one document run in order in one bash (a later example may read what an
# earlier one wrote); "$ echo $?" shows an exit status.
#
# How output is compared: line by line, after these masks, applied alike to both sides and
# only to what varies from one run to the next or one machine to the next:
#   - a line "..." in the document stands for any lines (none included), up to the next
#     line shown (the first one matching it);
#   - wall times: "(0.3 s)" and "(DIR/sweep.csv, 41s)" closing lines, "wall_time" and
#     "steps_per_second" values;
#   - run ids (hex digits);
#   - elsewhere than the platform of tests/regression/PLATFORM, numbers are compared to 6
#     significant digits (another libm rounds the last digits otherwise).
. "$top_srcdir/tests/lib.sh"

docs=$tmp/docs
mkdir "$docs" "$docs/bin" || exit 99
ln -s "$CATENA" "$docs/bin/catena"
python=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import numpy' >/dev/null 2>&1; then
        python=$(command -v "$p")
        ln -s "$python" "$docs/bin/python3"
        break
    fi
done
same_platform=0
[ "$(uname -sm)" = "$(cat "$top_srcdir/tests/regression/PLATFORM")" ] && same_platform=1

# have TOOL: the tool a block needs is there.
have() {
    case $1 in
    numpy) [ -n "$python" ] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
    esac
}

# extract DOC: the examples of DOC as records on stdout, one a line, fields separated by
# \037 (output lines may start with tabs, which read would strip as a separator):
#   C LINE NEEDS TEXT   a command line (TEXT; its continuation lines follow as C records
#                       with LINE 0)
#   O LINE - TEXT       a line of the command's expected output
#   E LINE - TEXT       a "$ " line outside an example block (an error)
extract() {
    case $1 in
    *.md) extract_md "$1" ;;
    *) extract_man "$1" ;;
    esac
}

# The line logic both extractors share, appended to their awk programs.
line_logic='
function doc_line(nr, s) {
    if (cont != "") {
        emit("C", 0, s)
        if (cont == "\\" && s !~ /\\$/) cont = ""
        else if (cont != "\\" && s == cont) cont = ""
        return
    }
    if (s ~ /^\$ /) {
        s = substr(s, 3)
        emit("C", nr, s)
        if (s ~ /\\$/) cont = "\\"
        else if (match(s, /<<-?\047?[A-Za-z_]+\047?/)) {
            cont = substr(s, RSTART + 2, RLENGTH - 2)
            gsub(/[-\047]/, "", cont)
        }
        return
    }
    emit("O", nr, s)
}'
extract_md() {
    awk "$line_logic"'
    function emit(kind, nr, text) {
        printf "%s\037%d\037%s\037%s\n", kind, nr, (needs == "" ? "-" : needs), text
    }
    /^<!-- needs: .* -->$/ { pending = $3; next }
    !fence && /^```/ {
        fence = 1; example = ($0 == "```console"); needs = example ? pending : ""
        pending = ""; cont = ""; next
    }
    fence && /^```$/ { fence = 0; next }
    !fence { if ($0 !~ /^[ \t]*$/) pending = ""; next }
    !example { if (/^\$ /) emit("E", NR, $0); next }
    { doc_line(NR, $0) }
    ' "$1"
}
extract_man() {
    awk "$line_logic"'
    function emit(kind, nr, text) {
        printf "%s\037%d\037%s\037%s\n", kind, nr, (needs == "" ? "-" : needs), text
    }
    function unroff(s) {
        gsub(/\\-/, "-", s); gsub(/\\\(aq/, "\047", s); gsub(/\\\(dq/, "\"", s)
        gsub(/\\\(ha/, "^", s); gsub(/\\\(ti/, "~", s); gsub(/\\&/, "", s)
        gsub(/\\e/, "\\", s)
        return s
    }
    /^\.\\" needs: / { pending = $3; next }
    /^\.EX/ { block = 1; first = 1; needs = pending; pending = ""; cont = ""; next }
    /^\.EE/ { block = 0; next }
    !block { if ($0 !~ /^\.(RS|PP)/) pending = ""; next }
    first { example = ($0 ~ /^\$ /); first = 0 }
    !example { if ($0 ~ /^\$ /) emit("E", NR, $0); next }
    { doc_line(NR, unroff($0)) }
    ' "$1"
}

# mask FILE: the masks above, in place.
mask() {
    sed -E -e 's/\(([0-9]+(\.[0-9]+)?) ?s\)$/(TIME s)/' \
        -e 's/, [0-9]+(\.[0-9]+)?s\)$/, TIME)/' \
        -e 's/("?(wall_time|steps_per_second)"?:[[:space:]]*)[0-9.e+-]+/\1TIME/' \
        -e 's/("?run_id"?:[[:space:]]*"?)[0-9a-f]{8,}/\1RUN_ID/' "$1" >"$1.m"
    if [ "$same_platform" = 0 ]; then
        sed -E -e 's/([0-9]\.[0-9]{5})[0-9]+/\1/g' "$1.m" >"$1.n" && mv "$1.n" "$1.m"
    fi
    mv "$1.m" "$1"
}

# same EXPECTED ACTUAL: ACTUAL matches EXPECTED, where a line "..." matches any lines.
same() {
    awk '
    NR == FNR { want[++n] = $0; next }
    { got[++m] = $0 }
    END {
        i = 1; j = 1
        while (i <= n) {
            if (want[i] == "...") {
                i++
                if (i > n) exit 0
                while (j <= m && got[j] != want[i]) j++
                if (j > m) exit 1
                continue
            }
            if (j > m || got[j] != want[i]) exit 1
            i++; j++
        }
        exit (j <= m)
    }' "$1" "$2"
}

# run_doc DOC: runs DOC's examples and compares their output.
run_doc() {
    doc=$1
    name=${doc#"$top_srcdir"/}
    work=$tmp/work-$(basename "$doc")
    mkdir -p "$work/src" "$work/tests" "$work/out" "$work/want" || exit 99
    cp -R "$top_srcdir/scenarios" "$work/scenarios"
    cp -R "$top_srcdir/tests/regression" "$work/tests/regression"
    ln -s "$top_srcdir/python" "$work/python"
    ln -s "$CATENA" "$work/src/catena"
    chmod -R u+w "$work"
    extract "$doc" >"$work/records"
    grep "^E" "$work/records" | while IFS="$(printf '\037')" read -r _ nr _ text; do
        echo "FAIL: $name:$nr: a command outside an example block (not tested): $text"
    done
    if grep -q "^E" "$work/records"; then
        failed=$((failed + 1))
    fi
    # The script: each command's output to out/N, then its status back in $?; an example
    # whose tool is missing writes "skip" to out/N.skip instead.
    n=0
    skipping=0
    : >"$work/script"
    : >"$work/index"
    while IFS="$(printf '\037')" read -r kind nr needs text; do
        case $kind in
        C)
            if [ "$nr" != 0 ]; then
                [ "$n" = 0 ] ||
                    printf '\n} >out/%d.1 2>out/%d.2; (exit $?)\n' "$n" "$n" >>"$work/script"
                n=$((n + 1))
                : >"$work/want/$n"
                printf '%d\037%s\037%s\037%s\n' "$n" "$nr" "$needs" "$text" >>"$work/index"
                skipping=0
                if [ "$needs" != - ] && ! have "$needs"; then
                    skipping=1
                    printf 'echo skip >out/%d.skip; {\n:' "$n" >>"$work/script"
                    continue
                fi
                printf '{ ' >>"$work/script"
            fi
            [ "$skipping" = 1 ] || printf '%s\n' "$text" >>"$work/script"
            ;;
        O) printf '%s\n' "$text" >>"$work/want/$n" ;;
        esac
    done <"$work/records"
    [ "$n" = 0 ] || printf '\n} >out/%d.1 2>out/%d.2; (exit $?)\n' "$n" "$n" >>"$work/script"
    (cd "$work" && PATH=$docs/bin:$PATH LC_ALL=C.UTF-8 COLUMNS=80 PYTHONDONTWRITEBYTECODE=1 \
        timeout 300 bash --noprofile --norc script >"$work/script.log" 2>&1)
    while IFS="$(printf '\037')" read -r i nr needs text; do
        where="$name:$nr: \$ $text"
        if [ -f "$work/out/$i.skip" ]; then
            if [ "${CATENA_REQUIRE_TEST_TOOLS:-0}" = 1 ]; then
                fail "$where (needs $needs, which is missing; CATENA_REQUIRE_TEST_TOOLS=1)"
            else
                echo "SKIP: $where (needs $needs)"
            fi
            continue
        fi
        if [ ! -f "$work/out/$i.1" ]; then
            fail "$where (did not run: see the script's log below)"
            sed 's/^/    /' "$work/script.log" | tail -5
            continue
        fi
        cat "$work/out/$i.1" "$work/out/$i.2" >"$work/out/$i"
        mask "$work/out/$i"
        mask "$work/want/$i"
        if same "$work/want/$i" "$work/out/$i"; then
            pass "$where"
        else
            fail "$where: the output differs from the document's"
            diff -u "$work/want/$i" "$work/out/$i" | sed -n '3,40s/^/    /p'
        fi
    done <"$work/index"
}

for doc in README.md docs/guide.md man/catena.1 man/catena-scenario.5 man/catena-sweep.5; do
    run_doc "$top_srcdir/$doc"
done
finish
