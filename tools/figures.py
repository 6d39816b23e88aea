#!/usr/bin/env python3
"""Writes the measured figures into docs/performance.md from the test command's output.

Usage: figures.py LOG_DIR DOC [--into OUT]

LOG_DIR holds what scripts/test.sh captured: `bench.log` (divan's table from `cargo bench
--bench estimate`), `web.log` (the in-browser benchmark's `BENCH` lines), `e2e.log` (the
end-to-end tests' `BENCH` lines), `load.log` (the load-time benchmark's), `pool.log` (the
worker pool's) and `size.log` (the
shipped files' sizes). DOC's text between the `figures:begin` and `figures:end` markers is
replaced by tables of those figures beside their targets; the rest of DOC is prose kept by
hand. A figure missing from the logs is written as "not measured", never carried over.
The document is written to OUT when given (scripts/test.sh writes target/figures/, so a test
run changes no tracked file; scripts/figures.sh writes DOC itself, with the change that moves
the figures). Every target missed is listed on standard output.
"""

import datetime
import os
import platform
import re
import sys

BEGIN = "<!-- figures:begin (measured by scripts/test.sh, written by scripts/figures.sh; do not edit) -->"
END = "<!-- figures:end -->"

# divan's names, what they measure, and their targets.
NATIVE = [
    ("dense_405b_16384_chips", "one estimate: Llama 3.1 405B on 16,384 H100 (TP 8, PP 16, 4 virtual stages)", 2e-6),
    ("moe_671b_2048_chips", "one estimate: DeepSeek-V3 671B on 2,048 H800 (PP 16, EP 64, FP8)", 2e-6),
    ("hybrid_nemotron_h_56b_2048_chips", "one estimate: Nemotron-H 56B (Mamba-2 and attention) on 2,048 H100", 2e-6),
    ("vision_qwen2_vl_72b_2048_chips", "one estimate: Qwen2-VL 72B with its vision encoder on 2,048 H100", 2e-6),
    ("newer_kinds_2048_chips/jamba-1.5-mini", "one estimate: Jamba 1.5 Mini on 2,048 H100", 2e-6),
    ("newer_kinds_2048_chips/qwen3-next-80b-a3b", "one estimate: Qwen3-Next 80B-A3B on 2,048 H100", 2e-6),
    ("newer_kinds_2048_chips/rwkv7-2.9b", "one estimate: RWKV-7 2.9B on 2,048 H100", 2e-6),
    ("newer_kinds_2048_chips/wan2.1-14b", "one estimate: Wan 2.1 14B on 2,048 H100", 2e-6),
    ("serving_llama3_70b_h100", "serving's own estimate: Llama 3 70B on H100 at a load and TPOT", 5e-6),
    ("serving_deepseek_v3_h800", "serving's own estimate: DeepSeek-V3 on H800 with wide EP", 5e-6),
    ("serving_search_deepseek_v3_h800", "the serving-cost search: DeepSeek-V3 on up to 2,048 H800, every split and expert TP", 100e-3),
    ("pools_two_by_data", "one job over two pools by data (4,096 H800 beside 4,096 Ascend 910B)", 5e-6),
    ("pools_two_sites_diloco", "one job over two sites, streamed DiLoCo", 5e-6),
    ("sensitivity_405b_16384_chips", "what moves the answer: 14 inputs each way, 405B on 16,384 H100", 200e-6),
    ("network_and_timeline_405b_16384_chips", "the network by tier and the step's timeline, 405B on 16,384 H100", None),
    ("fabric_graph_100000_chips", "the fabric graph and bill of materials of 100,000 chips", None),
    ("scaling_sweep_with_fabric_12_sizes", "the plots' scaling sweep: 12 sizes, each fabric rebuilt", None),
    ("failures_16384_chips_62_days", "failures as a distribution: 400 runs of 405B on 16,384 H100", None),
    ("search_evaluate_one_plan", "judging one plan inside the search", None),
    ("search_dense_405b_16384_chips", "the whole plan search: 405B on 16,384 H100", None),
    ("search_moe_671b_2048_chips", "the whole plan search: DeepSeek-V3 on 2,048 H800", None),
    ("search_newer_kinds_2048_chips/jamba-1.5-mini", "the whole plan search: Jamba 1.5 Mini on 2,048 H100", None),
    ("search_newer_kinds_2048_chips/qwen3-next-80b-a3b", "the whole plan search: Qwen3-Next 80B-A3B on 2,048 H100", None),
    ("search_newer_kinds_2048_chips/rwkv7-2.9b", "the whole plan search: RWKV-7 2.9B on 2,048 H100", None),
    ("search_newer_kinds_2048_chips/wan2.1-14b", "the whole plan search: Wan 2.1 14B on 2,048 H100", None),
    ("size_three_chips_405b_90_days", "a 90-day sizing of 405B on H100, Ascend 910B and MTT S4000", None),
    ("launch_megatron_405b_16384_chips", "the example plan judged and written as Megatron-LM's launch", None),
    ("calibrated_two_shapes_405b_10240_chips", "a plan judged with two measured runs of two shapes (GEMM efficiency and launch time fitted), as on every edit", 1e-3),
    ("measure_megatron_10000_iterations", "a Megatron log of 10,000 iterations read into its step", None),
    ("measure_100mb_log", "a hostile log read whole: 100 MB of lines no format knows", 1.0),
    ("year_20_jobs_52_weeks_3_chips", "the cluster's year: 20 jobs over 52 weeks on three chips, estimated, scheduled, ranged and bought for", 50e-3),
]

