//! Plots of an estimate, each an SVG document (`svg` is the kit they are drawn with).
//!
//! The page shows them inline and saves them as SVG or PNG; the worker draws the sizing and
//! comparison plots; native tests read them as text. Nothing here knows the browser, and
//! nothing computes: every number comes from `model::Estimate` or a
//! `model::sweep::ScalingPoint`, only converted to display units.

mod svg;

pub use svg::escape;

use crate::model::presets::units::GIB;
use crate::model::sweep::{self, ScalingPoint};
use crate::model::Estimate;
use crate::numbers;
use crate::text::substitute;
use svg::{Anchor, Axis, Doc, Mark, Names};

/// `key`'s words with each `{name}` replaced by its value.
fn fill_in(words: fn(&str) -> &'static str, key: &str, values: &[(&str, &str)]) -> String {
    substitute(words(key), values)
}

/// How a plot looks: the colours of one colour scheme, as SVG colours, and its words.
#[derive(Clone, Copy, Debug)]
pub struct Theme {
    /// The plot's words by catalogue key (`chart.step`): the page's language, or any other.
    pub words: fn(&str) -> &'static str,
    /// Plot background.
    pub background: &'static str,
    /// Text, axes and outlines.
    pub foreground: &'static str,
    /// Grid lines.
    pub grid: &'static str,
    /// Warning colour (capacity lines, infeasible points).
    pub alert: &'static str,
    /// Series colours, in breakdown order.
    pub palette: [&'static str; 9],
}

/// Light scheme.
pub const LIGHT: Theme = Theme {
    words: crate::text::t,
    background: "#ffffff",
    foreground: "#212529",
    grid: "#dee2e6",
    alert: "#d62828",
    palette: [
        "#1f77b4", "#aec7e8", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
        "#bcbd22",
    ],
};

/// Dark scheme.
pub const DARK: Theme = Theme {
    words: crate::text::t,
    background: "#181a1f",
    foreground: "#e6e8eb",
    grid: "#3a3e46",
    alert: "#ff6363",
    palette: [
        "#56a0e6", "#96bef0", "#ffa046", "#5fc85f", "#b991e6", "#c88c78", "#f096d2", "#aaaaaa",
        "#d7d750",
    ],
};

/// The size plots are drawn at when nothing else is asked: wide, and as tall as the page's.
pub type Size = (u32, u32);

/// One horizontal stacked bar of `(id, value)` parts (worded as `part.<id>`) with an optional
/// capacity marker, and its legend (name and value per part) in a column on the right.
fn stacked_bar(
    size: Size,
    theme: &Theme,
    caption: &str,
    axis: &str,
    unit: &str,
    parts: &[(&str, f64)],
    capacity: Option<(&str, f64)>,
) -> String {
    let mut doc = Doc::new(size.0 as f64, size.1 as f64, theme);
    doc.caption(caption, theme);
    let total: f64 = parts.iter().map(|(_, v)| v.max(0.0)).sum();
    let limit = capacity.map_or(total, |(_, c)| c.max(total)).max(1e-12) * 1.05;
    let (left, right, top, bottom) = (24.0, doc.w * 0.7 - 10.0, 34.0, doc.h - 44.0);
    let span = right - left;
    let at = |v: f64| left + (v / limit).clamp(0.0, 1.05) * span;
    let x = Axis::linear(0.0, limit, 5);
    for &t in &x.ticks {
        doc.line((at(t), top), (at(t), bottom), theme.grid, 1.0);
        doc.text(at(t), bottom + 16.0, 12.0, Anchor::Middle, theme.foreground, &numbers::sig3(t));
    }
    doc.line((left, bottom), (right, bottom), theme.foreground, 1.0);
    doc.text((left + right) / 2.0, doc.h - 8.0, 12.0, Anchor::Middle, theme.foreground, axis);
    let (bar_top, bar_h) = (top + (bottom - top) * 0.25, (bottom - top) * 0.5);
    let mut legend: Vec<(String, &str)> = Vec::new();
    let mut start = 0.0;
    for (idx, (id, value)) in parts.iter().enumerate() {
        if !(*value > 0.0) {
            continue;
        }
        let color = theme.palette[idx % theme.palette.len()];
        doc.rect(at(start), bar_top, at(start + value) - at(start), bar_h, color);
        let part = format!("{}: {} {unit}", part_name(theme, id), numbers::sig3(*value));
        legend.push((part, color));
        start += value;
    }
    if let Some((label, c)) = capacity {
        let key = if total > c { "chart.capacity-exceeded" } else { "chart.capacity" };
        doc.line(
            (at(c), top + (bottom - top) * 0.1),
            (at(c), top + (bottom - top) * 0.9),
            theme.alert,
            3.0,
        );
        legend.push((
            fill_in(
                theme.words,
                key,
                &[("label", label), ("n", &numbers::sig3(c)), ("unit", unit)],
            ),
            theme.alert,
        ));
    }
    let total_line =
        fill_in(theme.words, "chart.total", &[("n", &numbers::sig3(total)), ("unit", unit)]);
    legend.push((total_line, theme.foreground));
    let lx = doc.w * 0.7 + 6.0;
    for (row, (text, color)) in legend.iter().enumerate() {
        let y = 44.0 + 17.0 * row as f64;
        doc.rect(lx, y - 5.0, 10.0, 10.0, color);
        doc.text(lx + 16.0, y + 4.0, 12.0, Anchor::Start, theme.foreground, text);
    }
    doc.finish()
}

/// Step time split into its parts, seconds.
pub fn draw_step(e: &Estimate, theme: &Theme, size: Size) -> String {
    stacked_bar(
        size,
        theme,
        (theme.words)("chart.step"),
        (theme.words)("chart.seconds-per-step"),
        "s",
        &e.breakdown.parts(),
        None,
    )
}

/// Peak memory per chip split into its parts against the chip's capacity, GiB.
pub fn draw_memory(e: &Estimate, theme: &Theme, size: Size) -> String {
    let parts = e.memory.parts().map(|(id, b)| (id, b / GIB));
    let capacity = Some(((theme.words)("chart.capacity-name"), e.memory.hbm_bytes / GIB));
    stacked_bar(
        size,
        theme,
        (theme.words)("chart.memory"),
        (theme.words)("chart.gib-per-chip"),
        "GiB",
        &parts,
        capacity,
    )
}

/// Site power at training load split into its parts, against the IT peak, MW.
pub fn draw_power(e: &Estimate, theme: &Theme, size: Size) -> String {
    let parts = e.facility.power.parts().map(|(id, w)| (id, w / 1e6));
    let peak = Some(((theme.words)("chart.it-maximum"), e.facility.power.peak_it_w / 1e6));
    stacked_bar(size, theme, (theme.words)("chart.power"), "MW", "MW", &parts, peak)
}

/// The run's amortised cost split into its parts, with the cloud price as a marker, USD M.
pub fn draw_cost(e: &Estimate, theme: &Theme, size: Size) -> String {
    let parts = e.facility.cost.run_parts().map(|(id, usd)| (id, usd / 1e6));
    let cloud = Some(((theme.words)("chart.cloud"), e.facility.cost.run_cloud_usd / 1e6));
    stacked_bar(
        size,
        theme,
        (theme.words)("chart.cost"),
        (theme.words)("chart.usd-millions"),
        "$M",
        &parts,
        cloud,
    )
}

/// A chip count as an axis label.
fn chips_tick(x: f64) -> String {
    numbers::format(x.round())
}

/// A value as an axis label.
fn plain_tick(y: f64) -> String {
    numbers::format(y)
}

/// The range of `f` over `points`, widened for the plot; `fallback` when there is none.
fn range(points: impl Iterator<Item = f64>, fallback: (f64, f64)) -> (f64, f64) {
    let (lo, hi) = points.fold((f64::MAX, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if hi > 0.0 && lo <= hi {
        (lo * 0.7, hi * 1.4)
    } else {
        fallback
    }
}

/// A log-log chart against chip count, `y_name` on its vertical axis, `y2` on the right.
fn chips_chart(
    doc: &mut Doc,
    theme: &Theme,
    caption: &str,
    (x_lo, x_hi): (f64, f64),
    (y_lo, y_hi): (f64, f64),
    y_name: &str,
    y2: Option<(Axis, &str, svg::Tick)>,
) -> svg::Chart {
    doc.caption(caption, theme);
    let (y2, y2_name, y2_tick) = match y2 {
        Some((axis, name, tick)) => (Some(axis), name, tick),
        None => (None, "", &plain_tick as svg::Tick),
    };
    let names = Names {
        x: (theme.words)("chart.chips-log"),
        y: y_name,
        y2: y2_name,
        x_tick: &chips_tick,
        y_tick: &plain_tick,
        y2_tick,
    };
    svg::chart(doc, theme, Axis::log(x_lo, x_hi, 2.0), Axis::log(y_lo, y_hi, 1.0), y2, &names)
}

/// Site power and the run's cost against chip count (log axes), the plan's own size marked.
pub fn draw_plant_scaling(
    points: &[ScalingPoint],
    current: Option<&ScalingPoint>,
    theme: &Theme,
    size: Size,
) -> String {
    let mut doc = Doc::new(size.0 as f64, size.1 as f64, theme);
    let mw = |p: &ScalingPoint| (p.facility_w / 1e6).max(1e-3);
    let musd = |p: &ScalingPoint| (p.run_usd / 1e6).max(1e-3);
    let all = || points.iter().chain(current);
    let (c_lo, c_hi) = range(all().map(musd), (0.1, 100.0));
    let cost_axis = Axis::log(c_lo, c_hi, 1.0);
    let c = chips_chart(
        &mut doc,
        theme,
        (theme.words)("chart.plant-scaling"),
        chip_axis(current.map(|p| p.chips).as_slice()),
        range(all().map(mw), (0.1, 100.0)),
        (theme.words)("chart.site-power-mw"),
        Some((cost_axis, (theme.words)("chart.run-cost-musd"), &plain_tick)),
    );
    let (power_color, cost_color) = (theme.palette[3], theme.palette[4]);
    c.series(&mut doc, points.iter().map(|p| (p.chips as f64, mw(p))), false, power_color, 2.0);
    c.series(&mut doc, points.iter().map(|p| (p.chips as f64, musd(p))), true, cost_color, 2.0);
    let mut legend = vec![
        ((theme.words)("chart.site-power-mw").to_string(), Mark::Line, power_color),
        ((theme.words)("chart.run-cost-amortised").to_string(), Mark::Line, cost_color),
    ];
    if let Some(p) = current {
        doc.dot(c.at(p.chips as f64, mw(p), false), 6.0, theme.foreground);
        doc.dot(c.at(p.chips as f64, musd(p), true), 6.0, cost_color);
        let label =
            fill_in(theme.words, "chart.this-plan", &[("chips", &numbers::format(p.chips as f64))]);
        legend.push((label, Mark::Dot, theme.foreground));
    }
    svg::legend(&mut doc, theme, &c, &legend, false);
    doc.finish()
}

/// What the cluster really delivers against its size, in model EFLOP/s (log axes): linear
/// growth from the smallest size, what MFU leaves, and what failures leave of that.
pub fn draw_effective(
    points: &[ScalingPoint],
    current: Option<&ScalingPoint>,
    theme: &Theme,
    size: Size,
) -> String {
    let mut doc = Doc::new(size.0 as f64, size.1 as f64, theme);
    let exa = |x: f64| (x / 1e18).max(1e-6);
    let first = points.first().copied();
    let ideal = |p: &ScalingPoint| {
        first.map_or(0.0, |f| f.model_flops_per_s * p.chips as f64 / f.chips.max(1) as f64)
    };
    let values = points.iter().flat_map(|p| {
        [exa(p.model_flops_per_s * p.goodput), exa(ideal(p)), exa(p.model_flops_per_s)]
    });
    let c = chips_chart(
        &mut doc,
        theme,
        (theme.words)("chart.effective"),
        chip_axis(current.map(|p| p.chips).as_slice()),
        range(values, (1e-3, 10.0)),
        (theme.words)("chart.eflops"),
        None,
    );
    let series: [(&str, &str, f64, usize); 3] = [
        ((theme.words)("chart.linear"), theme.foreground, 1.0, 0),
        ((theme.words)("chart.at-mfu"), theme.palette[2], 2.0, 1),
        ((theme.words)("chart.after-failures"), theme.palette[0], 2.0, 2),
    ];
    let mut legend = Vec::new();
    for (label, color, width, which) in series {
        let y = |p: &ScalingPoint| match which {
            0 => exa(ideal(p)),
            1 => exa(p.model_flops_per_s),
            _ => exa(p.model_flops_per_s * p.goodput),
        };
        let line: Vec<_> = points.iter().map(|p| c.at(p.chips as f64, y(p), false)).collect();
        doc.path(&line, color, width, if which == 0 { 0.5 } else { 1.0 });
        legend.push((label.to_string(), if which == 0 { Mark::Faint } else { Mark::Line }, color));
    }
    if let Some(p) = current {
        doc.dot(
            c.at(p.chips as f64, exa(p.model_flops_per_s * p.goodput), false),
            6.0,
            theme.foreground,
        );
        let label = fill_in(
            theme.words,
            "chart.this-plan-goodput",
            &[
                ("chips", &numbers::format(p.chips as f64)),
                ("goodput", &crate::format::percent(p.goodput)),
            ],
        );
        legend.push((label, Mark::Dot, theme.foreground));
    }
    svg::legend(&mut doc, theme, &c, &legend, false);
    doc.finish()
}

/// Days to train and MFU against chip count (log axis), with the current plan marked.
pub fn draw_scaling(
    points: &[ScalingPoint],
    current: Option<&ScalingPoint>,
    theme: &Theme,
    size: Size,
) -> String {
    let mut doc = Doc::new(size.0 as f64, size.1 as f64, theme);
    let days = |p: &ScalingPoint| p.train_days.max(1e-3);
    let (lo, hi) = range(points.iter().chain(current).map(days), (0.1, 100.0));
    let mfu_top = points.iter().chain(current).map(|p| p.mfu).fold(0.6f64, f64::max) * 1.1;
    let (x_lo, x_hi) = chip_axis(current.map(|p| p.chips).as_slice());
    let mfu_tick = |y: f64| format!("{:.0}", 100.0 * y);
    let c = chips_chart(
        &mut doc,
        theme,
        (theme.words)("chart.scaling"),
        (x_lo, x_hi),
        (lo, hi),
        (theme.words)("chart.days"),
        Some((Axis::linear(0.0, mfu_top, 6), (theme.words)("chart.mfu-percent"), &mfu_tick)),
    );
    let (days_color, mfu_color) = (theme.palette[0], theme.palette[2]);
    let mut legend = Vec::new();
    // Perfect scaling from this plan: the gap to the curve is what size costs.
    if let Some(p) = current {
        let ideal =
            |chips: f64| sweep::ideal_days(p, chips.round().clamp(1.0, u32::MAX as f64) as u32);
        let line = [x_lo, x_hi].map(|x| c.at(x, ideal(x).clamp(lo, hi), false));
        doc.path(&line, theme.foreground, 1.0, 0.5);
        legend.push(((theme.words)("chart.ideal").to_string(), Mark::Faint, theme.foreground));
    }
    c.series(&mut doc, points.iter().map(|p| (p.chips as f64, days(p))), false, days_color, 2.0);
    legend.push(((theme.words)("chart.days").to_string(), Mark::Line, days_color));
    c.series(&mut doc, points.iter().map(|p| (p.chips as f64, p.mfu)), true, mfu_color, 2.0);
    legend.push(((theme.words)("chart.mfu-percent").to_string(), Mark::Line, mfu_color));
    if points.iter().any(|p| !p.fits) {
        for p in points.iter().filter(|p| !p.fits) {
            doc.cross(c.at(p.chips as f64, days(p), false), 4.0, theme.alert);
        }
        legend.push(((theme.words)("chart.does-not-fit").to_string(), Mark::Cross, theme.alert));
    }
    if let Some(p) = current {
        doc.dot(c.at(p.chips as f64, days(p), false), 6.0, theme.foreground);
        doc.dot(c.at(p.chips as f64, p.mfu, true), 5.0, mfu_color);
        let verdict = (theme.words)(if p.fits { "fit.fits" } else { "fit.does-not-fit" });
        let chips = numbers::format(p.chips as f64);
        let label =
            fill_in(theme.words, "chart.this-plan-fit", &[("chips", &chips), ("verdict", verdict)]);
        legend.push((label, Mark::Dot, theme.foreground));
    }
    svg::legend(&mut doc, theme, &c, &legend, true);
    doc.finish()
}

/// Days to train (with failures) against chip count for each chip sized, with the deadline as
/// a grey line, so "N of chip A match M of chip B" reads off where the curves cross it.
pub fn sizing_svg(curves: &[Curve], deadline_days: f64, theme: &Theme, size: Size) -> String {
    let mut doc = Doc::new(size.0 as f64, size.1 as f64, theme);
    let deadline = deadline_days.max(1e-3);
    let all = || curves.iter().flat_map(|c| c.points.iter());
    let (x_lo, x_hi) = range(all().map(|&(n, _)| n as f64), (8.0 / 0.7, CHIP_AXIS.1 / 1.4));
    let (y_lo, y_hi) = range(all().map(|&(_, d)| d.max(1e-3)).chain([deadline]), (0.1, 100.0));
    let c = chips_chart(
        &mut doc,
        theme,
        (theme.words)("chart.sizing"),
        (x_lo, x_hi),
        (y_lo, y_hi),
        (theme.words)("chart.days-with-failures"),
        None,
    );
    let fg = theme.foreground;
    let line = [c.at(x_lo, deadline, false), c.at(x_hi, deadline, false)];
    doc.path(&line, fg, 2.0, 0.6);
    let mut legend = vec![(
        fill_in(theme.words, "chart.deadline", &[("days", &numbers::format(deadline_days))]),
        Mark::Line,
        fg,
    )];
    for (i, curve) in curves.iter().enumerate() {
        let color = theme.palette[i % theme.palette.len()];
        let points: Vec<_> =
            curve.points.iter().map(|&(n, d)| c.at(n as f64, d.max(1e-3), false)).collect();
        doc.path(&points, color, 2.0, 1.0);
        for p in points {
            doc.dot(p, 5.0, color);
        }
        legend.push((curve.label.clone(), Mark::Dot, color));
    }
    svg::legend(&mut doc, theme, &c, &legend, true);
    doc.finish()
}

/// Draws plot `kind` of estimate `e` of a plan on `chips` chips, with the plan at other sizes
/// (`scaling`) for the plots against chip count.
pub fn draw(
    kind: Kind,
    e: &Estimate,
    scaling: &[ScalingPoint],
    chips: u32,
    theme: &Theme,
    size: Size,
) -> String {
    let current = ScalingPoint::of(chips, e);
    match kind {
        Kind::Step => draw_step(e, theme, size),
        Kind::Memory => draw_memory(e, theme, size),
        Kind::Scaling => draw_scaling(scaling, Some(&current), theme, size),
        Kind::Power => draw_power(e, theme, size),
        Kind::Cost => draw_cost(e, theme, size),
        Kind::PlantScaling => draw_plant_scaling(scaling, Some(&current), theme, size),
        Kind::Effective => draw_effective(scaling, Some(&current), theme, size),
    }
}

/// Plan A against plan B: each one's step as a stacked bar on one axis (A above B), parts in
/// the step plot's colours, with both values per part in the legend.
pub fn draw_compare_step(a: &Estimate, b: &Estimate, theme: &Theme, size: Size) -> String {
    let mut doc = Doc::new(size.0 as f64, size.1 as f64, theme);
    doc.caption((theme.words)("chart.compare-step"), theme);
    let limit = a.step_s.max(b.step_s).max(1e-12) * 1.05;
    let (left, right, top, bottom) = (34.0, doc.w * 0.62 - 10.0, 34.0, doc.h - 44.0);
    let at = |v: f64| left + (v / limit).clamp(0.0, 1.05) * (right - left);
    for &t in &Axis::linear(0.0, limit, 5).ticks {
        doc.line((at(t), top), (at(t), bottom), theme.grid, 1.0);
        doc.text(at(t), bottom + 16.0, 12.0, Anchor::Middle, theme.foreground, &numbers::sig3(t));
    }
    doc.line((left, bottom), (right, bottom), theme.foreground, 1.0);
    let name_x = (left + right) / 2.0;
    doc.text(
        name_x,
        doc.h - 8.0,
        12.0,
        Anchor::Middle,
        theme.foreground,
        (theme.words)("chart.seconds-per-step"),
    );
    let (pa, pb) = (a.breakdown.parts(), b.breakdown.parts());
    let band = (bottom - top) / 2.0;
    for (row, (name, parts)) in [("A", &pa), ("B", &pb)].into_iter().enumerate() {
        let y = top + band * row as f64 + band * 0.2;
        doc.text(left - 8.0, y + band * 0.3 + 4.0, 12.0, Anchor::End, theme.foreground, name);
        let mut start = 0.0;
        for (idx, (_, value)) in parts.iter().enumerate() {
            if *value > 0.0 {
                let color = theme.palette[idx % theme.palette.len()];
                doc.rect(at(start), y, at(start + value) - at(start), band * 0.6, color);
                start += value;
            }
        }
    }
    let rows = pa.iter().zip(pb.iter()).enumerate().filter(|(_, (x, y))| x.1 > 0.0 || y.1 > 0.0);
    let lx = doc.w * 0.62 + 6.0;
    for (row, (idx, ((id, va), (_, vb)))) in rows.enumerate() {
        let y = 44.0 + 17.0 * row as f64;
        doc.rect(lx, y - 5.0, 10.0, 10.0, theme.palette[idx % theme.palette.len()]);
        let text = format!(
            "{}: A {} s, B {} s",
            part_name(theme, id),
            numbers::sig3(*va),
            numbers::sig3(*vb)
        );
        doc.text(lx + 16.0, y + 4.0, 12.0, Anchor::Start, theme.foreground, &text);
    }
    doc.finish()
}

/// Plan A against plan B: days to train against chip count for each, the plans themselves
/// marked.
pub fn draw_compare_scaling(
    a: (&[ScalingPoint], &ScalingPoint),
    b: (&[ScalingPoint], &ScalingPoint),
    theme: &Theme,
    size: Size,
) -> String {
    let mut doc = Doc::new(size.0 as f64, size.1 as f64, theme);
    let days = |p: &ScalingPoint| p.train_days.max(1e-3);
    let all = a.0.iter().chain(b.0).chain([a.1, b.1]);
    let x = chip_axis(&[a.1.chips, b.1.chips]);
    let c = chips_chart(
        &mut doc,
        theme,
        (theme.words)("chart.compare-scaling"),
        x,
        range(all.map(days), (0.1, 100.0)),
        (theme.words)("chart.days"),
        None,
    );
    let mut legend = Vec::new();
    for ((points, current), name, color) in [
        (a, (theme.words)("chart.plan-a"), theme.palette[0]),
        (b, (theme.words)("chart.plan-b"), theme.palette[3]),
    ] {
        let fitting = points.iter().filter(|p| p.fits);
        c.series(&mut doc, fitting.map(|p| (p.chips as f64, days(p))), false, color, 2.0);
        doc.dot(c.at(current.chips as f64, days(current), false), 6.0, color);
        legend.push((name.to_string(), Mark::Dot, color));
    }
    svg::legend(&mut doc, theme, &c, &legend, true);
    doc.finish()
}

/// A breakdown part's name in the theme's words (`part.<id>`).
fn part_name(theme: &Theme, id: &str) -> &'static str {
    (theme.words)(&format!("part.{id}"))
}

/// Tick values on a log axis from `lo` to `hi`: each power of ten times each of `steps`, or,
/// with `base` 2, the powers of two; at most about a dozen, so labels never collide.
pub(crate) fn ticks(lo: f64, hi: f64, steps: &[f64], base: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return Vec::new();
    }
    let mut out = Vec::new();
    if base == 2.0 {
        let mut x = 2f64.powi(lo.log2().ceil() as i32);
        let stride = if hi / lo > 4096.0 { 2.0 } else { 1.0 };
        while x <= hi {
            out.push(x);
            x *= 2f64.powf(stride);
        }
    } else {
        let mut decade = 10f64.powi(lo.log10().floor() as i32);
        while decade <= hi {
            out.extend(steps.iter().map(|s| s * decade).filter(|x| (lo..=hi).contains(x)));
            decade *= 10.0;
        }
    }
    out
}

/// The chip counts the scaling plots always show: 64 to 100,000 chips with a margin.
const CHIP_AXIS: (f64, f64) = (48.0, 131072.0);

/// The chip-count axis of the scaling plots, widened to keep each plan of `chips` on it.
fn chip_axis(chips: &[u32]) -> (f64, f64) {
    let lo = chips.iter().map(|&n| n as f64 * 0.7).fold(CHIP_AXIS.0, f64::min).max(1.0);
    let hi = chips.iter().map(|&n| n as f64 * 1.4).fold(CHIP_AXIS.1, f64::max);
    (lo, hi)
}

/// One chip's best days to train at each cluster size a sizing searched.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Curve {
    /// The chip, as the legend names it.
    pub label: String,
    /// (chips, days with failures), by chips.
    pub points: Vec<(u32, f64)>,
}

