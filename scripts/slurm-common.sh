# What the test clusters' scripts share (scripts/slurm-local.sh, the
# one-node cluster; scripts/slurm-nodes.sh, the multi-node one): Debian's
# packages installed when missing, the munge key and daemon, daemons ended
# by their pid files. Sourced, not run: the script sets `prog` (its name in
# messages) first.
# shellcheck shell=bash

prog=${prog:?the script that sources slurm-common.sh sets prog}
munge_pid=/run/munge/munged.pid
# The controllers of the two clusters, which share munged.
local_ctld_pid=/run/slurmctld.pid
nodes_ctld_pid=/run/slurm-nodes/slurmctld.pid

die() { echo "$prog: $*" >&2; exit 1; }

# Installs the Debian packages of the PACKAGE:FILE pairs whose FILE is not
# there, with apt-get as root; else says which command would.
install_packages() {
  local missing=() w
  for w in "$@"; do
    [ -x "${w#*:}" ] || missing+=("${w%%:*}")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null ||
    die "missing ${missing[*]} (Debian package names); install them with your system's package manager"
  [ "$(id -u)" -eq 0 ] ||
    die "missing ${missing[*]}; run as root: apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
  echo "$prog: installing ${missing[*]} (apt-get)"
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

# Slurm's daemons and client, and munge.
install_slurm() {
  install_packages slurmctld:/usr/sbin/slurmctld slurmd:/usr/sbin/slurmd \
    slurm-client:/usr/bin/sbatch munge:/usr/sbin/munged
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

# munged, with its key, unless it runs: the clusters share it (its socket
# is a file, which every network namespace sees).
start_munge() {
  munge_key
  alive $munge_pid || runuser -u munge -- /usr/sbin/munged --origin=127.0.0.1 ||
    die "munged did not start (see /var/log/munge/munged.log)"
}

# Ends the daemons by the PIDs in the pid files given, and removes the
# files: a stale one stops the next start.
stop_pid_files() {
  local f pid
  for f in "$@"; do
    if alive "$f"; then
      pid=$(cat "$f")
      kill "$pid"
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$f"
  done
}

# munged ended, unless a cluster's controller still runs and needs it.
stop_munge() {
  alive $local_ctld_pid || alive $nodes_ctld_pid || stop_pid_files $munge_pid
}

# The slurm.conf lines both test clusters share: munge, no cgroups or
# accounting, cores as the unit, a node back in service once it answers,
# and a scheduler that starts jobs at once.
conf_common() {
  cat <<EOF
SlurmUser=slurm
AuthType=auth/munge
AuthInfo=cred_expire=5
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
EOF
}
