#!/bin/sh
# The direct projection (solver.global) from the command line: a body whose factorisation
# would pass solver.global_limit is refused before the run starts and by validate (exit 2,
# the body named, Gauss-Seidel suggested), and a run stuck in the factorisation of a dense body stops
# within a second of SIGTERM (exit 143); under solver.global_matrix "fixed" the estimate is
# that of its scalar matrix, and a bad value of the key is refused.
. "$top_srcdir/tests/lib.sh"

# --- refused up front: the curtain's factorisation takes ~1.6e7 operations (AMD order)

catena run -q -o "$tmp/refused" --set solver.global=true --set solver.global_limit=1e6 \
    "$top_srcdir/scenarios/cloth-curtain.json"
expect_status 2 "a body past solver.global_limit: exit 2"
expect_err "scenarios/cloth-curtain.json: solver.global: body 'curtain': one factorisation" \
    "the message names the scenario and the body"
expect_err "past solver.global_limit (1e+06); solve it by Gauss-Seidel (solver.global: false)" \
    "the message states the limit and suggests Gauss-Seidel"
check "nothing is written for a refused run" test ! -e "$tmp/refused/summary.json"

# validate refuses what run would: the same limit in the file
sed 's/"iterations": 20,/"iterations": 20, "global": true, "global_limit": 1e6,/' \
    "$top_srcdir/scenarios/cloth-curtain.json" >"$tmp/limited.json"
catena validate -q "$tmp/limited.json"
expect_status 2 "validate: a body past solver.global_limit: exit 2, as run"
expect_err "limited.json: solver.global: body 'curtain': one factorisation" \
    "validate: the message names the file and the body"
catena validate --json "$tmp/limited.json"
expect_status 2 "validate --json: exit 2"
expect_out '"valid":false' "validate --json: the scenario is not valid"

catena run -q -o "$tmp/allowed" --steps 2 --set solver.global=true \
    "$top_srcdir/scenarios/cloth-curtain.json"
expect_status 0 "the same body under the default limit runs"

# under solver.global_matrix "fixed" the factor is the scalar matrix's (one unknown a point,
# a ninth of the entries): the estimate follows it
catena run -q -o "$tmp/fixed-refused" --set solver.global=true --set solver.global_matrix=fixed \
    --set solver.global_limit=1e5 "$top_srcdir/scenarios/cloth-curtain.json"
expect_status 2 "fixed: a body past solver.global_limit: exit 2"
expect_err "factorisation of its links would take 6.3e+05 operations" "fixed: the estimate is the scalar matrix's"
catena run -q -o "$tmp/fixed-allowed" --steps 2 --set solver.global=true \
    --set solver.global_matrix=fixed --set solver.global_limit=1e6 \
    "$top_srcdir/scenarios/cloth-curtain.json"
expect_status 0 "fixed: the limit that refuses the Newton's factor (1.6e7) lets it run"
check "the summary names the matrix" grep -q '"global_matrix":[[:space:]]*"fixed"' \
    "$tmp/fixed-allowed/summary.json"

catena run -q -o "$tmp/bad-matrix" --set solver.global=true --set solver.global_matrix=exact \
    "$top_srcdir/scenarios/cloth-curtain.json"
expect_status 2 "solver.global_matrix: an unknown value is bad input"
expect_err 'solver.global_matrix=exact: unknown value "exact" (expected "newton" or "fixed")' \
    "the message names the key and what is valid"
sed 's/"global": true/"global": true, "global_matrix": true/' "$top_srcdir/scenarios/direct-chain-1000.json" \
    >"$tmp/matrix-type.json"
catena validate "$tmp/matrix-type.json"
expect_status 2 "solver.global_matrix must be a string"
expect_err "matrix-type.json: solver.global_matrix" "the message names the file and the key"

sed 's/"global": true/"global": true, "global_limit": -1/' "$top_srcdir/scenarios/direct-chain-1000.json" \
    >"$tmp/negative.json"
catena validate "$tmp/negative.json"
expect_status 2 "solver.global_limit must be positive"
expect_err "solver.global_limit" "the message names the key"

# --- stopped inside a factorisation: a 500-point clique, every point linked to every other,
# takes seconds a factorisation (1000 unknowns, dense); SIGTERM half a second after the run
# made its output directory (it has then started stepping).

awk -v n=500 'BEGIN {
  printf "{\"catena\": 1, \"name\": \"clique\", \"dimensions\": 2, \"time\": {\"dt\": 0.01, \"steps\": 100},\n"
  printf " \"solver\": {\"iterations\": 10, \"global\": true},\n \"points\": [\n"
  for (i = 0; i < n; i++)
    printf "  {\"name\": \"p%d\", \"p\": [%.6f, %.6f], \"mass\": %d}%s\n", i,
        cos(6.283185307 * i / n), sin(6.283185307 * i / n), (i < 2 ? 0 : 1), (i + 1 < n ? "," : "")
  printf " ],\n \"links\": [\n"
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++)
      printf "%s  {\"a\": \"p%d\", \"b\": \"p%d\"}", (i + j > 1 ? ",\n" : ""), i, j
  printf "\n ],\n \"output\": {\"trajectory\": [\"csv\"]}\n}\n"
}' >"$tmp/clique.json"

"$CATENA" run -q -o "$tmp/clique" "$tmp/clique.json" 2>"$tmp/clique.err" &
pid=$!
tries=0
while [ ! -d "$tmp/clique" ] && [ "$tries" -lt 600 ]; do
    sleep 0.1
    tries=$((tries + 1))
done
sleep 0.5
kill -TERM "$pid"
start=$(date +%s%N)
status=0
wait "$pid" || status=$?
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
expect_status 143 "SIGTERM during the clique's factorisations: exit 143"
check "it stopped within a second of SIGTERM (${elapsed_ms} ms)" test "$elapsed_ms" -lt 1000
check "the run says it was interrupted" grep -q "interrupted by SIGTERM" "$tmp/clique.err"

finish