/// One of the page's plots of an estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Step-time breakdown.
    Step,
    /// Memory breakdown against capacity.
    Memory,
    /// Days and MFU against chip count.
    Scaling,
    /// Site power breakdown.
    Power,
    /// The run's cost breakdown.
    Cost,
    /// Site power and run cost against chip count.
    PlantScaling,
    /// Effective compute against chip count.
    Effective,
}

impl Kind {
    /// Every plot, in the page's order.
    pub const ALL: [Kind; 7] = [
        Kind::Step,
        Kind::Memory,
        Kind::Scaling,
        Kind::Power,
        Kind::Cost,
        Kind::PlantScaling,
        Kind::Effective,
    ];

    /// The plot's name in requests and file names.
    pub fn id(self) -> &'static str {
        match self {
            Kind::Step => "step",
            Kind::Memory => "memory",
            Kind::Scaling => "scaling",
            Kind::Power => "power",
            Kind::Cost => "cost",
            Kind::PlantScaling => "plant-scaling",
            Kind::Effective => "effective",
        }
    }

    /// The plot named `id`.
    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The plot's height on the page, CSS pixels: bars are short, curves against chip count
    /// taller.
    pub fn height(self) -> u32 {
        match self {
            Kind::Scaling => 320,
            Kind::PlantScaling | Kind::Effective => 300,
            Kind::Step | Kind::Memory | Kind::Power | Kind::Cost => 230,
        }
    }
}

/// Every plot of a plan, each an SVG document `width` wide (`Kind::height` tall), keyed by
/// `Kind::id`.
pub fn draw_all(
    e: &Estimate,
    scaling: &[ScalingPoint],
    chips: u32,
    theme: &Theme,
    width: u32,
) -> Vec<(&'static str, String)> {
    Kind::ALL
        .into_iter()
        .map(|kind| (kind.id(), draw(kind, e, scaling, chips, theme, (width, kind.height()))))
        .collect()
}
