#!/usr/bin/env python3
"""Write dist/standalone.html: the app in one file that works from file:// with no network.

Run by trunk as a post_build hook (Trunk.toml) with TRUNK_STAGING_DIR set; by hand it reads `dist`.
It inlines what trunk's index.html references: stylesheets into <style>, the wasm-bindgen glue as a
data: module URL, the wasm as base64 bytes handed to init(), the text catalogues (dist/text/*.txt)
as <script type="text/plain" data-text="LANG">. It drops preload links, the script that fetches the
words early, <base> and trunk serve's autoreload script, and sets a Content-Security-Policy that allows no request at all
and runs only its own inline scripts, pinned by hash (tools/csp.py).

    python3 tools/standalone.py               # $TRUNK_STAGING_DIR or dist -> standalone.html
    python3 tools/standalone.py --check FILE  # exit 1 if FILE still points at a server or the web
"""

import base64
import mimetypes
import os
import re
import sys
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import csp

# Its scripts' hashes join script-src once the page is put together (`csp.pin`).
CSP = ("default-src 'none'; script-src 'wasm-unsafe-eval' data:; worker-src blob:; "
       "style-src 'unsafe-inline'; img-src data: blob:; connect-src 'none'; "
       "base-uri 'none'; form-action 'none'")
ATTR = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")
LINK = re.compile(r"<link\b[^>]*>", re.I)
SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.I | re.S)
CSP_META = re.compile(r"<meta\b[^>]*http-equiv\s*=\s*[\"']?content-security-policy[^>]*>", re.I)
QUOTED = r"""(["'])([^"']+)\1"""
WORKER = re.compile(r"<script\b[^>]*\bdata-worker\b[^>]*>(.*?)</script\s*>", re.I | re.S)


class Fail(Exception):
    pass


def attrs(tag):
    """Attributes of an opening tag, lower-case names (the tag name itself is dropped)."""
    body = re.sub(r"^<\w+|/?>$", "", tag)
    return {m[1].lower(): next((v for v in m.groups()[1:] if v is not None), "")
            for m in ATTR.finditer(body)}


def local(root, url, public_url):
    """The file in `root` that an href/src/import from index.html names, or None."""
    if not url or re.match(r"^[a-z][a-z0-9+.-]*:|^//", url, re.I):
        return None  # data:, http:, protocol-relative: not ours
    path = unquote(urlsplit(url).path)
    candidates = [path[len(public_url):]] if public_url and path.startswith(public_url) else []
    candidates += [re.sub(r"^(\./|/)+", "", path), Path(path).name]
    base = root.resolve()
    for candidate in candidates:
        file = (base / candidate).resolve()
        if file.is_file() and (file == base or base in file.parents):
            return file
    return None


def b64(data):
    return base64.b64encode(data).decode("ascii")


def data_url(file):
    mime = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
    return f"data:{mime};base64,{b64(file.read_bytes())}"


def inline_css(root, file):
    """A stylesheet with its local url(...) references (fonts, images) turned into data: URLs."""
    def repl(m):
        target = m.group(2)
        if re.match(r"^(data:|#)", target):
            return m.group(0)
        found = local(file.parent, target, "") or local(root, target, "")
        return f'url("{data_url(found)}")' if found else m.group(0)
    css = file.read_text(encoding="utf-8")
    css = re.sub(r"""url\(\s*(["']?)([^"')]+)\1\s*\)""", repl, css)
    return css.replace("</style", "<\\/style")


def glue_module(root, file):
    """The wasm-bindgen glue as a data: URL; its ./snippets/ imports inlined the same way."""
    js = file.read_text(encoding="utf-8")

    def repl(m):
        found = local(file.parent, m.group(3), "") or local(root, m.group(3), "")
        if not found:
            raise Fail(f"{file.name} imports {m.group(3)}, which is not in {root}")
        return f"{m.group(1)}{m.group(2)}{glue_module(root, found)}{m.group(2)}"
    js = re.sub(r"""(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}/[^"']+)\2""", repl, js)
    return "data:text/javascript;base64," + b64(js.encode("utf-8"))


