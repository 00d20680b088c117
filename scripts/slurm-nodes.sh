#!/usr/bin/env bash
# A Slurm cluster of N compute nodes on this machine, each slurmd in a
# network namespace of its own, for tests of what a lost node does to a
# run (autotest/tests/cluster_faults.rs, docs/DISTRIBUTED.md). It runs
# beside scripts/slurm-local.sh's one-node cluster and shares only its
# munged:
#
#   scripts/slurm-nodes.sh start [N]    N nodes (default 3, at most 4), up and idle
#   scripts/slurm-nodes.sh stop         cancel every job, end the daemons, remove
#                                       the namespaces, links and bridge
#   scripts/slurm-nodes.sh status       the daemons, namespaces and nodes
#   scripts/slurm-nodes.sh kill-node I  SIGKILL node I's slurmd and every process
#                                       in its namespace (its tasks, their engines)
#   scripts/slurm-nodes.sh revive I     start node I's slurmd again
#   scripts/slurm-nodes.sh cut I        take node I's link down: the node and its
#                                       tasks live on, unreachable
#   scripts/slurm-nodes.sh restore I    bring it up again, and have its slurmd register
#                                       (slurmctld then kills the orphans there)
#
# Clients reach this cluster with SLURM_CONF=/etc/slurm-nodes/slurm.conf.
# Node I is lc-nI: namespace lc-nI, address 10.77.0.(10+I) on a veth pair
# (lcv-nI on the host) joined by the bridge lcbr0 (10.77.0.1, where
# slurmctld listens on port 6827). Nothing else is routed: the traffic
# goes to the loopback and to what this script made. Root only; iproute2
# and Slurm (Debian's packages) installed with apt-get if missing.
set -euo pipefail

prog=slurm-nodes
# shellcheck source=scripts/slurm-common.sh
. "$(dirname "$(readlink -f "$0")")/slurm-common.sh"

etc=/etc/slurm-nodes
conf=$etc/slurm.conf
mark="# leiserchess scripts/slurm-nodes.sh: a multi-node test cluster"
run=/run/slurm-nodes
spool=/var/spool/slurm-nodes
logs=/var/log/slurm-nodes
ctld_pid=$nodes_ctld_pid
bridge=lcbr0
subnet=10.77.0
ctld_port=6827
slurmd_port=6828
max_nodes=4
export SLURM_CONF=$conf

ns() { echo "lc-n$1"; }
link() { echo "lcv-n$1"; }
addr() { echo "$subnet.$((10 + $1))"; }
slurmd_pid() { echo "$run/slurmd-lc-n$1.pid"; }

# Whether namespace $1 is there.
has_ns() {
  local list
  list=$(ip netns list)
  awk -v n="$1" '$1 == n { found = 1 } END { exit !found }' <<<"$list"
}