# In-browser `BENCH` keys (milliseconds unless named `_us`), what they measure, their targets.
BROWSER = [
    ("estimate_us", "one estimate in wasm", "µs", 60),
    ("input_to_redraw_ms", "input event to redrawn cards, tables and drawing", "ms", 16),
    ("plots_after_edit_ms", "input event to the plots redrawn by their worker (e2e, median of seven edits)", "ms", None),
    ("search_dense_405b_16384_ms", "the whole plan search: 405B on 16,384 H100", "ms", 1000),
    ("search_moe_671b_2048_ms", "the whole plan search: DeepSeek-V3 on 2,048 H800", "ms", 1000),
    ("search_nemotron-h-56b_ms", "the whole plan search: Nemotron-H 56B on 2,048 H100", "ms", 1000),
    ("search_qwen2-vl-72b_ms", "the whole plan search: Qwen2-VL 72B on 2,048 H100", "ms", 1000),
    ("search_jamba-1.5-mini_ms", "the whole plan search: Jamba 1.5 Mini on 2,048 H100", "ms", 1000),
    ("search_qwen3-next-80b-a3b_ms", "the whole plan search: Qwen3-Next 80B-A3B on 2,048 H100", "ms", 1000),
    ("search_rwkv7-2.9b_ms", "the whole plan search: RWKV-7 2.9B on 2,048 H100", "ms", 1000),
    ("search_wan2.1-14b_ms", "the whole plan search: Wan 2.1 14B on 2,048 H100", "ms", 1000),
    ("search_job_dense_405b_16384_ms", "the search as the page's worker runs it, ten plans worded", "ms", 1000),
    ("failures_16384_chips_ms", "failures as a distribution, 400 runs", "ms", 50),
    ("serving_search_deepseek_v3_2048_ms", "the serving-cost search as the page runs it each edit: DeepSeek-V3 on up to 2,048 H800", "ms", 1000),
    ("size_job_dense_405b_90_days_ms", "a 90-day sizing of 405B on H100", "ms", None),
    ("size_job_three_chips_405b_90_days_ms", "a 90-day sizing of 405B on three chips in one worker, one chip after another", "ms", None),
    ("year_20_jobs_ms", "the cluster's year as the plots' worker draws it: 20 jobs over 52 weeks on three chips", "ms", 300),
    ("size_page_three_chips_405b_90_days_ms", "a 90-day sizing of 405B on three chips in the page, on its pool of workers (e2e, click to plot)", "ms", 3000),
]

LOAD = [
    ("load_unthrottled_ms", "unthrottled, 1280 px", None),
    ("load_fast_4g_cpu2_ms", "Fast 4G (9 Mb/s, 60 ms), CPU 2x slower, 1280 px", 800),
    ("load_slow_4g_cpu4_390px_ms", "Slow 4G (1.6 Mb/s, 150 ms), CPU 4x slower, 390 px", 2500),
]

UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def read(log_dir, name):
    try:
        with open(os.path.join(log_dir, name), encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def divan(text):
    """Median seconds by name (`parent/child` for a benchmark's arguments)."""
    out, parent = {}, None
    for line in text.splitlines():
        m = re.match(r"^([│ ]*)[├╰]─ (\S+)\s+(.*)$", line)
        if not m:
            continue
        depth, name, rest = len(m.group(1)) // 3, m.group(2), m.group(3)
        cells = [c.strip() for c in rest.split("│")]
        if depth == 0:
            parent = name
        full = name if depth == 0 else f"{parent}/{name}"
        if len(cells) >= 3 and cells[2]:
            number, unit = cells[2].split()
            out[full] = float(number) * UNITS[unit]
    return out


def bench_lines(text):
    """Every `BENCH key=value` figure, the last one of each key."""
    out = {}
    for line in text.splitlines():
        i = line.find("BENCH ")
        if i < 0:
            continue
        for key, value in re.findall(r"([\w.\-]+)=([\d.]+)", line[i + 6:]):
            out[key] = float(value)
    return out


def seconds(s):
    if s is None:
        return "not measured"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


MISSED = []


def verdict(value, target, what=""):
    if value is None or target is None:
        return ""
    if value <= target:
        return "met"
    MISSED.append(what)
    return "**missed**"


def tables(log_dir):
    native = divan(read(log_dir, "bench.log"))
    browser = {**bench_lines(read(log_dir, "web.log")), **bench_lines(read(log_dir, "e2e.log"))}
    load = bench_lines(read(log_dir, "load.log"))
    lines = [BEGIN, ""]
    when = datetime.date.today().isoformat()
    lines.append(f"Measured {when} on {platform.machine()} with {os.cpu_count()} cores by `./scripts/test.sh`.")
    lines.append("")
    lines.append("### Natively (divan, `cargo bench --bench estimate`)")
    lines.append("")
    lines.append("| what | median | target | |")
    lines.append("|---|---:|---:|---|")
    for key, what, target in NATIVE:
        value = native.get(key)
        lines.append(f"| {what} | {seconds(value)} | {seconds(target) if target else ''} | {verdict(value, target, what)} |")
    dense, sizing = native.get("search_dense_405b_16384_chips"), native.get("size_three_chips_405b_90_days")
    if dense and sizing:
        ratio = sizing / dense
        lines.append("")
        lines.append(f"The three-chip sizing costs {ratio:.1f} dense plan searches (target 10: {verdict(ratio, 10, 'the three-chip sizing against dense searches')}).")
    lines.append("")
    lines.append("### In the browser (headless Chromium, the shipped `wasm-release` profile)")
    lines.append("")
    lines.append("| what | measured | target | |")
    lines.append("|---|---:|---:|---|")
    for key, what, unit, target in BROWSER:
        value = browser.get(key)
        shown = "not measured" if value is None else f"{value:g} {unit}"
        lines.append(f"| {what} | {shown} | {f'{target:g} {unit}' if target else ''} | {verdict(value, target, what)} |")
    lines.append("")
    lines.append("### Load time (`e2e/load.bench.mjs`: navigation to the first result, nothing cached, median of five)")
    lines.append("")
    lines.append("| profile | first result | target | |")
    lines.append("|---|---:|---:|---|")
    for key, what, target in LOAD:
        value = load.get(key)
        shown = "not measured" if value is None else f"{value / 1000:.2f} s"
        lines.append(f"| {what} | {shown} | {f'{target / 1000:.1f} s' if target else ''} | {verdict(value, target, 'load: ' + what)} |")
    kb = load.get("transferred_kb")
    if kb:
        lines.append("")
        lines.append(f"A first load transfers {kb:.1f} KB over the wire, headers included.")
    pool = bench_lines(read(log_dir, "pool.log"))
    lines.append("")
    lines.append("### The search on a pool of workers (`e2e/pool.bench.mjs`: click to ranked plans, the counts in turn, median of five)")
    lines.append("")
    lines.append("| search | workers | measured | against one worker | target | |")
    lines.append("|---|---:|---:|---:|---:|---|")
    for key, what in (("405b", "405B on 16,384 H100"), ("deepseek_v3", "DeepSeek-V3 on 2,048 H800")):
        one = pool.get(f"pool_search_{key}_workers_1_ms")
        for workers in (1, 2, 4):
            value = pool.get(f"pool_search_{key}_workers_{workers}_ms")
            shown = "not measured" if value is None else f"{value:g} ms"
            ratio = value / one if value and one else None
            target = 0.6 if workers == 2 and key == "405b" else None
            lines.append(f"| {what} | {workers} | {shown} | {'' if ratio is None else f'{ratio:.2f}'} | {'≤ 0.6' if target else ''} | {verdict(ratio, target, f'{what} on {workers} workers')} |")
    cores = pool.get("cores")
    if cores:
        lines.append("")
        lines.append(f"The browser reported {cores:g} cores (`navigator.hardwareConcurrency`); the page uses as many workers, at most eight.")
    lines.append("")
    lines.append("### The shipped files (`trunk build --release`)")
    lines.append("")
    lines.append("| file | raw | gzip -9 | brotli |")
    lines.append("|---|---:|---:|---:|")
    for m in re.finditer(r"size: (\S+)\s+(\d+) bytes raw\s+(\d+) bytes gzip -9\s+(\d+) bytes brotli", read(log_dir, "size.log")):
        name = re.sub(r"-[0-9a-f]{16}", "-*", m.group(1))
        raw, gz, br = (int(m.group(i)) / 1000 for i in (2, 3, 4))
        lines.append(f"| `{name}` | {raw:,.1f} KB | {gz:,.1f} KB | {br:,.1f} KB |")
    lines.append("")
    lines.append(END)
    return "\n".join(lines)


def main():
    args = sys.argv[1:]
    out = None
    if "--into" in args:
        at = args.index("--into")
        out = args[at + 1]
        del args[at:at + 2]
    log_dir, doc = args[0], args[1]
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        sys.exit(f"{doc} has no figures block")
    text = text[:start] + tables(log_dir) + text[end + len(END):]
    with open(out or doc, "w", encoding="utf-8") as f:
        f.write(text)
    for what in MISSED:
        print(f"target missed: {what}")
    print(f"figures: {out or doc} ({len(MISSED)} targets missed)")


if __name__ == "__main__":
    main()
