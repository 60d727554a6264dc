#!/usr/bin/env bash
# royale_rules0.sh plays the Battleship Royale games of royale_rules0.sql
# over HTTP, as phones would, on a tallyd built from the code before games
# named their rules (commit 58e77fe), with a fresh data directory and the
# fixture's secret:
#
#   TALLY_SECRET=$(jq -r .secret royale_rules0_tokens.json) \
#     tallyd --addr 127.0.0.1:18099 --data-dir "$DATA" &
#   BASE=http://127.0.0.1:18099 OUT=$(mktemp -d) ./royale_rules0.sh
#   pg_dump "host=<its socket directory> port=<its port> user=postgres dbname=tally" \
#     --data-only --column-inserts --exclude-table-data=schema_migrations \
#     --exclude-table-data=audit_checkpoints --exclude-table-data=idempotency_keys |
#     grep -E '^(INSERT|SELECT pg_catalog.setval)' > royale_rules0.sql
#
# It writes the tables' tokens to $OUT/tokens.json (royale_rules0_tokens.json
# adds the secret).
set -euo pipefail
BASE=${BASE:-http://127.0.0.1:18099}
OUT=${OUT:-.}

req() { # METHOD PATH TOKEN BODY -> prints body; fails on non-2xx
  local method=$1 path=$2 token=$3 body=${4:-}
  local args=(-sS -X "$method" -o "$OUT/resp" -w '%{http_code}' -H 'Content-Type: application/json')
  [ -n "$token" ] && args+=(-H "Authorization: Bearer $token")
  [ "$method" = POST ] && args+=(-H "Idempotency-Key: $(head -c 16 /dev/urandom | xxd -p)")
  [ -n "$body" ] && args+=(--data "$body")
  local code
  code=$(curl "${args[@]}" "$BASE$path")
  if [ "${code:0:1}" != 2 ]; then
    echo "FAILED $method $path $body -> $code: $(cat "$OUT/resp")" >&2
    exit 1
  fi
  cat "$OUT/resp"
}

# table NAME OPTIONS PLAYERS... -> sets TID TOKEN AUDIT P (array of player ids)
table() {
  local name=$1 opts=$2; shift 2
  local players
  players=$(printf '%s\n' "$@" | jq -R . | jq -sc .)
  local r
  r=$(req POST /v1/tables "" "{\"name\":\"$name\",\"currency\":\"units\",\"players\":$players,\"game\":\"royale\",\"royale\":$opts}")
  TID=$(jq -r .table.id <<<"$r")
  TOKEN=$(jq -r .hostToken <<<"$r")
  AUDIT=$(jq -r .auditToken <<<"$r")
  mapfile -t P < <(jq -r '.table.players[].id' <<<"$r")
  echo "table $TID: players ${P[*]}" >&2
}

start() { req POST "/v1/tables/$TID/royale" "$TOKEN" "{\"first\":$1}" >/dev/null; }
act() { req POST "/v1/tables/$TID/royale/$GAME/actions" "$TOKEN" "$1"; }
hold() { act "{\"player\":$1,\"kind\":\"hold\"}" >/dev/null; }
enter() { hold "$1"; act "{\"player\":$1,\"kind\":\"enter\",\"fleet\":$2}" >/dev/null; }
sonar() { act "{\"player\":$1,\"kind\":\"sonar\",\"line\":\"$2\"}" | jq -c '.sonar[-1]' >&2; }
roll() { act "{\"player\":$1,\"kind\":\"roll\",\"die\":$2}" >/dev/null; }
shoot() { act "{\"player\":$1,\"kind\":\"shoot\",\"cells\":$2}" | jq -c '{phase, result}' >&2; }
bonus() { act "{\"player\":$1,\"kind\":\"bonus\",\"cells\":$2}" >/dev/null; }
end() { act "{\"player\":$1,\"kind\":\"end\"}" >/dev/null; }
abandon() { req POST "/v1/tables/$TID/royale/$GAME/abandon" "$TOKEN" "" | jq -c .result >&2; }

tokens='{}'
keep_tokens() { tokens=$(jq -c --arg t "$TID" --arg h "$TOKEN" --arg a "$AUDIT" '. + {($t): $h, ("audit" + $t): $a}' <<<"$tokens"); }

# Table 1: advanced, fleets entered, the real die, ante 1, bounty 1. Ann
# enters a patrol boat without its bonus number (taken as 0) with a cell
# typed " D2"; sonar lines and shot cells are typed with spaces and in lower
# case. Game 1 is played to its end; game 2 is left in play, Bob's turn.
table Deep '{"mode":"advanced","fleet":"entered","die":"real","ante":1,"bounty":1}' Ann Bob
ann=${P[0]} bob=${P[1]}
keep_tokens
annFleet='[{"kind":"submarine","cells":["A1","A2","A3"]},{"kind":"patrol-boat","cells":[" D2","d3"]},{"kind":"destroyer","cells":["E5","E6","E7"],"bonus":2}]'
bobFleet='[{"kind":"submarine","cells":["J1","J2","J3"]},{"kind":"patrol-boat","cells":["I9","I10"],"bonus":1},{"kind":"destroyer","cells":["H8","H9","H10"],"bonus":2}]'
GAME=1
start "$ann"
enter "$ann" "$annFleet"
enter "$bob" "$bobFleet"
sonar "$ann" " j"
roll "$ann" 3
shoot "$ann" '[" B2","j1","J2"]'
end "$ann"
roll "$bob" 1
shoot "$bob" '["A10"]'
end "$bob"
roll "$ann" 3
shoot "$ann" '["J3","I9","I10"]'
bonus "$ann" '["H8"]'
end "$ann"
roll "$bob" 2
shoot "$bob" '["D2","D3"]'
end "$bob"
roll "$ann" 3
shoot "$ann" '["H9","H10","F1"]'

GAME=2
start "$bob"
enter "$ann" '[{"kind":"submarine","cells":["A1","A2","A3"]},{"kind":"patrol-boat","cells":["D2","D3"],"bonus":0},{"kind":"destroyer","cells":["E5","E6","E7"],"bonus":2}]'
enter "$bob" "$bobFleet"
sonar "$bob" "d "
roll "$bob" 2
shoot "$bob" '["D2"," d3"]'
end "$bob"
sonar "$ann" " j"
roll "$ann" 1
shoot "$ann" '["j1"]'
end "$ann"

# A standard game of three whose last shot eliminates the second and third
# seats together: they tie, and the pot of 3 leaves 1 unit in the pot.
tie() { # SEAT1 SEAT2 SEAT3 (SEAT2 starts)
  local a=$1 b=$2 c=$3
  start "$b"
  enter "$a" '[{"kind":"patrol-boat","cells":["A1","A2"]},{"kind":"patrol-boat","cells":["C1","C2"]},{"kind":"patrol-boat","cells":["E1","E2"]}]'
  local same='[{"kind":"patrol-boat","cells":["G1","G2"]},{"kind":"patrol-boat","cells":["G4","G5"]},{"kind":"patrol-boat","cells":["G7","G8"]}]'
  enter "$b" "$same"
  enter "$c" "$same"
  roll "$b" 3; for x in A1 A2 C1; do shoot "$b" "[\"$x\"]"; done; end "$b"
  roll "$c" 3; for x in C2 E1 E2; do shoot "$c" "[\"$x\"]"; done; end "$c"
  roll "$b" 3; for x in G1 G2 G4; do shoot "$b" "[\"$x\"]"; done; end "$b"
  roll "$c" 3; for x in G5 G7 G8; do shoot "$c" "[\"$x\"]"; done
}
standard='{"mode":"standard","fleet":"entered","die":"real","ante":1}'

# Table 2: game 1 a tie that leaves 1 in the pot; game 2, started by the
# second seat, abandoned with 4 in the pot among 3 players.
table Tie "$standard" Cy Di Ed
keep_tokens
GAME=1; tie "${P[0]}" "${P[1]}" "${P[2]}"
GAME=2; start "${P[1]}"
enter "${P[0]}" '[{"kind":"patrol-boat","cells":["A1","A2"]},{"kind":"destroyer","cells":["C1","C2","C3"]},{"kind":"carrier","cells":["J1","J2","J3","J4","J5"]}]'
abandon

# Table 3: one tie, started by the second seat, leaving 1 in the pot; the
# table is left open, to be closed after the upgrade.
table Carry "$standard" Fay Gus Hal
keep_tokens
GAME=1; tie "${P[0]}" "${P[1]}" "${P[2]}"

jq . <<<"$tokens" > "$OUT/tokens.json"
for t in 1 2 3; do
  req GET "/v1/tables/$t/balances" "$(jq -r --arg t "$t" '.[$t]' "$OUT/tokens.json")" "" | jq -c . >&2
done