def build(root):
    index = root / "index.html"
    if not index.is_file():
        raise Fail(f"{index} not found: run trunk build first (or set TRUNK_STAGING_DIR)")
    html = index.read_text(encoding="utf-8")
    public_url = os.environ.get("TRUNK_PUBLIC_URL", "/")
    sizes = {"css": 0}

    # The app's module script: import the glue from data:, hand init() the wasm bytes.
    modules = [m for m in SCRIPT.finditer(html)
               if attrs(f"<script {m.group(1)}>").get("type") == "module"
               and re.search(r"\bimport\s+init\b", m.group(2))]
    if len(modules) != 1:
        raise Fail(f"expected one trunk module script importing init in {index}, found {len(modules)}")
    script = modules[0]
    body = script.group(2)
    if "__trunkInitializer" in body:
        raise Fail("a custom data-initializer fetches the wasm itself; standalone.html cannot inline it")
    glue_ref = re.search(r"\bimport\s+init\b[^;]*?\bfrom\s*" + QUOTED, body)
    wasm_ref = (re.search(r"\bmodule_or_path\s*:\s*" + QUOTED, body)
                or re.search(r"\binit\(\s*" + QUOTED, body))
    if not glue_ref or not wasm_ref:
        raise Fail(f"cannot find the glue import and the wasm path in trunk's script in {index}")
    glue = local(root, glue_ref.group(2), public_url)
    wasm = local(root, wasm_ref.group(2), public_url)
    if not glue or not glue.name.endswith(".js"):
        raise Fail(f"the wasm-bindgen glue {glue_ref.group(2)} is not in {root}")
    if not wasm or not wasm.name.endswith(".wasm"):
        raise Fail(f"the wasm {wasm_ref.group(2)} is not in {root}")
    sizes["js"], sizes["wasm"] = glue.stat().st_size, wasm.stat().st_size
    wasm_bytes = f"Uint8Array.from(atob('{b64(wasm.read_bytes())}'), c => c.charCodeAt(0))"
    # Replace each quoted path (quotes included) by its inlined form, the later one first.
    edits = [(glue_ref.span(2), f"'{glue_module(root, glue)}'"), (wasm_ref.span(2), wasm_bytes)]
    out = body
    for (start, end), new in sorted(edits, reverse=True):
        out = out[:start - 1] + new + out[end + 1:]
    html = html[:script.start(2)] + out + html[script.end(2):]

    # The plan search's worker (a second wasm build with no-modules glue), inline as the text
    # of <script type="text/plain" data-worker>, which the page starts as a blob: URL in place
    # of its loader file (a data: URL would pass Chromium's 2 MiB limit on addresses).
    worker_glue, worker_wasm = root / "clusterplan-worker.js", root / "clusterplan-worker_bg.wasm"
    if worker_glue.is_file() and worker_wasm.is_file():
        worker_js = (worker_glue.read_text(encoding="utf-8")
                     + f"\nwasm_bindgen({{ module_or_path: Uint8Array.from(atob('{b64(worker_wasm.read_bytes())}'), c => c.charCodeAt(0)) }})"
                     + ".catch(e => postMessage(JSON.stringify({ done: true, errors: ['the search worker could not start: ' + e] })));\n")
        if re.search(r"</script", worker_js, re.I):
            raise Fail("the worker's code holds </script and cannot be carried as script text")
        sizes["worker"] = len(worker_js)
        worker_block = f'<script type="text/plain" data-worker>{worker_js}</script>'
        html, n = re.subn(r"</head\s*>", lambda m: worker_block + m.group(0), html, count=1, flags=re.I)
        if n == 0:
            raise Fail(f"{index} has no </head> to put the search worker in")
    else:
        print("standalone.py: no search worker in the build; the plan search will not run offline", file=sys.stderr)

    # The text catalogues (each language's words and explanations, and the catalog's sources), inline where the page looks first
    # (<script type="text/plain" data-text="en">), so switching language needs no request.
    # The worker's own words are compiled into the worker, so the page carries none of them.
    texts = sorted(f for f in (root / "text").glob("*.txt") if not f.name.endswith(".worker.txt")) \
        if (root / "text").is_dir() else []
    if not texts:
        raise Fail(f"no text catalogues in {root / 'text'}: the page would have no words")
    blocks = []
    for file in texts:
        # Comments and blank lines are for translators: the page is served without them.
        lines = file.read_text(encoding="utf-8").splitlines()
        body = "\n".join(l for l in lines if l.strip() and not l.startswith("#")) + "\n"
        file.write_text(body, encoding="utf-8")
        if "</" in body:
            raise Fail(f"{file} contains '</', which would end its <script> early")
        blocks.append(f'<script type="text/plain" data-text="{file.stem}">{body}</script>')
    html, n = re.subn(r"</head\s*>", lambda m: "".join(blocks) + m.group(0), html, count=1, flags=re.I)
    if n == 0:
        raise Fail(f"{index} has no </head> to put the text catalogues in")

    # Links: stylesheets inlined, preloads dropped, local icons as data:, anything else local dropped.
    def link(m):
        a = attrs(m.group(0))
        rel = a.get("rel", "").lower().split()
        file = local(root, a.get("href", ""), public_url)
        if "stylesheet" in rel:
            if not file:
                raise Fail(f"stylesheet {a.get('href')} is not in {root}")
            css = inline_css(root, file)
            sizes["css"] += len(css)
            media = f' media="{a["media"]}"' if a.get("media") else ""
            return f"<style{media}>{css}</style>"
        if "preload" in rel or "modulepreload" in rel or "prefetch" in rel:
            return ""
        if file and "icon" in rel:
            return re.sub(r"""href\s*=\s*(["']?)[^"'\s>]*\1""", f'href="{data_url(file)}"', m.group(0))
        if file:
            print(f"standalone.py: dropped {m.group(0)}", file=sys.stderr)
            return ""
        return m.group(0)
    html = LINK.sub(link, html)

    # trunk serve's autoreload script, the script that fetches the words early (the file carries
    # them) and <base> would reach for a server; base-uri 'none' refuses <base>.
    def script(m):
        serves = ".well-known/trunk/ws" in m.group(2) or "data-words" in attrs(f"<script{m.group(1)}>")
        return "" if serves else m.group(0)
    html = SCRIPT.sub(script, html)
    html = re.sub(r"<base\b[^>]*>", "", html, flags=re.I)
    meta = f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
    html, n = CSP_META.subn(lambda _: meta, html)
    if n == 0:
        html, n = re.subn(r"<head\b[^>]*>", lambda m: m.group(0) + meta, html, count=1, flags=re.I)
        if n == 0:
            raise Fail(f"{index} has no <head> to put the Content-Security-Policy in")

    html, policy = csp.pin(html)

    out_file = root / "standalone.html"
    tmp = root / ".standalone.html.tmp"
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(out_file)
    # Where it is hosted beside the page, it is served with its own policy as a header (a
    # location's headers replace the server's, so the file states them all): the page's would
    # refuse its scripts and the worker it starts from a blob: URL.
    (root / "csp-standalone.nginx").write_text(
        "# Written by tools/standalone.py: standalone.html's own policy and the site's headers.\n"
        f'add_header Content-Security-Policy "{policy}; {csp.HEADER_ONLY}" always;\n'
        'add_header Cache-Control "no-cache" always;\n'
        "add_header X-Content-Type-Options nosniff always;\n"
        "add_header Referrer-Policy no-referrer always;\n", encoding="utf-8")
    size = out_file.stat().st_size
    print(f"standalone.py: wrote {out_file} ({size:,} bytes; wasm {sizes['wasm']:,}, "
          f"glue {sizes['js']:,}, css {sizes['css']:,})")
    for problem in check(html):
        print(f"standalone.py: warning: {problem}", file=sys.stderr)


