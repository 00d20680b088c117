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

prog=slurm-local
# shellcheck source=scripts/slurm-common.sh
. "$(dirname "$(readlink -f "$0")")/slurm-common.sh"

conf=/etc/slurm/slurm.conf
# Its own clients too, whatever cluster the caller's SLURM_CONF names
# (scripts/slurm-nodes.sh's, for one).
export SLURM_CONF=$conf
mark="# leiserchess scripts/slurm-local.sh: a one-node test cluster"
ctld_pid=$local_ctld_pid
slurmd_pid=/run/slurmd.pid

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
$(conf_common)
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$ctld_pid
SlurmdPidFile=$slurmd_pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
$(node_line)
PartitionName=main Nodes=ALL Default=YES State=UP MaxTime=INFINITE
EOF
}

# The node's state, or nothing if the controller does not answer.
node_state() { sinfo -h -o %T 2>/dev/null | head -n 1 || true; }

# Whether the node takes jobs.
node_up() { case "$(node_state)" in idle | mixed | allocated | completing) ;; *) return 1 ;; esac; }

start() {
  install_slurm
  [ "$(id -u)" -eq 0 ] || die "the daemons start as root; run: sudo $0 start"
  if alive $ctld_pid && alive $slurmd_pid && node_up; then
    echo "slurm-local: already running ($(node_state))"
    return 0
  fi
  stop_daemons
  write_conf
  start_munge
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
  stop_pid_files $slurmd_pid $ctld_pid
  stop_munge
}

stop() {
  if [ -n "$(node_state)" ]; then
    local jobs=()
    mapfile -t jobs < <(squeue -h -o %A 2>/dev/null || true)
    [ ${#jobs[@]} -eq 0 ] || scancel "${jobs[@]}" || true
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
