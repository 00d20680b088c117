#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the lab's distributed mode
# (autotest -slurm, docs/DISTRIBUTED.md) and its tests:
#
#   scripts/slurm-local.sh start    install what is missing, start munged,
#                                   slurmctld and slurmd, wait for an idle node
#   scripts/slurm-local.sh stop     cancel every job, end the daemons
#   scripts/slurm-local.sh status   the daemons and the node's state
#
# Debian's packages (slurmctld slurmd slurm-client munge), installed with
# apt-get as root, else the command that would is printed. No systemd: the
# daemons are started here, as root (slurmctld drops to the slurm user).
# The config goes to /etc/slurm/slurm.conf only if none is there or the one
# there is this script's: a machine's real cluster config is never touched.
set -euo pipefail

conf=/etc/slurm/slurm.conf
mark="# leiserchess scripts/slurm-local.sh: a one-node test cluster"
ctld_pid=/run/slurmctld.pid
slurmd_pid=/run/slurmd.pid
munge_pid=/run/munge/munged.pid

die() { echo "slurm-local: $*" >&2; exit 1; }

install() {
  local missing=()
  for w in slurmctld:/usr/sbin/slurmctld slurmd:/usr/sbin/slurmd \
           slurm-client:/usr/bin/sbatch munge:/usr/sbin/munged; do
    [ -x "${w#*:}" ] || missing+=("${w%%:*}")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null ||
    die "missing ${missing[*]} (Debian package names); install them with your system's package manager"
  [ "$(id -u)" -eq 0 ] ||
    die "missing ${missing[*]}; run as root: apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
  echo "slurm-local: installing ${missing[*]} (apt-get)"
  # The packages' scripts would start the daemons under an init system
  # this machine may not run; a policy-rc.d that says no stops that.
  local policy=/usr/sbin/policy-rc.d had_policy=0
  [ -e $policy ] && had_policy=1
  [ $had_policy -eq 1 ] || { printf '#!/bin/sh\nexit 101\n' >$policy; chmod 755 $policy; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  [ $had_policy -eq 1 ] || rm -f $policy
}

# The node as slurmd sees it, with its address and a little memory kept
# back for the system.
node_line() {
  local line mem
  line=$(slurmd -C | head -n 1)
  mem=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$line")
  line=$(sed 's/ RealMemory=[0-9]*//; s/ UpTime=.*//' <<<"$line")
  echo "$line NodeAddr=127.0.0.1 RealMemory=$(( mem > 1024 ? mem - 512 : mem )) State=UNKNOWN"
}

write_conf() {
  if [ -e $conf ] && ! head -n 1 $conf | grep -qxF "$mark"; then
    die "$conf is there and is not this script's: this machine has a Slurm config of its own; use that cluster (or move the file away)"
  fi
  mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
  chown slurm:slurm /var/spool/slurmctld /var/log/slurm
  local host
  host=$(hostname -s)
  cat >$conf <<EOF
$mark
ClusterName=leiserchess
SlurmctldHost=$host(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
AuthInfo=cred_expire=5
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$ctld_pid
SlurmdPidFile=$slurmd_pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MinJobAge=300
KillWait=5
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0,sched_interval=1,bf_interval=1
$(node_line)
PartitionName=main Nodes=ALL Default=YES State=UP MaxTime=INFINITE
EOF
}

munge_key() {
  local key=/etc/munge/munge.key
  if [ ! -s $key ]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom of=$key bs=1024 count=1 status=none
  fi
  chown munge:munge $key
  chmod 0400 $key
  mkdir -p /run/munge /var/lib/munge /var/log/munge
  chown munge:munge /run/munge /var/lib/munge /var/log/munge
}

alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# The node's state, or nothing if the controller does not answer.
node_state() { sinfo -h -o %T 2>/dev/null | head -n 1 || true; }

# Whether the node takes jobs.
node_up() { case "$(node_state)" in idle | mixed | allocated | completing) ;; *) return 1 ;; esac; }

start() {
  install
  [ "$(id -u)" -eq 0 ] || die "the daemons start as root; run: sudo $0 start"
  if alive $ctld_pid && alive $slurmd_pid && node_up; then
    echo "slurm-local: already running ($(node_state))"
    return 0
  fi
  stop_daemons
  write_conf
  munge_key
  alive $munge_pid || runuser -u munge -- /usr/sbin/munged --origin=127.0.0.1 ||
    die "munged did not start (see /var/log/munge/munged.log)"
  # -c: a test cluster starts empty. Jobs saved by a controller that was
  # killed (a machine restarted mid-run) would otherwise be requeued and
  # hold the node, so that it never comes up idle.
  /usr/sbin/slurmctld -c || die "slurmctld did not start (see /var/log/slurm/slurmctld.log)"
  /usr/sbin/slurmd || die "slurmd did not start (see /var/log/slurm/slurmd.log)"
  local state=""
  for _ in $(seq 1 60); do
    state=$(node_state)
    [ "$state" = idle ] && break
    sleep 0.5
  done
  [ "$state" = idle ] ||
    die "the node is '${state:-not known}' after 30 s; jobs: $(squeue -h -o '%A %T %j' 2>/dev/null | tr '\n' ';'); reason: $(sinfo -h -o %E 2>/dev/null) (see /var/log/slurm/slurmd.log and slurmctld.log)"
  echo "slurm-local: one node up and idle ($(sinfo -h -o '%c CPUs, %m MB, partition %P'))"
}

# Ends the daemons by the PIDs in their pid files, and removes the files:
# a stale one stops the next start.
stop_daemons() {
  for f in $slurmd_pid $ctld_pid $munge_pid; do
    if alive $f; then
      local pid
      pid=$(cat $f)
      kill "$pid"
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f $f
  done
}

stop() {
  if [ -n "$(node_state)" ]; then
    local jobs
    jobs=$(squeue -h -o %A 2>/dev/null || true)
    [ -z "$jobs" ] || scancel $jobs || true
  fi
  stop_daemons
  echo "slurm-local: stopped"
}

status() {
  for d in munged:$munge_pid slurmctld:$ctld_pid slurmd:$slurmd_pid; do
    if alive "${d#*:}"; then echo "${d%%:*}: running (pid $(cat "${d#*:}"))"
    else echo "${d%%:*}: not running"; fi
  done
  local state
  state=$(node_state)
  echo "node: ${state:-no answer from slurmctld}"
  node_up
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