def check(html):
    """What in a standalone page would still reach a server or the web, or run unpinned."""
    found = csp.check(html)
    html = CSP_META.sub("", html)
    html = re.sub(r"data:[^\"'()\s]*", "data:", html)  # base64 bodies, URL-encoded data
    # The worker's code: its addresses count, but `URL(` there is a call, not a stylesheet's.
    worker = "".join(m.group(1) for m in WORKER.finditer(html))
    page = WORKER.sub("", html)
    for m in re.finditer(r"""\b(?:src|href)\s*=\s*["']?/[^"'\s>]*""", page, re.I):
        found.append(m.group(0))
    for m in re.finditer(r"""https?://[^"'\s<>)]*""", page + worker, re.I):
        if not m.group(0).lower().startswith("http://www.w3.org/"):  # XML namespaces, never fetched
            found.append(m.group(0))
    for m in re.finditer(r"""url\(\s*["']?(?!data:|#)[^"')]+""", page, re.I):
        found.append(m.group(0))
    return found


def main(argv):
    if argv[:1] == ["--check"]:
        if len(argv) != 2:
            print("usage: standalone.py --check FILE", file=sys.stderr)
            return 2
        try:
            html = Path(argv[1]).read_text(encoding="utf-8")
        except OSError as e:
            print(f"standalone.py: cannot read {argv[1]}: {e.strerror}", file=sys.stderr)
            return 1
        found = check(html)
        for problem in found:
            print(f"{argv[1]}: not self-contained: {problem[:120]}")
        if not found:
            print(f"{argv[1]}: self-contained ({len(html.encode()):,} bytes)")
        return 1 if found else 0
    if argv:
        print("usage: standalone.py [--check FILE]  (reads $TRUNK_STAGING_DIR or dist)", file=sys.stderr)
        return 2
    try:
        build(Path(os.environ.get("TRUNK_STAGING_DIR") or "dist"))
    except (Fail, csp.Fail) as e:
        print(f"standalone.py: error: {e}", file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError) as e:
        print(f"standalone.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
