#!/usr/bin/env python3
"""Pin the page's inline scripts in its Content-Security-Policy by hash, so the policy needs no
'unsafe-inline' for scripts.

Run by trunk as the first post_build hook (Trunk.toml) with TRUNK_STAGING_DIR set, after trunk has
written (and on release, minified) index.html: the script that fetches the words early and trunk's
loader are the page's only inline scripts, and the loader names the build's hashed files, so
their hashes are known only once the page is built. It rewrites the policy in index.html's <meta>
and writes csp.nginx beside it, the same policy as the header deploy/clusterplan.nginx includes
(with frame-ancestors, which only a header can set). standalone.py pins its own scripts with
`pin` too.

    python3 tools/csp.py               # $TRUNK_STAGING_DIR or dist
    python3 tools/csp.py --check FILE  # exit 1 if FILE's policy allows any inline script unhashed
"""

import base64
import hashlib
import os
import re
import sys
from pathlib import Path

SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.I | re.S)
CSP_META = re.compile(r"(<meta\b[^>]*http-equiv\s*=\s*[\"']?content-security-policy[^>]*>)", re.I)
CONTENT = re.compile(r"""(\bcontent\s*=\s*)(?:"([^"]*)"|'([^']*)')""", re.I)
SRC = re.compile(r"""\bsrc\s*=""", re.I)
TYPE = re.compile(r"""\btype\s*=\s*["']?([^"'\s>]+)""", re.I)
# The script types a browser runs; any other (text/plain, the standalone page's words) is data.
RUN = {"", "module", "text/javascript", "application/javascript"}
# Only a header can say who may frame the page.
HEADER_ONLY = "frame-ancestors 'none'"


class Fail(Exception):
    pass


def inline_scripts(html):
    """The bodies of the inline scripts a browser would run, as written."""
    bodies = []
    for m in SCRIPT.finditer(html):
        attributes, body = m.group(1), m.group(2)
        kind = TYPE.search(attributes)
        if SRC.search(attributes) or (kind and kind.group(1).lower() not in RUN):
            continue
        bodies.append(body)
    return bodies


def source(body):
    """A policy's hash source for an inline script: sha256 of its text as UTF-8."""
    digest = hashlib.sha256(body.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def with_hashes(policy, hashes):
    """`policy` with 'unsafe-inline' dropped from script-src and `hashes` added to it."""
    directives = [d.strip() for d in policy.split(";") if d.strip()]
    out = []
    for directive in directives:
        name, *values = directive.split()
        if name.lower() == "script-src":
            values = [v for v in values if v != "'unsafe-inline'" and not v.startswith("'sha256-")]
            values += [h for h in hashes if h not in values]
        out.append(" ".join([name, *values]))
    return "; ".join(out)


def policy_of(html):
    """The policy index.html states in its <meta>, or None."""
    meta = CSP_META.search(html)
    if not meta:
        return None
    content = CONTENT.search(meta.group(1))
    return next((v for v in content.groups()[1:] if v is not None), None) if content else None


def pin(html):
    """`html` with its <meta> policy naming the hash of every inline script it runs; its policy."""
    policy = policy_of(html)
    if policy is None:
        raise Fail("the page states no Content-Security-Policy in a <meta>")
    pinned = with_hashes(policy, [source(b) for b in inline_scripts(html)])

    def meta(m):
        return CONTENT.sub(lambda c: f'{c.group(1)}"{pinned}"', m.group(1), count=1)
    return CSP_META.sub(meta, html, count=1), pinned


def check(html):
    """What in a page's policy would let an inline script run unchecked, or stop one it needs."""
    policy = policy_of(html)
    if policy is None:
        return ["no Content-Security-Policy <meta>"]
    script_src = next((d.split()[1:] for d in policy.split(";")
                       if d.split()[:1] == ["script-src"]), None)
    if script_src is None:
        return ["the policy has no script-src"]
    found = ["script-src allows 'unsafe-inline'"] if "'unsafe-inline'" in script_src else []
    for body in inline_scripts(html):
        if source(body) not in script_src:
            found.append(f"an inline script is not hashed in script-src: {body[:60]!r}")
    return found


def build(root):
    index = root / "index.html"
    if not index.is_file():
        raise Fail(f"{index} not found: run trunk build first (or set TRUNK_STAGING_DIR)")
    html, policy = pin(index.read_text(encoding="utf-8"))
    index.write_text(html, encoding="utf-8")
    header = f"{policy}; {HEADER_ONLY}"
    (root / "csp.nginx").write_text(
        "# Written by tools/csp.py: the page's policy, its inline scripts pinned by hash.\n"
        f'add_header Content-Security-Policy "{header}" always;\n', encoding="utf-8")
    print(f"csp.py: pinned {len(inline_scripts(html))} inline scripts in {index}")


def main(argv):
    if argv[:1] == ["--check"]:
        if len(argv) != 2:
            print("usage: csp.py --check FILE", file=sys.stderr)
            return 2
        found = check(Path(argv[1]).read_text(encoding="utf-8"))
        for problem in found:
            print(f"csp.py: {argv[1]}: {problem}", file=sys.stderr)
        return 1 if found else 0
    if argv:
        print("usage: csp.py [--check FILE]  (reads $TRUNK_STAGING_DIR or dist)", file=sys.stderr)
        return 2
    try:
        build(Path(os.environ.get("TRUNK_STAGING_DIR") or "dist"))
    except Fail as e:
        print(f"csp.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