# SIGKILL to every process in namespace $1; prints how many there were.
kill_ns() {
  local pids
  read -ra pids <<<"$(ip netns pids "$1" | tr '\n' ' ')"
  [ ${#pids[@]} -eq 0 ] || kill -9 "${pids[@]}" 2>/dev/null || true
  echo ${#pids[@]}
}

need_root() {
  [ "$(id -u)" -eq 0 ] || die "namespaces, links and Slurm's daemons need root; run: sudo $0 $*"
  command -v ip >/dev/null || install_packages iproute2:/bin/ip
  command -v ip >/dev/null || die "no 'ip' (iproute2) on PATH"
}

# The number of nodes the running cluster has (0 if none).
nodes() {
  if [ -s $etc/nodes ]; then cat $etc/nodes; else echo 0; fi
}

node_number() {
  if ! [[ "${1:-}" =~ ^[1-9][0-9]*$ ]] || [ "$1" -gt "$(nodes)" ]; then
    die "no node '${1:-}': the cluster has nodes 1 to $(nodes) (scripts/slurm-nodes.sh status)"
  fi
}

write_conf() {
  local n=$1 host i
  if [ -e $conf ] && ! head -n 1 $conf | grep -qxF "$mark"; then
    die "$conf is there and is not this script's; move it away"
  fi
  mkdir -p $etc $run $spool/ctld $logs
  chown slurm:slurm $spool/ctld $logs
  host=$(hostname -s)
  # SlurmdTimeout and the ping it sets (a third of it) find a lost node in
  # 10-15 s; JobRequeue and ReturnToService put its jobs elsewhere and the
  # node back once its slurmd registers; the nodes share two cores, so each
  # declares one (config_overrides: not checked against the hardware).
  {
    echo "$mark"
    cat <<EOF
ClusterName=leiserchess-nodes
SlurmctldHost=$host($subnet.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
$(conf_common)
StateSaveLocation=$spool/ctld
SlurmdSpoolDir=$spool/%n
SlurmctldPidFile=$ctld_pid
SlurmdPidFile=$run/slurmd-%n.pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd-%n.log
SlurmdParameters=config_overrides
SlurmdTimeout=10
JobRequeue=1
EOF
    for i in $(seq 1 "$n"); do
      echo "NodeName=$(ns "$i") NodeAddr=$(addr "$i") CPUs=1 RealMemory=256 State=UNKNOWN"
    done
    echo "PartitionName=nodes Nodes=ALL Default=YES State=UP MaxTime=INFINITE"
  } >$conf
  echo "$n" >$etc/nodes
}

# The bridge and node I's namespace and veth pair, each made if missing.
network() {
  local n=$1 i route
  route=$(ip -4 route show "$subnet.0/24")
  if [ -n "$route" ] && ! grep -q "dev $bridge" <<<"$route"; then
    die "$subnet.0/24 is routed here already ($route): this script would clash with it"
  fi
  if ! ip link show $bridge >/dev/null 2>&1; then
    ip link add $bridge type bridge
    ip addr add "$subnet.1/24" dev $bridge
  fi
  ip link set $bridge up
  for i in $(seq 1 "$n"); do
    has_ns "$(ns "$i")" || ip netns add "$(ns "$i")"
    if ! ip link show "$(link "$i")" >/dev/null 2>&1; then
      ip link add "$(link "$i")" type veth peer name "$(link "$i")p" netns "$(ns "$i")"
      ip -n "$(ns "$i")" link set "$(link "$i")p" name eth0
      ip -n "$(ns "$i")" addr add "$(addr "$i")/24" dev eth0
    fi
    ip -n "$(ns "$i")" link set lo up
    ip -n "$(ns "$i")" link set eth0 up
    ip link set "$(link "$i")" master $bridge up
  done
}

# nsenter enters the network namespace only: `ip netns exec` would also
# mount a /sys of its own, without the cgroup filesystem slurmd wants.
start_slurmd() {
  mkdir -p "$spool/$(ns "$1")"
  nsenter --net="/run/netns/$(ns "$1")" /usr/sbin/slurmd -f $conf -N "$(ns "$1")" ||
    die "slurmd of $(ns "$1") did not start (see $logs/slurmd-$(ns "$1").log)"
}

# The nodes' states, one line each: NAME STATE (nothing if the controller
# does not answer).
node_states() { sinfo -h -N -o '%N %T' 2>/dev/null || true; }

# Whether all n nodes are idle.
all_idle() {
  local states
  states=$(node_states)
  [ "$(grep -c ' idle$' <<<"$states")" -eq "$1" ]
}

start() {
  local n=${1:-3}
  if ! [[ "$n" =~ ^[1-9]$ ]] || [ "$n" -gt $max_nodes ]; then
    die "start N: N is 1 to $max_nodes, not '$n'"
  fi
  need_root start "$n"
  install_slurm
  if [ "$(nodes)" -eq "$n" ] && alive $ctld_pid && all_idle "$n"; then
    echo "slurm-nodes: already running ($n nodes idle)"
    return 0
  fi
  stop_all
  write_conf "$n"
  network "$n"
  start_munge
  # -c: the test cluster starts empty (no jobs saved by a killed controller).
  /usr/sbin/slurmctld -c -f $conf || die "slurmctld did not start (see $logs/slurmctld.log)"
  local i
  for i in $(seq 1 "$n"); do start_slurmd "$i"; done
  for _ in $(seq 1 60); do
    all_idle "$n" && break
    sleep 0.5
  done
  all_idle "$n" ||
    die "the nodes are not all idle after 30 s: $(node_states | tr '\n' ';') (see $logs/)"
  echo "slurm-nodes: $n nodes up and idle ($(sinfo -h -o '%D nodes, partition %P'); SLURM_CONF=$conf)"
}

# Link $1 deleted and gone. The kernel tears a deleted namespace down
# asynchronously, so its veth's host end may still show for a moment and
# then vanish between `ip link show` and `ip link del`, or after `start`
# has seen it and skipped making it again.
remove_link() {
  local _
  ip link del "$1" 2>/dev/null || true
  for _ in $(seq 1 50); do
    ip link show "$1" >/dev/null 2>&1 || return 0
    sleep 0.1
  done
  die "link $1 is still there 5 s after it was deleted"
}

# Every daemon and process of the cluster ended, its network removed.
stop_all() {
  local i jobs
  if alive $ctld_pid; then
    read -ra jobs <<<"$(squeue -h -o %A 2>/dev/null | tr '\n' ' ' || true)"
    [ ${#jobs[@]} -eq 0 ] || scancel "${jobs[@]}" 2>/dev/null || true
  fi
  for i in $(seq 1 $max_nodes); do
    stop_pid_files "$(slurmd_pid "$i")"
    if has_ns "$(ns "$i")"; then
      # The jobs' processes left in the namespace (slurmstepd, tasks, engines).
      kill_ns "$(ns "$i")" >/dev/null
      ip netns del "$(ns "$i")"
    fi
    remove_link "$(link "$i")"
  done
  stop_pid_files $ctld_pid
  stop_munge
  ! ip link show $bridge >/dev/null 2>&1 || ip link del $bridge
  rm -f $etc/nodes
}

stop() {
  need_root stop
  stop_all
  echo "slurm-nodes: stopped"
}

status() {
  local i n ok=0
  n=$(nodes)
  if alive $ctld_pid; then echo "slurmctld: running (pid $(cat $ctld_pid), port $ctld_port)"
  else echo "slurmctld: not running"; ok=1; fi
  if alive $munge_pid; then echo "munged: running (pid $(cat $munge_pid))"
  else echo "munged: not running"; ok=1; fi
  for i in $(seq 1 "$n"); do
    local d="not running" l="no link"
    alive "$(slurmd_pid "$i")" && d="running (pid $(cat "$(slurmd_pid "$i")"))"
    if ip link show "$(link "$i")" >/dev/null 2>&1; then
      l="link $(ip -br link show "$(link "$i")" | awk '{print $2}')"
    fi
    echo "$(ns "$i") $(addr "$i"): slurmd $d, $l"
  done
  local states
  states=$(node_states)
  echo "nodes: ${states:-no answer from slurmctld}" | paste -sd ';'
  [ "$n" -gt 0 ] && [ $ok -eq 0 ] && all_idle "$n"
}

kill_node() {
  need_root kill-node "$1"
  node_number "$1"
  local killed
  killed=$(kill_ns "$(ns "$1")")
  rm -f "$(slurmd_pid "$1")"
  echo "slurm-nodes: killed $(ns "$1"): $killed processes (slurmd and its jobs')"
}

revive() {
  need_root revive "$1"
  node_number "$1"
  if alive "$(slurmd_pid "$1")"; then
    echo "slurm-nodes: $(ns "$1")'s slurmd runs already"
    return 0
  fi
  start_slurmd "$1"
  echo "slurm-nodes: $(ns "$1")'s slurmd started again"
}

set_link() {
  need_root "$1" "$2"
  node_number "$2"
  ip link set "$(link "$2")" "$3"
  echo "slurm-nodes: $(ns "$2")'s link is $3"
}

# The link up, and the node's slurmd asked to register again (SIGHUP): a
# node it set down the controller asks only on its own round, one node
# per ping cycle, and the registration is what tells it of the jobs still
# running there (a cut node's orphans, which it then kills).
restore() {
  set_link restore "$1" up
  alive "$(slurmd_pid "$1")" || die "$(ns "$1")'s slurmd is not running (scripts/slurm-nodes.sh revive $1)"
  kill -HUP "$(cat "$(slurmd_pid "$1")")"
}

case "${1:-}" in
  start) start "${2:-3}" ;;
  stop) stop ;;
  status) status ;;
  kill-node) kill_node "${2:-}" ;;
  revive) revive "${2:-}" ;;
  cut) set_link cut "${2:-}" down ;;
  restore) restore "${2:-}" ;;
  *) echo "usage: $0 start [N] | stop | status | kill-node I | revive I | cut I | restore I" >&2; exit 2 ;;
esac
