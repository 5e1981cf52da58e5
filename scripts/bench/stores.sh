#!/usr/bin/env bash
# Watched stores at scale, against the fixture shop on loopback (release builds, one run):
# the initial import of a 25 000-product store (100 000 variants), a re-sync after 1 % of the
# variants changed price, the server's peak memory growth over both, SQL statements per page, and
# `products(first: 50, sort: PRICE_ASC, stock: IN_STOCK, search: "wool")` p50 over 100 requests.
# Usage: scripts/bench/stores.sh   (PRODUCTS=25000 to change the size)
source "$(dirname "$0")/hearth-server.sh"
products=${PRODUCTS:-25000}

swift build -c release --product hearth >&2
.build/release/hearth dev fixture-shop --port 0 --shop "big=$products" > "$work/shop.out" 2>&1 &
shop=$!
trap 'kill "$shop" 2>/dev/null || true; stop_hearth' EXIT
for _ in $(seq 1 300); do grep -q "listening on" "$work/shop.out" 2>/dev/null && break; sleep 0.1; done
shop_url=$(grep -o "http://[0-9.:]*" "$work/shop.out" | head -1)
[ -n "$shop_url" ] || { echo "fixture shop did not start" >&2; cat "$work/shop.out" >&2; exit 1; }

start_hearth --log-level info --no-sync-loop --graphql-timeout 300 --store-allow-host "big.test=$shop_url/shops/big"
python3 "$(dirname "$0")/stores.py" "$url" "$shop_url" "$server" "$work/stderr"
