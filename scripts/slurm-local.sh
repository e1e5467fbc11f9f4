#!/usr/bin/env bash
# A real single-node Slurm cluster on localhost, for testing `arcsim sweep --backend slurm`:
# munged + slurmctld + slurmd with a minimal slurm.conf, all state in one folder.
#
#   scripts/slurm-local.sh start DIR   start the daemons; prints "export SLURM_CONF=DIR/slurm.conf"
#   scripts/slurm-local.sh stop DIR    stop the daemons started in DIR (by their pid files)
#   scripts/slurm-local.sh status DIR  sinfo of the cluster in DIR
#
# Needs Debian's slurm-wlm and munge (scripts/setup-deps.sh) and root (slurmd starts jobs as
# their submitting user). Nothing outside DIR is touched: own munge socket and key, own ports.
# 'start' exits 3, after stopping whatever it started, when a daemon cannot start (the reason
# is printed); callers such as tests/sweep may treat 3 as "skip".
set -uo pipefail

die_cannot() {  # daemon could not start: say why, clean up, exit 3
  echo "slurm-local: cannot start: $*" >&2
  [ -n "${dir:-}" ] && stop_daemons "$dir"
  exit 3
}

stop_daemons() {
  local d=$1 name pid i
  for name in slurmd slurmctld munged; do
    [ -f "$d/$name.pid" ] || continue
    pid=$(cat "$d/$name.pid" 2>/dev/null)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null
      for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    fi
    rm -f "$d/$name.pid"
  done
}

free_port() {  # first port from $1 on that nothing listens on
  local p=$1
  while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
  echo "$p"
}

wait_for() {  # wait_for SECONDS CMD...: retry CMD every 0.2 s
  local deadline=$((SECONDS + $1)); shift
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -ge $deadline ] && return 1
    sleep 0.2
  done
}

start() {
  dir=$1
  for tool in munged slurmctld slurmd sbatch squeue sinfo; do
    command -v "$tool" >/dev/null || die_cannot "$tool not installed (scripts/setup-deps.sh installs slurm-wlm and munge)"
  done
  [ "$(id -u)" -eq 0 ] || die_cannot "needs root (slurmd runs jobs as the submitting user)"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [ -f "$dir/slurmctld.pid" ] && kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null &&
    die_cannot "a cluster is already running in $dir"
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
  chmod 700 "$dir/munge"

  # munge: own key and socket, so a system munged (if any) is left alone.
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  munged --force --socket="$dir/munge/munge.socket.2" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" \
    >"$dir/log/munged.out" 2>&1 || die_cannot "munged: $(tail -n1 "$dir/log/munged.out")"
  wait_for 10 test -S "$dir/munge/munge.socket.2" || die_cannot "munged made no socket ($dir/log/munged.log)"

  local host ctld_port slurmd_port cpus mem
  host=$(hostname -s)
  ctld_port=$(free_port 16817)
  slurmd_port=$(free_port $((ctld_port + 1)))
  cpus=$(nproc)
  mem=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)
  cat >"$dir/slurm.conf" <<EOF
# Written by scripts/slurm-local.sh: one node, this host, state under $dir.
ClusterName=arcsim-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket.2
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
MaxArraySize=100001
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf

  slurmctld -f "$SLURM_CONF" -i >"$dir/log/slurmctld.out" 2>&1 ||
    die_cannot "slurmctld: $(tail -n1 "$dir/log/slurmctld.out") ($dir/log/slurmctld.log)"
  wait_for 20 scontrol ping || die_cannot "slurmctld does not answer ($(tail -n1 "$dir/log/slurmctld.log" 2>/dev/null))"
  slurmd -f "$SLURM_CONF" >"$dir/log/slurmd.out" 2>&1 ||
    die_cannot "slurmd: $(tail -n1 "$dir/log/slurmd.out") ($dir/log/slurmd.log)"
  node_idle() { sinfo -h -N -o %t | grep -qx 'idle'; }
  wait_for 30 node_idle ||
    die_cannot "node not idle after 30 s: $(sinfo -h -N -o '%t %E' 2>&1) ($(tail -n1 "$dir/log/slurmd.log" 2>/dev/null))"
  echo "slurm-local: cluster up in $dir (ports $ctld_port/$slurmd_port, $cpus CPUs, partition debug)" >&2
  echo "export SLURM_CONF=$dir/slurm.conf"
}

case "${1:-}" in
  start) [ $# -eq 2 ] || { echo "usage: $0 start DIR" >&2; exit 2; }; start "$2" ;;
  stop) [ $# -eq 2 ] || { echo "usage: $0 stop DIR" >&2; exit 2; }; stop_daemons "$2"; echo "slurm-local: stopped $2" >&2 ;;
  status) [ $# -eq 2 ] || { echo "usage: $0 status DIR" >&2; exit 2; }; SLURM_CONF=$2/slurm.conf sinfo ;;
  *) echo "usage: $0 start|stop|status DIR" >&2; exit 2 ;;
esac
