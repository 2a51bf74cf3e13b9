# The sweep that tests/sweep*.sh run in each way (here, GNU parallel, Slurm), and helpers to
# read sweep.csv. Sourced after tests/lib.sh.

# A 5-point rope pinned at one end, 20 steps: quick enough to run six times per test.
cat >"$tmp/small.json" <<'JSON'
{
  "catena": 1,
  "name": "small",
  "dimensions": 2,
  "time": { "dt": 0.01, "steps": 20 },
  "solver": { "iterations": 10 },
  "bodies": [
    { "type": "rope", "name": "rope", "from": [0, 0], "to": [1, 0], "segments": 4,
      "mass": 1, "pins": ["first"] }
  ],
  "output": { "trajectory": ["csv"], "every": 5 }
}
JSON

# Six runs: three iteration counts times two sweep orders.
cat >"$tmp/six.json" <<'JSON'
{
  "description": "iterations x order on a small rope",
  "base": "small.json",
  "vary": { "solver.iterations": [1, 5, 20], "solver.order": ["forward", "alternate"] },
  "mode": "product",
  "collect": ["summary.final.max_stretch", "summary.parameters.iterations",
              "summary.parameters.order", "summary.steps_done", "summary.wall_time"]
}
JSON
six_names="iterations=1,order=forward iterations=1,order=alternate iterations=5,order=forward
iterations=5,order=alternate iterations=20,order=forward iterations=20,order=alternate"

# csv_table FILE: sweep.csv as tab-separated unquoted fields, without the wall time column
# (the one value that differs from run to run of the same scenario).
csv_table() {
    awk '
    # Splits a CSV line (RFC 4180 quoting; no field here spans lines) into f[1..n].
    function split_csv(line,    i, c, q, s, n) {
        n = 0; s = ""; q = 0
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (q) {
                if (c == "\"" && substr(line, i + 1, 1) == "\"") { s = s c; i++ }
                else if (c == "\"") q = 0
                else s = s c
            } else if (c == "\"") q = 1
            else if (c == ",") { f[++n] = s; s = "" }
            else s = s c
        }
        f[++n] = s
        return n
    }
    {
        n = split_csv($0)
        if (NR == 1)
            for (i = 1; i <= n; i++) drop[i] = f[i] == "summary.wall_time"
        out = ""
        for (i = 1; i <= n; i++)
            if (!drop[i]) out = out (out == "" ? "" : "\t") f[i]
        print out
    }' "$1"
}

# csv_column FILE COLUMN: that column of every row, one per line (quotes removed).
csv_column() {
    csv_table "$1" | awk -F '\t' -v col="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) k = i; next }
        k { print $k }'
}

# same_table A B DESCRIPTION: the two sweep.csv files hold the same values (wall time aside).
same_table() {
    csv_table "$1" >"$tmp/table-a"
    csv_table "$2" >"$tmp/table-b"
    if cmp -s "$tmp/table-a" "$tmp/table-b"; then
        pass "$3"
    else
        fail "$3"
        diff "$tmp/table-a" "$tmp/table-b" | head -n 20 | sed 's/^/    /'
    fi
}
