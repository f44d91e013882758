#!/usr/bin/env bash
# Peak memory of a render whose six remote images are each far over the image pipeline's
# 64 MB download limit: 250 MB bodies with a Content-Length, without one (the body ends when
# the connection closes), and gzip bodies of about 250 KB that inflate to 250 MB.
#
#   bash Benchmarks/remote-images.sh [megabytes]      # body size, default 250
#   ROWKIT_BINARY=path/to/rowkit bash Benchmarks/remote-images.sh    # measure that binary
#
# Serves the bodies from a small Python server on 127.0.0.1, renders one table of six image
# rows for each kind of body, and prints the peak resident memory (`/usr/bin/time -v`) and
# the wall time of each render. Every image fails (the default image is shown and the
# manifest says why); what matters is how much memory refusing them takes.
set -euo pipefail
cd "$(dirname "$0")/.."
megabytes="${1:-250}"

source Benchmarks/common.sh
require_command python3 python3
[ -x /usr/bin/time ] || require_command /usr/bin/time time
build_rowkit

work="$(mktemp -d)"
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

cat >"$work/server.py" <<'PYTHON'
import http.server, socketserver, sys, zlib

size = int(sys.argv[1]) << 20
chunk = bytes(1 << 20)
compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
gzip_body = b"".join(compressor.compress(chunk) for _ in range(size >> 20)) + compressor.flush()

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        kind = self.path.strip("/").split("/")[0]
        try:
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            if kind == "gzip":
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(gzip_body)))
                self.end_headers()
                self.wfile.write(gzip_body)
                return
            if kind == "length":
                self.send_header("Content-Length", str(size))
            else:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            for _ in range(size >> 20):
                self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # rowkit hangs up on refused bodies: that is the point

server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
PYTHON

python3 "$work/server.py" "$megabytes" >"$work/port" &
server_pid=$!
for _ in $(seq 600); do [ -s "$work/port" ] && break; sleep 0.1; done
port="$(cat "$work/port")"

echo "six remote images of $megabytes MB each (the pipeline's limit: 64 MB), $(nproc) cores"
for kind in length stream gzip; do
  {
    echo "table: { width: 375, scale: 2 }"
    echo "sections:"
    echo "  - items:"
    for index in 1 2 3 4 5 6; do
      echo "      - { type: image, text: Image $index, imageURL: \"http://127.0.0.1:$port/$kind/$index.png\" }"
    done
  } >"$work/$kind.yaml"
  /usr/bin/time -v "$rowkit" render "$work/$kind.yaml" -o "$work/$kind.png" --manifest "$work/$kind.json" \
    --timeout 600 --deadline 600 >/dev/null 2>"$work/$kind.time" || true
  peak_kb="$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/$kind.time")"
  wall="$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/$kind.time")"
  failed="$(grep -o '"state" *: *"failed"' "$work/$kind.json" 2>/dev/null | wc -l)"
  printf '%-7s peak %7.1f MB   wall %s   %s of 6 images refused\n' "$kind" "$(awk -v kb="$peak_kb" 'BEGIN { print kb / 1024 }')" "$wall" "$failed"
done
