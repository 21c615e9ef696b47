#!/usr/bin/env bash
# A throwaway S3-compatible gateway for the tests and local multi-instance runs: Debian's Ceph RADOS
# Gateway as a single-node cluster on loopback (1 mon, 1 bluestore OSD on a sparse block file, pools
# of size 1, beast frontend), every file of it (config, keyrings, stores, logs, pid files) in DIR, so
# several can run side by side on different ports. No ceph-mgr: RGW does not need one.
#
#   tests/support/s3-gateway.sh start DIR [RGW_PORT] [MON_PORT]
#       Creates the cluster in DIR, or starts again the one a `stop` left there, and waits until
#       the gateway answers. Prints on stdout only the S3_* lines a client needs (progress on
#       stderr). The S3 user's keys: S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY, default
#       vidi-test / vidi-test-secret. Ports: 7480 / 6789 when free, else random free ones; a
#       restart keeps the cluster's ports while they are free, and moves to free ones otherwise.
#       About 4-5 s from nothing, 3 s for a restart; a running cluster just prints its lines.
#   tests/support/s3-gateway.sh stop DIR
#       Stops the gateway, the OSD, then the mon (SIGTERM, SIGKILL after 10 s each), and returns
#       when they are gone. Keeps DIR.
set -euo pipefail

REGION=us-east-1
S3_UID=vidi
# Whatever the caller reads on stdout goes to fd 3; everything else to stderr.
exec 3>&1 1>&2

log() { printf '[s3-gateway %s] %s\n' "$(date +%T)" "$*" >&2; }
die() {
  printf 's3-gateway: %s\n' "$*" >&2
  exit 1
}

