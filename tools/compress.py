#!/usr/bin/env python3
"""Write a brotli (.br) and a gzip (.gz) copy beside every text and wasm file of a release build.

Run by trunk as the last post_build hook (Trunk.toml) with TRUNK_STAGING_DIR set; debug builds are
left alone. A server that serves precompressed files (nginx's brotli_static and gzip_static,
deploy/clusterplan.nginx) then sends them at the best ratio without compressing on every request.
brotli comes from Debian's `brotli` (scripts/setup.sh); without it only the .gz copies are written.

    python3 tools/compress.py        # $TRUNK_STAGING_DIR or dist
"""

import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path

KINDS = {".html", ".js", ".wasm", ".css", ".txt", ".svg", ".json"}


def compress(root):
    brotli = shutil.which("brotli")
    if not brotli:
        print("compress.py: no brotli on PATH; writing .gz copies only", file=sys.stderr)
    files = [f for f in sorted(root.rglob("*")) if f.is_file() and f.suffix in KINDS]
    for file in files:
        data = file.read_bytes()
        # mtime 0: the same build gives the same bytes.
        Path(f"{file}.gz").write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
        if brotli:
            subprocess.run([brotli, "-f", "-q", "11", "-o", f"{file}.br", str(file)], check=True)
    return len(files)


def main():
    if os.environ.get("TRUNK_PROFILE", "release") != "release":
        return 0
    root = Path(os.environ.get("TRUNK_STAGING_DIR", "dist"))
    if not (root / "index.html").is_file():
        print(f"compress.py: {root / 'index.html'} not found: run trunk build first", file=sys.stderr)
        return 1
    count = compress(root)
    print(f"compress.py: {count} files precompressed in {root}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
