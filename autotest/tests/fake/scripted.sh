#!/usr/bin/env bash
# A scripted fake Leiserchess UCI engine for autotest's fault tests.
#
#   scripted.sh MODE [PIDDIR [LOG]]
#
# It speaks just enough of the protocol (shared/spec/PROTOCOL.md) for the
# referee, and misbehaves as MODE says. With PIDDIR (may be empty), it writes
# its process id to PIDDIR/<pid> at start, so a test can check that nothing is
# left behind. With LOG, it appends every line it reads to LOG. It is pure
# bash and never forks, so killing it leaves nothing over.
#
# Moves (from the start position only): Tangerine plays d1c1, c1d1, d1c1, ...
# and Lavender e6f6, f6e6, ... (pawn steps away from both laser paths: the
# Kings fire along the empty h and a files). Two `good` fakes thus draw by
# repetition after 8 plies. The side to move is the parity of the number of
# moves in the last `position` command.
#
# MODE:
#   good               a well-behaved engine; its `info` says `score cp 0`
#   score:CP           as good, with `score cp CP`
#   nozap-option       as good, and lists a `no_zap_plies` option
#   illegal            `bestmove a0a0` (unparsable: the squares are not adjacent)
#   illegal-legalform  `bestmove a3a4` (well formed, but a3 is empty)
#   crash              exits with status 3 on `go`
#   crash-stderr       on `go`, writes 12 lines `scripted.sh: dying, line K of
#                      12` to its standard error, then exits with status 3
#   early-exit         exits right after the handshake's first `readyok`
#   hang               after `go`, never answers anything again (not even
#                      `isready` or `quit`)
#   hang-handshake     never answers anything, not even `uci`
#   hang-isready       answers `uci`, then never anything (not `isready`)
#   slow[:MS]          answers `go` with a legal move only after MS ms
#                      (default 1000), but answers `isready` at once meanwhile
#   slow-isready:MS    as good, but answers every `isready` only after MS ms
#                      (an engine zeroing a large table)
#   garbage            on `go`: noise lines and bogus `info`, then a garbage
#                      `bestmove`
#   garbage-binary     as garbage, with bytes that are not UTF-8 (the engine
#                      keeps running: still an illegal move, not a crash)
#   stderr             as good, and writes `scripted.sh: started` to its
#                      standard error at start and `scripted.sh: go at ply N`
#                      on every `go`
#   refuse-stderr      as good, and answers every `setoption` with
#                      `scripted.sh: error: option NAME refused` on its
#                      standard error
#   game-memory        as good, and holds 40 MB from its first `go` of a
#                      game until 30 ms after `ucinewgame` (a search tree
#                      kept between moves, dropped by a new game on a
#                      thread of its own once `isready` is answered)

mode=${1:?usage: scripted.sh MODE [PIDDIR [LOG]]}
piddir=${2:-}
log=${3:-}
slow_ms=1000
ready_ms=0
score_cp=0
nozap_option=0
game_memory=0
held=""     # game-memory: the game's 40 MB
stderr_mode=""
case $mode in
slow:*) slow_ms=${mode#slow:}
    mode=slow ;;
slow-isready:*) ready_ms=${mode#slow-isready:}
    mode=good ;;
score:*) score_cp=${mode#score:}
    mode=good ;;
nozap-option) nozap_option=1
    mode=good ;;
stderr | refuse-stderr) stderr_mode=$mode
    mode=good ;;
game-memory) game_memory=1
    mode=good ;;
esac

if [[ -n $piddir ]]; then
    echo $$ >"$piddir/$$"
fi
if [[ $stderr_mode == stderr ]]; then
    echo "scripted.sh: started" >&2
fi

ply=0       # moves played in the last `position`
hung=0      # hang modes: 1 once it stopped answering
due_us=""   # slow modes: when the pending answer is due (µs since epoch)
due=""      # that answer: bestmove or readyok
if [[ $mode == hang-handshake ]]; then
    hung=1
fi

