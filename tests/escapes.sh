#!/bin/sh
# No raw control byte from a name reaches the terminal (issue 20, finding 3): a point, a body
# and a sweep directory's summary.json carry the escape sequences of the issue (set the
# window title, clear the screen, return the carriage and print a fake line), and every
# message that shows them (a divergence, a loader error, sweep collect) shows '?' instead;
# the only control byte left on stderr is the newline that ends each line. (Body and
# scenario names are refused unless they are letters, digits, '_' and '-'.)
. "$top_srcdir/tests/lib.sh"
cd "$tmp" || exit 99

# The JSON escape of the issue's name, and how it must show.
evil='b\u001b]0;PWNED\u0007\u001b[2J\r\nfake: ok'
shown='b?]0;PWNED??[2J??fake: ok'

# raw_controls FILE: succeeds when FILE holds a control byte (C0 but newline, DEL, C1
# 0x80..0x9f outside a UTF-8 character is caught by the '?' check of each case).
raw_controls() {
    LC_ALL=C tr -d '\n' <"$1" | LC_ALL=C grep -q '[[:cntrl:]]'
}

# clean WHAT FILE: FILE has no raw control byte and shows the name as '?'s.
clean() {
    if raw_controls "$2"; then
        fail "$1: a raw control byte reaches the output"
    elif ! grep -qF -- "$shown" "$2"; then
        fail "$1: the name is not shown as '$shown'"
    else
        pass "$1"
    fi
}

# A point named with the escapes that diverges (gravity 1e150).
cat >diverge.json <<JSON
{ "catena": 1, "name": "diverge", "time": { "dt": 0.01, "steps": 10 },
  "world": { "gravity": [0, -1e150] },
  "points": [ { "name": "$evil", "p": [0, 0], "mass": 1 } ] }
JSON
catena run diverge.json -o div
expect_status 1 "the diverging run exits 1"
expect_err "diverged at step" "the divergence is reported"
clean "the divergence message" "$tmp/err"

cat >chain.json <<'JSON'
{ "catena": 1, "name": "chain", "time": { "dt": 0.01, "steps": 5 },
  "bodies": [ { "type": "rope", "name": "chain", "from": [0, 0], "to": [4, 0],
                "segments": 8, "length": 5, "mass": 1, "pins": ["first", "last"] } ] }
JSON

cat >dup.json <<JSON
{ "catena": 1, "time": { "dt": 0.01, "steps": 5 },
  "points": [ { "name": "$evil", "p": [0, 0], "mass": 1 },
              { "name": "$evil", "p": [1, 0], "mass": 1 } ] }
JSON
catena validate dup.json
expect_status 2 "a duplicate name is refused"
clean "the loader's message" "$tmp/err"

# A shared sweep directory where someone wrote a summary.json with escapes in its status.
cat >sweep.json <<'JSON'
{ "base": "chain.json", "vary": { "time.steps": [3] } }
JSON
catena sweep sweep.json -o sw -j 1
expect_status 0 "the sweep runs"
summary=sw/runs/steps=3/summary.json
evil_sed=$(printf '%s' "$evil" | sed 's/[\\&/]/\\&/g')
sed "s/\"status\":[[:space:]]*\"ok\"/\"status\": \"$evil_sed\"/" "$summary" >s.tmp &&
    mv s.tmp "$summary"
catena sweep collect sw
expect_status 1 "collect finds the tampered run not ok"
clean "sweep collect's message" "$tmp/err"

finish
