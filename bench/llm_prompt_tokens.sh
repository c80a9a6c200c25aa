#!/usr/bin/env bash
# LLM prompt size per asset against the full text of its bundle, on the real corpus.
# A loopback stand-in endpoint (Python) answers every request with no claims, so only the
# prompt is measured; token counts are cl100k_base (tiktoken-rs), from the run manifest.
# Usage: bench/llm_prompt_tokens.sh [BUDGET=6000] [REAL_SOURCES=../shared/real-sources]
set -euo pipefail
cd "$(dirname "$0")/.."
BUDGET=${1:-6000}
REAL=${2:-../shared/real-sources}
cargo build --quiet --workspace --bins
BIN=${CARGO_TARGET_DIR:-target}/debug/dossier
tmp=$(mktemp -d)
python3 - "$tmp/port" <<'PY' &
import http.server, json, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers["content-length"]))
        body = json.dumps({"choices": [{"message": {"content": "{\"claims\": []}"}}]}).encode()
        self.send_response(200); self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(s.server_port))
s.serve_forever()
PY
srv=$!
trap 'kill $srv; rm -rf "$tmp"' EXIT
while [ ! -s "$tmp/port" ]; do sleep 0.1; done
"$BIN" --quiet --lake "$tmp/lake" snapshot --portfolio "$REAL/portfolio.toml" --import "$REAL/import" > /dev/null
id=$("$BIN" --quiet --lake "$tmp/lake" run --reasoner llm --llm-base-url "http://127.0.0.1:$(cat "$tmp/port")/v1" --llm-model stand-in --llm-budget "$BUDGET")
python3 - "$tmp/lake/runs/$id/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
tp = tb = 0
print(f"{'asset':18} {'prompt':>8} {'bundle':>8} {'ratio':>7}")
for a, x in sorted(m["assets"].items()):
    tp += x["prompt_tokens"]; tb += x["bundle_tokens"]
    print(f"{a:18} {x['prompt_tokens']:8d} {x['bundle_tokens']:8d} {x['prompt_tokens'] / max(1, x['bundle_tokens']):7.3f}")
print(f"{'total':18} {tp:8d} {tb:8d} {tp / max(1, tb):7.3f}  (prompt = {100 * tp / max(1, tb):.1f}% of the bundle text)")
PY