# Sets `now` to the time in µs since the epoch (no subshell: no fork).
now_us() {
    local t=${EPOCHREALTIME/./}
    now=$((10#$t))
}

# Sets `mv` to the move for the side to move at `ply` from the start
# position.
move_for() {
    if ((ply % 2 == 0)); then
        if (((ply / 2) % 2 == 0)); then mv=d1c1; else mv=c1d1; fi
    else
        if ((((ply - 1) / 2) % 2 == 0)); then mv=e6f6; else mv=f6e6; fi
    fi
}

garbage() {
    echo "info string thinking very hard"
    echo "info depth x seldepth -1 score cp abc nodes 1e9 pv zz99"
    echo "info depth 3 nodes 12345 pv d1c1"
    echo ""
    echo "   "
    echo "bestmovexyz d1c1"
    echo "readyok"
    echo "uciok"
    echo "id name garbage"
    echo "$RANDOM$RANDOM #!@%^&*() ~~ $RANDOM"
    echo "Bestmove d1c1"
    if [[ $mode == garbage-binary ]]; then
        printf 'info string \xff\xfe\xc3\x28 not utf-8\n'
        printf '\x80\x81\x82\n'
    fi
    echo "bestmove #@!garbage$RANDOM"
}

on_go() {
    move_for
    if [[ $stderr_mode == stderr ]]; then
        echo "scripted.sh: go at ply $ply" >&2
    fi
    if ((game_memory)) && [[ -z $held ]]; then
        printf -v held '%40000000s' ''
    fi
    case $mode in
    good) echo "info depth 1 seldepth 1 score cp $score_cp nodes 1 nps 1 time 0 pv $mv"
        echo "bestmove $mv" ;;
    illegal) echo "bestmove a0a0" ;;
    illegal-legalform) echo "bestmove a3a4" ;;
    crash) exit 3 ;;
    crash-stderr) for ((i = 1; i <= 12; i++)); do
            echo "scripted.sh: dying, line $i of 12" >&2
        done
        exit 3 ;;
    hang) hung=1 ;;
    slow) now_us
        due_us=$((now + slow_ms * 1000))
        due=bestmove ;;
    garbage | garbage-binary) garbage ;;
    *) echo "info string scripted.sh: unknown mode $mode"
        exit 2 ;;
    esac
}

handle() {
    local -a w
    read -ra w <<<"$1"
    case ${w[0]:-} in
    uci)
        echo "id name fake-$mode"
        echo "id author autotest fault tests"
        echo "option name Hash type spin default 16 min 1 max 65536"
        if ((nozap_option)); then
            echo "option name no_zap_plies type spin default 100 min 0 max 1000"
        fi
        echo "uciok"
        if [[ $mode == hang-isready ]]; then
            hung=1
        fi
        ;;
    setoption)
        if [[ $stderr_mode == refuse-stderr ]]; then
            echo "scripted.sh: error: option ${w[2]:-} refused" >&2
        fi
        ;;
    isready)
        if ((ready_ms > 0)); then
            now_us
            due_us=$((now + ready_ms * 1000))
            due=readyok
            return
        fi
        echo "readyok"
        if [[ $mode == early-exit ]]; then
            exit 0
        fi
        ;;
    position)
        # position startpos|fen ... [moves m1 m2 ...]
        local i n=0 seen=0
        for ((i = 1; i < ${#w[@]}; i++)); do
            if ((seen)); then
                n=$((n + 1))
            elif [[ ${w[i]} == moves ]]; then
                seen=1
            fi
        done
        ply=$n
        ;;
    go) on_go ;;
    ucinewgame)
        if [[ -n $held ]]; then
            now_us
            due_us=$((now + 30000))
            due=free
        fi
        ;;
    quit) exit 0 ;;
    *) ;; # stop, unknown: ignored
    esac
}

while :; do
    if [[ -n $due_us ]]; then
        now_us
        left=$((due_us - now))
        if ((left <= 0)); then
            if [[ $due == readyok ]]; then
                echo "readyok"
            elif [[ $due == free ]]; then
                held=""
            else
                move_for
                echo "bestmove $mv"
            fi
            due_us=""
            continue
        fi
        printf -v secs '%d.%06d' $((left / 1000000)) $((left % 1000000))
        IFS= read -r -t "$secs" line
        rc=$?
        if ((rc > 128)); then
            continue # timed out: the move is due
        elif ((rc != 0)); then
            exit 0 # end of input
        fi
    else
        IFS= read -r line || exit 0
    fi
    line=${line%$'\r'}
    if [[ -n $log ]]; then
        echo "$line" >>"$log"
    fi
    if ((hung)); then
        continue
    fi
    handle "$line"
done
