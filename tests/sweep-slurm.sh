#!/bin/sh
# The 6-run sweep of tests/sweep-lib.sh through a real single-node Slurm cluster on
# localhost: this script starts munged, slurmctld and slurmd with a generated slurm.conf
# (everything under its scratch directory, no accounting), submits the array that
# `catena sweep --emit slurm` writes with sbatch --wait, and checks that
# `catena sweep collect` gives the same sweep.csv values as running the sweep with catena
# sweep. The daemons are stopped by PID when the script exits, however it exits.
# Skipped (exit 77), with the reason, when not root (slurmd runs jobs as their users), when
# the packages are missing (scripts/install-cluster-deps installs them), or when the
# cluster does not come up (the daemons' logs are shown); failed instead when
# CATENA_REQUIRE_CLUSTER=1 (as .ci/run sets it), so that CI cannot skip it unnoticed.
. "$top_srcdir/tests/lib.sh"

skip() {
    if [ "${CATENA_REQUIRE_CLUSTER:-0}" = 1 ]; then
        echo "FAIL: $* (CATENA_REQUIRE_CLUSTER=1: no skipping)"
        exit 1
    fi
    echo "SKIP: $*"
    exit 77
}

[ "$(id -u)" -eq 0 ] || skip "the Slurm test starts slurmd, which must run as root"
for prog in munged slurmctld slurmd sbatch sinfo; do
    command -v "$prog" >/dev/null 2>&1 || [ -x "/usr/sbin/$prog" ] ||
        skip "$prog is not installed (scripts/install-cluster-deps installs munge and slurm-wlm)"
done
PATH=$PATH:/usr/sbin
export PATH

. "$top_srcdir/tests/sweep-lib.sh"

cluster=$tmp/cluster
pids=""
# Stops the daemons this script started, by PID, then removes the scratch directory.
stop_cluster() {
    for pid in $pids; do
        kill "$pid" 2>/dev/null
    done
    for pid in $pids; do
        wait "$pid" 2>/dev/null
    done
    pids=""
}
trap 'stop_cluster; rm -rf "$tmp"' EXIT

# The daemons' logs, for a cluster that does not come up or a job that fails.
show_logs() {
    for f in "$cluster"/log/*; do
        [ -s "$f" ] || continue
        echo "--- $f"
        tail -n 15 "$f"
    done
}

# munged insists that every directory above its socket lets others through, and that its
# key is readable by its owner alone.
mkdir -p "$cluster/munge" "$cluster/key" "$cluster/log" "$cluster/state" "$cluster/spool"
chmod 711 "$tmp" "$cluster" "$cluster/munge"
chmod 700 "$cluster/key"
if command -v mungekey >/dev/null 2>&1 || [ -x /usr/sbin/mungekey ]; then
    mungekey --create --keyfile="$cluster/key/munge.key" >/dev/null 2>&1
else
    dd if=/dev/urandom of="$cluster/key/munge.key" bs=1024 count=1 2>/dev/null
fi
chmod 600 "$cluster/key/munge.key"
socket=$cluster/munge/munge.socket
munged --foreground --socket="$socket" --key-file="$cluster/key/munge.key" \
    --log-file="$cluster/log/munged.log" --pid-file="$cluster/munge/munged.pid" \
    --seed-file="$cluster/munge/munged.seed" 2>>"$cluster/log/munged.log" &
pids="$pids $!"

# Ports away from Slurm's defaults (6817, 6818), so that a cluster already on this machine
# is left alone; derived from the PID so that two test runs do not collide.
port=$((20000 + ($$ % 5000) * 2))
conf=$cluster/slurm.conf
cat >"$conf" <<EOF
ClusterName=catena-test
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/log/slurmctld.log
SlurmdLogFile=$cluster/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=localhost CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
SLURM_CONF=$conf
export SLURM_CONF

tries=0
while [ ! -S "$socket" ] && [ $tries -lt 50 ]; do
    sleep 0.1
    tries=$((tries + 1))
done
[ -S "$socket" ] || { show_logs; skip "munged did not start (its log is above)"; }

slurmctld -D -i -f "$conf" >>"$cluster/log/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -N localhost -f "$conf" >>"$cluster/log/slurmd.out" 2>&1 &
pids="$pids $!"

# The node registers with the controller within seconds; give it half a minute.
tries=0
state=
while [ $tries -lt 60 ]; do
    state=$(sinfo -h -N -n localhost -o %t 2>/dev/null)
    [ "$state" = idle ] && break
    sleep 0.5
    tries=$((tries + 1))
done
if [ "$state" != idle ]; then
    show_logs
    skip "the Slurm cluster on localhost did not come up (node state '${state:-none}'; logs above)"
fi
pass "a single-node Slurm cluster runs on localhost"

cd "$tmp" || exit 99
catena sweep six.json -o local
expect_status 0 "the sweep run here exits 0"

catena sweep six.json --emit slurm -o slurm
expect_status 0 "--emit slurm exits 0"
status=0
timeout 300 sbatch --wait slurm/sweep.sbatch >"$tmp/out" 2>"$tmp/err" || status=$?
expect_status 0 "sbatch --wait of the job array exits 0"
expect_out "Submitted batch job" "sbatch accepted the array"
if [ "$status" -ne 0 ]; then
    show_logs
    tail -n 5 slurm/slurm/*.out 2>/dev/null
fi
expect_eq "$(ls slurm/slurm | wc -l | tr -d ' ')" 6 "six array tasks ran, each with its output file"

catena sweep collect slurm
expect_status 0 "sweep collect after Slurm exits 0"
same_table slurm/sweep.csv local/sweep.csv "Slurm gives the same sweep.csv values"
expect_eq "$(csv_column slurm/sweep.csv status | tr '\n' ' ')" "ok ok ok ok ok ok " \
    "every run finished under Slurm"

stop_cluster
check "the daemons are stopped" sh -c "! sinfo -h >/dev/null 2>&1"

finish