require_ceph() {
  local missing=() b
  for b in ceph ceph-mon ceph-osd radosgw radosgw-admin ceph-authtool monmaptool; do
    command -v "$b" >/dev/null 2>&1 || missing+=("$b")
  done
  [ ${#missing[@]} -eq 0 ] ||
    die "Ceph is not installed (missing: ${missing[*]}). Install it with: apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw ceph-common"
}

# --- processes ---------------------------------------------------------------------------------
# Liveness through /proc/PID/stat: PID 1 may reap late here, and a zombie counts as gone.
pid_alive() {
  local stat rest
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  rest=${stat##*) }
  case ${rest%% *} in Z | X | x) return 1 ;; *) return 0 ;; esac
}

# The pid of daemon $1 of this DIR if it runs (its command line names DIR: no reused pid).
daemon_pid() {
  local f="$D/run/$1.pid" pid
  [ -s "$f" ] || return 1
  pid=$(<"$f")
  pid_alive "$pid" || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$D/ceph.conf" || return 1
  echo "$pid"
}

# Starts daemon $1 (mon.a, osd.0, client.rgw.gw) in the foreground of its own session, detached from ours.
start_daemon() {
  local name=$1
  shift
  if daemon_pid "$name" >/dev/null; then return 0; fi
  setsid "$@" -c "$D/ceph.conf" -f </dev/null >>"$D/log/$name.out" 2>&1 3>&- &
  local pid=$! i
  echo "$pid" >"$D/run/$name.pid"
  # Until the child has become the daemon: between fork and exec its command line is this script's,
  # which daemon_pid takes for a pid reused by another process, so a check in that window found the
  # daemon "exited" on a loaded machine (docs/benchmarks.md, "CI time", session 25).
  for ((i = 0; i < 1000; i++)); do
    pid_alive "$pid" || return 0
    daemon_pid "$name" >/dev/null && return 0
    sleep 0.01
  done
}

require_running() {
  daemon_pid "$1" >/dev/null || {
    tail -n 20 "$D/log/$1.out" "$D/log/ceph-$1.log" 2>/dev/null >&2 || true
    die "$1 exited (logs in $D/log)"
  }
}

# SIGTERM to daemon $1, SIGKILL after 10 s; returns once it is gone.
stop_daemon() {
  local pid i
  pid=$(daemon_pid "$1") || return 0
  log "stopping $1 ($pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 200; i++)); do
    pid_alive "$pid" || return 0
    if [ $i -eq 100 ]; then
      log "SIGKILL $1 ($pid)"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    sleep 0.1
  done
  die "$1 ($pid) still alive after SIGKILL"
}

# One after the other, clients first: the gateway waits for its OSD requests while it stops, the
# OSD tells the mon it is going (5 s of waiting without a mon).
stop_all() {
  stop_daemon client.rgw.gw
  stop_daemon osd.0
  stop_daemon mon.a
}

# --- ports ---------------------------------------------------------------------------------------
port_in_use() { (exec 4<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# $1 when free, else a random free port below the kernel's ephemeral range and outside the OSD's
# 6800-7300.
pick_port() {
  local p=$1 i
  port_in_use "$p" || {
    echo "$p"
    return
  }
  for ((i = 0; i < 100; i++)); do
    p=$((20000 + RANDOM % 12000))
    port_in_use "$p" || {
      echo "$p"
      return
    }
  done
  die "no free port found"
}

# --- the cluster ---------------------------------------------------------------------------------
write_conf() {
  cat >"$D/ceph.conf" <<EOF
# Written by tests/support/s3-gateway.sh: a single-node cluster living entirely in this folder.
[global]
fsid = $FSID
mon host = [v1:127.0.0.1:$MON_PORT]
ms bind msgr2 = false
keyring = $D/keyring
run dir = $D/run
crash dir = $D/crash
admin socket = $D/run/\$cluster-\$name.asok
log file = $D/log/\$cluster-\$name.log
mon cluster log file = $D/log/\$cluster.log
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon warn on insecure global id reclaim allowed = false
# Every change to the cluster's maps waits for the next Paxos proposal, 1 s apart by default: a
# fresh gateway makes a dozen (pools, the OSD's boot), so this is most of the start-up time.
paxos propose interval = 0.05
# The mon shuts itself down below mon data avail crit (5 %) of free disk: a test box may be fuller.
mon data avail warn = 2
mon data avail crit = 1
[mon]
mon data = $D/mon/\$cluster-\$id
[osd]
public addr = 127.0.0.1
cluster addr = 127.0.0.1
osd data = $D/osd/\$cluster-\$id
osd objectstore = bluestore
# A sparse file: it takes only what is written.
bluestore block size = 10737418240
bluestore fsck on mkfs = false
osd memory target = 1073741824
[client]
# The command-line tools (ceph, radosgw-admin) open no admin socket.
admin socket =
# A client whose first request finds no OSD up learns of the OSD's boot at its next tick only (5 s).
objecter tick interval = 0.2
[client.rgw.gw]
admin socket = $D/run/\$cluster-\$name.asok
rgw data = $D/rgw
# Nagle off: with it a reply written in pieces (CreateMultipartUpload, CopyObject, DeleteObjects) waited for
# the client's delayed ACK on a kept-alive connection, 40 ms each (docs/benchmarks.md, issue 32's S3 uploads).
rgw frontends = beast endpoint=127.0.0.1:$RGW_PORT tcp_nodelay=1
EOF
  printf 'FSID=%s\nMON_PORT=%s\nRGW_PORT=%s\n' "$FSID" "$MON_PORT" "$RGW_PORT" >"$D/ports"
}

ceph_cli() { timeout 120 ceph -c "$D/ceph.conf" --connect-timeout 60 "$@"; }
rgw_admin() { timeout 120 radosgw-admin -c "$D/ceph.conf" "$@"; }

create_cluster() {
  local osd_uuid mkfs
  FSID=$(cat /proc/sys/kernel/random/uuid)
  osd_uuid=$(cat /proc/sys/kernel/random/uuid)
  MON_PORT=$(pick_port "${MON_PORT:-6789}")
  RGW_PORT=$(pick_port "${RGW_PORT:-7480}")
  log "creating a cluster in $D (mon 127.0.0.1:$MON_PORT, rgw 127.0.0.1:$RGW_PORT)"
  mkdir -p "$D"/{mon,osd/ceph-0,rgw,run,log,crash}
  write_conf
  # One keyring for every entity; the mon's mkfs imports all of it into its auth database.
  ceph-authtool --create-keyring "$D/keyring" --gen-key -n mon. --cap mon 'allow *'
  ceph-authtool "$D/keyring" --gen-key -n client.admin \
    --cap mon 'allow *' --cap osd 'allow *' --cap mds 'allow *' --cap mgr 'allow *'
  ceph-authtool "$D/keyring" --gen-key -n osd.0 \
    --cap mon 'allow profile osd' --cap mgr 'allow profile osd' --cap osd 'allow *'
  ceph-authtool "$D/keyring" --gen-key -n client.rgw.gw --cap mon 'allow rw' --cap osd 'allow rwx'
  monmaptool --create --fsid "$FSID" --addv a "[v1:127.0.0.1:$MON_PORT]" "$D/monmap" >/dev/null
  ceph-mon -c "$D/ceph.conf" --mkfs -i a --monmap "$D/monmap" --keyring "$D/keyring"
  # The OSD's store is made while the mon starts.
  ceph-osd -c "$D/ceph.conf" -i 0 --mkfs --osd-uuid "$osd_uuid" >>"$D/log/osd.0.out" 2>&1 3>&- &
  mkfs=$!
  start_daemon mon.a ceph-mon -i a
  wait_for_mon
  ceph_cli osd new "$osd_uuid" 0 >/dev/null
  wait "$mkfs" || {
    tail -n 20 "$D/log/osd.0.out" >&2
    die "ceph-osd --mkfs failed (logs in $D/log)"
  }
  log "osd store ready"
  start_daemon osd.0 ceph-osd -i 0
  # Creates RGW's pools and default zone: returns once the OSD serves them.
  rgw_admin user create --uid="$S3_UID" --display-name="Vidi tests" \
    --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY" >/dev/null
  printf 'ACCESS_KEY=%s\nSECRET_KEY=%s\n' "$ACCESS_KEY" "$SECRET_KEY" >"$D/s3-user"
  log "S3 user created"
  start_daemon client.rgw.gw radosgw -n client.rgw.gw
  touch "$D/created"
}

# The port to use for a daemon that is not running: $2 if asked for, else $1 (its last one) while free.
next_port() {
  if [ -n "$2" ]; then
    ! port_in_use "$2" || die "port $2 is in use"
    echo "$2"
  else
    pick_port "$1"
  fi
}

restart_cluster() {
  local want_rgw=${RGW_PORT:-} want_mon=${MON_PORT:-} port stored_key
  # shellcheck disable=SC1091
  . "$D/ports"
  # Another cluster may have taken a port while this one was stopped: the mon then moves, which
  # takes rewriting the monmap it keeps in its store.
  if daemon_pid mon.a >/dev/null; then
    [ -z "$want_mon" ] || [ "$want_mon" = "$MON_PORT" ] || die "the mon of $D runs on port $MON_PORT: stop it first"
  else
    port=$(next_port "$MON_PORT" "$want_mon")
    if [ "$port" != "$MON_PORT" ]; then
      log "moving the mon from port $MON_PORT to $port"
      ceph-mon -c "$D/ceph.conf" -i a --extract-monmap "$D/monmap" 2>/dev/null
      monmaptool --rm a "$D/monmap" >/dev/null
      monmaptool --addv a "[v1:127.0.0.1:$port]" "$D/monmap" >/dev/null
      ceph-mon -c "$D/ceph.conf" -i a --inject-monmap "$D/monmap" 2>/dev/null
      MON_PORT=$port
    fi
  fi
  if daemon_pid client.rgw.gw >/dev/null; then
    [ -z "$want_rgw" ] || [ "$want_rgw" = "$RGW_PORT" ] || die "the gateway of $D runs on port $RGW_PORT: stop it first"
  else
    RGW_PORT=$(next_port "$RGW_PORT" "$want_rgw")
  fi
  write_conf
  log "starting the cluster in $D again (mon 127.0.0.1:$MON_PORT, rgw 127.0.0.1:$RGW_PORT)"
  start_daemon mon.a ceph-mon -i a
  wait_for_mon
  # The gateway waits for the OSD by itself.
  start_daemon osd.0 ceph-osd -i 0
  start_daemon client.rgw.gw radosgw -n client.rgw.gw
  stored_key=$(sed -n 's/^ACCESS_KEY=//p' "$D/s3-user")
  if [ "$stored_key" != "$ACCESS_KEY" ] || ! grep -qxF "SECRET_KEY=$SECRET_KEY" "$D/s3-user"; then
    log "adding the S3 key $ACCESS_KEY"
    rgw_admin key create --uid="$S3_UID" --key-type=s3 --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY" >/dev/null
    printf 'ACCESS_KEY=%s\nSECRET_KEY=%s\n' "$ACCESS_KEY" "$SECRET_KEY" >"$D/s3-user"
  fi
}

# Until the mon listens (it dies at once when its port is taken).
wait_for_mon() {
  local i
  for ((i = 0; i < 600; i++)); do
    require_running mon.a
    ! port_in_use "$MON_PORT" || return 0
    sleep 0.05
  done
  die "the mon did not listen on 127.0.0.1:$MON_PORT within 30 s (logs in $D/log)"
}

# The gateway answers S3 once an anonymous ListBuckets gets its XML back.
wait_for_gateway() {
  local i reply
  for ((i = 0; i < 1200; i++)); do
    reply=$(
      { exec 4<>"/dev/tcp/127.0.0.1/$RGW_PORT"; } 2>/dev/null || exit 0
      printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&4
      timeout 5 cat <&4
    ) 2>/dev/null || true
    # Ours, not another gateway that took the port: ours would have exited.
    case $reply in *ListAllMyBucketsResult*) require_running client.rgw.gw && return 0 ;; esac
    if ((i % 10 == 0)); then
      require_running mon.a
      require_running osd.0
      require_running client.rgw.gw
    fi
    sleep 0.1
  done
  die "the gateway did not answer on 127.0.0.1:$RGW_PORT within 120 s (logs in $D/log)"
}

[ $# -ge 2 ] || die "usage: $0 start DIR [RGW_PORT] [MON_PORT] | stop DIR"
cmd=$1
[ "$cmd" != start ] || require_ceph
mkdir -p "$2"
D=$(cd "$2" && pwd -P)

case $cmd in
  start)
    RGW_PORT=${3:-}
    MON_PORT=${4:-}
    ACCESS_KEY=${S3_ACCESS_KEY_ID:-vidi-test}
    SECRET_KEY=${S3_SECRET_ACCESS_KEY:-vidi-test-secret}
    started=$SECONDS
    if [ -f "$D/created" ]; then
      restart_cluster
    elif [ -e "$D/ceph.conf" ]; then
      die "$D holds a cluster whose creation did not finish: stop it and delete the folder"
    else
      create_cluster
    fi
    wait_for_gateway
    log "gateway ready on 127.0.0.1:$RGW_PORT after $((SECONDS - started)) s"
    printf 'S3_ENDPOINT=http://127.0.0.1:%s\nS3_REGION=%s\nS3_ACCESS_KEY_ID=%s\nS3_SECRET_ACCESS_KEY=%s\nS3_FORCE_PATH_STYLE=true\n' \
      "$RGW_PORT" "$REGION" "$ACCESS_KEY" "$SECRET_KEY" >&3
    ;;
  stop)
    stop_all
    log "stopped"
    ;;
  *) die "unknown command $cmd: use start or stop" ;;
esac
