//! Plots of an estimate, drawn on any plotters `DrawingBackend`.
//!
//! The app draws these on a `<canvas>`; native tests draw them into SVG strings. Nothing here
//! knows the browser, and nothing computes: every number comes from `model::Estimate` or a
//! `model::sweep::ScalingPoint`, only converted to display units.

use plotters::coord::combinators::WithKeyPoints;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::model::sweep::{self, ScalingPoint};
use crate::model::Estimate;
use crate::numbers;

/// Colours for one colour scheme.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    /// Plot background.
    pub background: RGBColor,
    /// Text, axes and outlines.
    pub foreground: RGBColor,
    /// Grid lines.
    pub grid: RGBColor,
    /// Warning colour (capacity lines, infeasible points).
    pub alert: RGBColor,
    /// Series colours, in breakdown order.
    pub palette: [RGBColor; 9],
    /// Device pixels per CSS pixel: fonts, margins and strokes are multiplied by it, so a
    /// canvas drawn at the screen's density stays sharp.
    pub scale: f64,
}

impl Theme {
    /// The theme drawn at `scale` device pixels per CSS pixel.
    pub fn at_scale(self, scale: f64) -> Theme {
        Theme { scale: if scale.is_finite() { scale.clamp(1.0, 4.0) } else { 1.0 }, ..self }
    }

    /// `n` CSS pixels in device pixels.
    fn px(&self, n: f64) -> i32 {
        (n * self.scale).round() as i32
    }

    /// `n` CSS pixels in device pixels, unsigned.
    fn upx(&self, n: f64) -> u32 {
        self.px(n).max(0) as u32
    }

    /// The sans-serif font at `size` CSS pixels.
    fn font(&self, size: f64) -> TextStyle<'static> {
        ("sans-serif", size * self.scale).into_font().color(&self.foreground)
    }
}

/// Light scheme.
pub const LIGHT: Theme = Theme {
    background: RGBColor(255, 255, 255),
    foreground: RGBColor(33, 37, 41),
    grid: RGBColor(222, 226, 230),
    alert: RGBColor(214, 40, 40),
    palette: [
        RGBColor(31, 119, 180),
        RGBColor(174, 199, 232),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
    ],
    scale: 1.0,
};

/// Dark scheme.
pub const DARK: Theme = Theme {
    background: RGBColor(24, 26, 31),
    foreground: RGBColor(230, 232, 235),
    grid: RGBColor(58, 62, 70),
    alert: RGBColor(255, 99, 99),
    palette: [
        RGBColor(86, 160, 230),
        RGBColor(150, 190, 240),
        RGBColor(255, 160, 70),
        RGBColor(95, 200, 95),
        RGBColor(185, 145, 230),
        RGBColor(200, 140, 120),
        RGBColor(240, 150, 210),
        RGBColor(170, 170, 170),
        RGBColor(215, 215, 80),
    ],
    scale: 1.0,
};

/// Why a plot could not be drawn (the backend's own error, as text).
pub type DrawResult = Result<(), String>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

const GIB: f64 = 1073741824.0;

/// Labels of the step-time parts, in `StepBreakdown::parts` order.
pub const STEP_LABELS: [&str; 10] = [
    "compute",
    "recompute",
    "TP comm",
    "CP comm",
    "EP all-to-all",
    "PP send/recv",
    "DP comm",
    "pipeline bubble",
    "optimizer",
    "slowest chip",
];

/// One horizontal stacked bar of `(label, value)` parts with an optional capacity marker,
/// and its legend (label and value per part) in a column on the right.
fn stacked_bar<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    theme: &Theme,
    caption: &str,
    axis: &str,
    unit: &str,
    parts: &[(&str, f64)],
    capacity: Option<(&str, f64)>,
) -> DrawResult {
    root.fill(&theme.background).map_err(err)?;
    let root = root.titled(caption, theme.font(16.0)).map_err(err)?;
    let (width, _) = root.dim_in_pixel();
    let (plot_area, legend_area) = root.split_horizontally((width as f64 * 0.7) as u32);
    let total: f64 = parts.iter().map(|(_, v)| v.max(0.0)).sum();
    let limit = capacity.map_or(total, |(_, c)| c.max(total)).max(1e-12) * 1.05;
    let mut chart = ChartBuilder::on(&plot_area)
        .margin(theme.upx(10.0))
        .x_label_area_size(theme.upx(40.0))
        .y_label_area_size(theme.upx(6.0))
        .build_cartesian_2d(0.0..limit, 0.0..1.0)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .disable_y_axis()
        .light_line_style(theme.grid.mix(0.5))
        .bold_line_style(theme.grid)
        .max_light_lines(2)
        .axis_style(theme.foreground)
        .x_desc(axis)
        .x_label_formatter(&|x| short(*x))
        .label_style(theme.font(12.0))
        .draw()
        .map_err(err)?;
    let mut start = 0.0;
    let mut legend: Vec<(String, ShapeStyle)> = Vec::new();
    for (idx, (label, value)) in parts.iter().enumerate() {
        if !(*value > 0.0) {
            continue;
        }
        let color = theme.palette[idx % theme.palette.len()];
        let end = start + value;
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(start, 0.25), (end, 0.75)],
                color.filled(),
            )))
            .map_err(err)?;
        legend.push((format!("{label}: {} {unit}", short(*value)), color.filled()));
        start = end;
    }
    if let Some((label, c)) = capacity {
        let over = total > c;
        let style = theme.alert.stroke_width(theme.upx(3.0));
        chart
            .draw_series(std::iter::once(PathElement::new(vec![(c, 0.1), (c, 0.9)], style)))
            .map_err(err)?;
        let verdict = if over { " (exceeded)" } else { "" };
        legend.push((format!("{label}: {} {unit}{verdict}", short(c)), theme.alert.filled()));
    }
    legend.push((format!("total: {} {unit}", short(total)), theme.foreground.filled()));
    let font = theme.font(12.0);
    let px = |n: f64| theme.px(n);
    for (row, (text, style)) in legend.iter().enumerate() {
        let y = px(14.0 + 17.0 * row as f64);
        legend_area
            .draw(&Rectangle::new([(px(6.0), y - px(5.0)), (px(16.0), y + px(5.0))], *style))
            .map_err(err)?;
        legend_area
            .draw(&Text::new(text.clone(), (px(22.0), y - px(7.0)), font.clone()))
            .map_err(err)?;
    }
    root.present().map_err(err)
}

/// A number with three significant digits.
fn short(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// Step time split into its parts, seconds.
pub fn draw_step<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    e: &Estimate,
    theme: &Theme,
) -> DrawResult {
    let values = e.breakdown.parts();
    let parts: Vec<(&str, f64)> =
        STEP_LABELS.iter().zip(values.iter()).map(|(l, (_, v))| (*l, *v)).collect();
    stacked_bar(root, theme, "Step time breakdown", "seconds per step", "s", &parts, None)
}

/// Labels of the memory parts, in `memory_parts` order.
pub const MEMORY_LABELS: [&str; 8] = [
    "weights",
    "gradients",
    "optimizer",
    "activations",
    "logits",
    "transient",
    "comm buffers",
    "reserve",
];

/// Memory parts in bytes, in `MEMORY_LABELS` order.
pub fn memory_parts(e: &Estimate) -> [f64; 8] {
    let m = &e.memory;
    [
        m.weights_bytes,
        m.grads_bytes,
        m.optimizer_bytes,
        m.activations_bytes,
        m.logits_bytes,
        m.transient_bytes,
        m.comm_buffers_bytes,
        m.reserve_bytes,
    ]
}

/// Peak memory per chip split into its parts against the chip's capacity, GiB.
pub fn draw_memory<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    e: &Estimate,
    theme: &Theme,
) -> DrawResult {
    let bytes = memory_parts(e);
    let parts: Vec<(&str, f64)> =
        MEMORY_LABELS.iter().zip(bytes).map(|(l, b)| (*l, b / GIB)).collect();
    stacked_bar(
        root,
        theme,
        "Memory per chip at peak",
        "GiB per chip",
        "GiB",
        &parts,
        Some(("capacity", e.memory.hbm_bytes / GIB)),
    )
}

/// Tick values on a log axis from `lo` to `hi`: each power of ten times each of `steps`, or,
/// with `base` 2, the powers of two; at most about a dozen, so labels never collide.
fn ticks(lo: f64, hi: f64, steps: &[f64], base: f64) -> Vec<f64> {
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

/// How a legend entry is marked.
#[derive(Clone, Copy)]
enum Mark {
    Line,
    Dot,
    Cross,
}

/// A legend drawn by hand in a corner of the plotting area: plotters' own legend measures
/// every label through the page's layout in a browser, which costs more than the plot.
/// Widths are estimated from the label's length, which is enough for the box behind it.
fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    theme: &Theme,
    plot: (std::ops::Range<i32>, std::ops::Range<i32>),
    entries: &[(String, Mark, ShapeStyle)],
    right: bool,
) -> DrawResult {
    let px = |n: f64| theme.px(n);
    let longest = entries.iter().map(|(t, ..)| t.chars().count()).max().unwrap_or(0) as f64;
    let width = px(30.0) + px(longest * 11.0 * 0.56);
    let height = px(8.0) + px(16.0) * entries.len() as i32;
    let (xs, ys) = plot;
    let x0 = if right { xs.end - width - px(8.0) } else { xs.start + px(8.0) };
    let y0 = ys.start + px(6.0);
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + width, y0 + height)],
        theme.background.mix(0.9).filled(),
    ))
    .map_err(err)?;
    root.draw(&Rectangle::new([(x0, y0), (x0 + width, y0 + height)], theme.grid.stroke_width(1)))
        .map_err(err)?;
    let font = theme.font(11.0);
    for (row, (text, mark, style)) in entries.iter().enumerate() {
        let y = y0 + px(12.0) + px(16.0) * row as i32;
        let x = x0 + px(6.0);
        match mark {
            Mark::Line => root.draw(&PathElement::new(vec![(x, y), (x + px(14.0), y)], *style)),
            Mark::Dot => root.draw(&Circle::new((x + px(7.0), y), px(4.0), *style)),
            Mark::Cross => root.draw(&Cross::new((x + px(7.0), y), px(4.0), *style)),
        }
        .map_err(err)?;
        root.draw(&Text::new(text.clone(), (x + px(20.0), y - px(6.0)), font.clone()))
            .map_err(err)?;
    }
    Ok(())
}

/// Labels of the power parts, in `power_parts` order.
pub const POWER_LABELS: [&str; 4] = ["chips", "hosts", "network", "cooling and losses"];

/// Site power in MW, in `POWER_LABELS` order: the IT parts, then what PUE adds.
pub fn power_parts(e: &Estimate) -> [f64; 4] {
    let p = &e.facility.power;
    [p.chips_w, p.hosts_w, p.network_w, p.facility_w - p.it_w].map(|w| w / 1e6)
}

/// Site power at training load split into its parts, against the IT peak, MW.
pub fn draw_power<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    e: &Estimate,
    theme: &Theme,
) -> DrawResult {
    let parts: Vec<(&str, f64)> = POWER_LABELS.iter().copied().zip(power_parts(e)).collect();
    let peak = e.facility.power.peak_it_w / 1e6;
    stacked_bar(
        root,
        theme,
        "Site power at training load",
        "MW",
        "MW",
        &parts,
        Some(("IT at maximum", peak)),
    )
}

/// Labels of the run's cost parts, in `cost_parts` order.
pub const COST_LABELS: [&str; 4] = ["hardware share", "building share", "maintenance", "energy"];

/// The run's amortised cost in USD millions, in `COST_LABELS` order; the parts sum to it.
pub fn cost_parts(e: &Estimate) -> [f64; 4] {
    let c = &e.facility.cost;
    [c.run_hardware_usd, c.run_building_usd, c.run_maintenance_usd, c.energy_usd].map(|x| x / 1e6)
}

/// The run's amortised cost split into its parts, with the cloud price as a marker, USD M.
pub fn draw_cost<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    e: &Estimate,
    theme: &Theme,
) -> DrawResult {
    let parts: Vec<(&str, f64)> = COST_LABELS.iter().copied().zip(cost_parts(e)).collect();
    let cloud = e.facility.cost.run_cloud_usd / 1e6;
    stacked_bar(
        root,
        theme,
        "Cost of the run, amortised",
        "USD millions",
        "$M",
        &parts,
        Some(("cloud rental", cloud)),
    )
}

/// Site power and the run's cost against chip count (log axes), the plan's own size marked.
pub fn draw_plant_scaling<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    points: &[ScalingPoint],
    current: Option<&ScalingPoint>,
    theme: &Theme,
) -> DrawResult {
    root.fill(&theme.background).map_err(err)?;
    let mw = |p: &ScalingPoint| (p.facility_w / 1e6).max(1e-3);
    let musd = |p: &ScalingPoint| (p.run_usd / 1e6).max(1e-3);
    let range = |f: &dyn Fn(&ScalingPoint) -> f64| {
        let (lo, hi) = points
            .iter()
            .chain(current)
            .fold((f64::MAX, 0.0f64), |(lo, hi), p| (lo.min(f(p)), hi.max(f(p))));
        if hi > 0.0 {
            (lo * 0.7, hi * 1.4)
        } else {
            (0.1, 100.0)
        }
    };
    let (p_lo, p_hi) = range(&mw);
    let (c_lo, c_hi) = range(&musd);
    let (x_lo, x_hi) = chip_axis(current);
    let mut chart = ChartBuilder::on(root)
        .caption("Site power and run cost against cluster size", theme.font(16.0))
        .margin(theme.upx(12.0))
        .x_label_area_size(theme.upx(36.0))
        .y_label_area_size(theme.upx(56.0))
        .right_y_label_area_size(theme.upx(60.0))
        .build_cartesian_2d(log_axis(x_lo, x_hi, 2.0), log_axis(p_lo, p_hi, 1.0))
        .map_err(err)?
        .set_secondary_coord((x_lo..x_hi).log_scale(), log_axis(c_lo, c_hi, 1.0));
    let label_style = theme.font(12.0);
    chart
        .configure_mesh()
        .bold_line_style(theme.grid)
        .max_light_lines(0)
        .axis_style(theme.foreground)
        .x_desc("chips (log scale)")
        .y_desc("site power (MW)")
        .x_label_formatter(&|x| numbers::format(x.round()))
        .y_label_formatter(&|y| numbers::format(*y))
        .label_style(label_style.clone())
        .draw()
        .map_err(err)?;
    chart
        .configure_secondary_axes()
        .axis_style(theme.foreground)
        .y_desc("run cost ($M)")
        .y_label_formatter(&|y| numbers::format(*y))
        .label_style(label_style)
        .draw()
        .map_err(err)?;
    let (w2, r6) = (theme.upx(2.0), theme.px(6.0));
    let power_color = theme.palette[3];
    let cost_color = theme.palette[4];
    let mut legend = Vec::new();
    chart
        .draw_series(LineSeries::new(
            points.iter().map(|p| (p.chips as f64, mw(p))),
            power_color.stroke_width(w2),
        ))
        .map_err(err)?;
    legend.push(("site power (MW)".to_string(), Mark::Line, power_color.stroke_width(w2)));
    chart
        .draw_secondary_series(LineSeries::new(
            points.iter().map(|p| (p.chips as f64, musd(p))),
            cost_color.stroke_width(w2),
        ))
        .map_err(err)?;
    legend.push(("run cost ($M, amortised)".to_string(), Mark::Line, cost_color.stroke_width(w2)));
    if let Some(p) = current {
        let fg = theme.foreground;
        chart
            .draw_series(std::iter::once(Circle::new((p.chips as f64, mw(p)), r6, fg.filled())))
            .map_err(err)?;
        chart
            .draw_secondary_series(std::iter::once(Circle::new(
                (p.chips as f64, musd(p)),
                r6,
                cost_color.filled(),
            )))
            .map_err(err)?;
        legend.push((
            format!("this plan: {} chips", numbers::format(p.chips as f64)),
            Mark::Dot,
            fg.filled(),
        ));
    }
    draw_legend(root, theme, chart.plotting_area().get_pixel_range(), &legend, false)?;
    root.present().map_err(err)
}

/// What the cluster really delivers against its size, in model EFLOP/s (log axes): linear
/// growth from the smallest size, what MFU leaves, and what failures leave of that.
pub fn draw_effective<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    points: &[ScalingPoint],
    current: Option<&ScalingPoint>,
    theme: &Theme,
) -> DrawResult {
    root.fill(&theme.background).map_err(err)?;
    let exa = |x: f64| (x / 1e18).max(1e-6);
    let first = points.first().copied();
    let ideal = |p: &ScalingPoint| {
        first.map_or(0.0, |f| f.model_flops_per_s * p.chips as f64 / f.chips.max(1) as f64)
    };
    let (lo, hi) = points.iter().fold((f64::MAX, 0.0f64), |(lo, hi), p| {
        let g = exa(p.model_flops_per_s * p.goodput);
        (lo.min(g), hi.max(exa(ideal(p)).max(exa(p.model_flops_per_s))))
    });
    let (lo, hi) = if hi > 0.0 && lo < hi { (lo * 0.7, hi * 1.4) } else { (1e-3, 10.0) };
    let mut chart = chips_chart(
        root,
        theme,
        "What the cluster delivers: model EFLOP/s against its size",
        chip_axis(current),
        (lo, hi),
        "model EFLOP/s",
    )?;
    let w2 = theme.upx(2.0);
    let series = [
        (
            "linear growth from the smallest size",
            theme.foreground.mix(0.5).stroke_width(theme.upx(1.0)),
            0,
        ),
        ("at the plan's MFU", theme.palette[2].stroke_width(w2), 1),
        ("and after failures (goodput)", theme.palette[0].stroke_width(w2), 2),
    ];
    let mut legend = Vec::new();
    for (label, style, which) in series {
        let y = |p: &ScalingPoint| match which {
            0 => exa(ideal(p)),
            1 => exa(p.model_flops_per_s),
            _ => exa(p.model_flops_per_s * p.goodput),
        };
        chart
            .draw_series(LineSeries::new(points.iter().map(|p| (p.chips as f64, y(p))), style))
            .map_err(err)?;
        legend.push((label.to_string(), Mark::Line, style));
    }
    if let Some(p) = current {
        let fg = theme.foreground;
        let at = (p.chips as f64, exa(p.model_flops_per_s * p.goodput));
        chart
            .draw_series(std::iter::once(Circle::new(at, theme.px(6.0), fg.filled())))
            .map_err(err)?;
        legend.push((
            format!(
                "this plan: {} chips, {} goodput",
                numbers::format(p.chips as f64),
                percent(p.goodput)
            ),
            Mark::Dot,
            fg.filled(),
        ));
    }
    draw_legend(root, theme, chart.plotting_area().get_pixel_range(), &legend, false)?;
    root.present().map_err(err)
}

/// The chip-count axis of the scaling plots: 64 to 100,000 chips, widened to keep the plan on it.
fn chip_axis(current: Option<&ScalingPoint>) -> (f64, f64) {
    let lo = current.map_or(48.0, |p| (p.chips as f64 * 0.7).min(48.0)).max(1.0);
    let hi = current.map_or(131072.0, |p| (p.chips as f64 * 1.4).max(131072.0));
    (lo, hi)
}

/// A log axis from `lo` to `hi` with ticks at powers of two (`base` 2) or 1-2-5 per decade.
fn log_axis(lo: f64, hi: f64, base: f64) -> WithKeyPoints<LogCoord<f64>> {
    let steps: &[f64] = if base == 2.0 { &[1.0, 2.0, 4.0, 8.0] } else { &[1.0, 2.0, 5.0] };
    (lo..hi).log_scale().with_key_points(ticks(lo, hi, steps, base))
}

/// Both axes of a log-log plot against chip count.
type ChipsLogLog = Cartesian2d<WithKeyPoints<LogCoord<f64>>, WithKeyPoints<LogCoord<f64>>>;

/// A log-log chart against chip count with its caption, grid and axis labels drawn.
fn chips_chart<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    theme: &Theme,
    caption: &str,
    (x_lo, x_hi): (f64, f64),
    (y_lo, y_hi): (f64, f64),
    y_desc: &str,
) -> Result<ChartContext<'a, DB, ChipsLogLog>, String> {
    let mut chart = ChartBuilder::on(root)
        .caption(caption, theme.font(16.0))
        .margin(theme.upx(12.0))
        .x_label_area_size(theme.upx(36.0))
        .y_label_area_size(theme.upx(56.0))
        .build_cartesian_2d(log_axis(x_lo, x_hi, 2.0), log_axis(y_lo, y_hi, 1.0))
        .map_err(err)?;
    chart
        .configure_mesh()
        .bold_line_style(theme.grid)
        .max_light_lines(0)
        .axis_style(theme.foreground)
        .x_desc("chips (log scale)")
        .y_desc(y_desc)
        .x_label_formatter(&|x| numbers::format(x.round()))
        .y_label_formatter(&|y| numbers::format(*y))
        .label_style(theme.font(12.0))
        .draw()
        .map_err(err)?;
    Ok(chart)
}

/// A share as a percentage with one decimal.
fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// Days to train and MFU against chip count (log axis), with the current plan marked.
pub fn draw_scaling<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    points: &[ScalingPoint],
    current: Option<&ScalingPoint>,
    theme: &Theme,
) -> DrawResult {
    root.fill(&theme.background).map_err(err)?;
    let days = |p: &ScalingPoint| p.train_days.max(1e-3);
    let all = points.iter().chain(current);
    let (lo, hi) = all.fold((f64::MAX, 0.0f64), |(lo, hi), p| (lo.min(days(p)), hi.max(days(p))));
    let (lo, hi) = if hi > 0.0 { (lo * 0.7, hi * 1.4) } else { (0.1, 100.0) };
    let mfu_top = points.iter().chain(current).map(|p| p.mfu).fold(0.6f64, f64::max) * 1.1;
    // 64 to 100,000 chips, widened to keep the current plan on the axis.
    let (x_lo, x_hi) = chip_axis(current);
    let mut chart = ChartBuilder::on(root)
        .caption("Scaling: days to train and MFU", theme.font(16.0))
        .margin(theme.upx(12.0))
        .x_label_area_size(theme.upx(36.0))
        .y_label_area_size(theme.upx(56.0))
        .right_y_label_area_size(theme.upx(52.0))
        .build_cartesian_2d(log_axis(x_lo, x_hi, 2.0), log_axis(lo, hi, 1.0))
        .map_err(err)?
        .set_secondary_coord((x_lo..x_hi).log_scale(), 0.0..mfu_top);
    let label_style = theme.font(12.0);
    chart
        .configure_mesh()
        .bold_line_style(theme.grid)
        .max_light_lines(0)
        .x_labels(14)
        .y_labels(8)
        .axis_style(theme.foreground)
        .x_desc("chips (log scale)")
        .y_desc("days to train")
        .x_label_formatter(&|x| numbers::format(x.round()))
        .y_label_formatter(&|y| numbers::format(*y))
        .label_style(label_style.clone())
        .draw()
        .map_err(err)?;
    chart
        .configure_secondary_axes()
        .y_labels(6)
        .axis_style(theme.foreground)
        .y_desc("MFU (%)")
        .y_label_formatter(&|y| format!("{:.0}", 100.0 * y))
        .label_style(label_style)
        .draw()
        .map_err(err)?;
    let days_color = theme.palette[0];
    let mfu_color = theme.palette[2];
    let (w1, w2) = (theme.upx(1.0), theme.upx(2.0));
    let (r4, r5, r6) = (theme.px(4.0), theme.px(5.0), theme.px(6.0));
    let mut legend = Vec::new();
    // Perfect scaling from this plan: the gap to the curve is what size costs.
    if let Some(p) = current {
        let ideal_color = theme.foreground.mix(0.5);
        let ideal =
            |chips: f64| sweep::ideal_days(p, chips.round().clamp(1.0, u32::MAX as f64) as u32);
        chart
            .draw_series(LineSeries::new(
                [x_lo, x_hi].into_iter().map(|x| (x, ideal(x).clamp(lo, hi))),
                ideal_color.stroke_width(w1),
            ))
            .map_err(err)?;
        legend.push((
            "ideal scaling from this plan".to_string(),
            Mark::Line,
            ideal_color.stroke_width(w1),
        ));
    }
    chart
        .draw_series(LineSeries::new(
            points.iter().map(|p| (p.chips as f64, days(p))),
            days_color.stroke_width(w2),
        ))
        .map_err(err)?;
    legend.push(("days to train".to_string(), Mark::Line, days_color.stroke_width(w2)));
    chart
        .draw_secondary_series(LineSeries::new(
            points.iter().map(|p| (p.chips as f64, p.mfu)),
            mfu_color.stroke_width(w2),
        ))
        .map_err(err)?;
    legend.push(("MFU (%)".to_string(), Mark::Line, mfu_color.stroke_width(w2)));
    let alert = theme.alert;
    if points.iter().any(|p| !p.fits) {
        chart
            .draw_series(
                points
                    .iter()
                    .filter(|p| !p.fits)
                    .map(|p| Cross::new((p.chips as f64, days(p)), r4, alert.stroke_width(w2))),
            )
            .map_err(err)?;
        legend.push(("does not fit in memory".to_string(), Mark::Cross, alert.stroke_width(w2)));
    }
    if let Some(p) = current {
        let fg = theme.foreground;
        chart
            .draw_series(std::iter::once(Circle::new((p.chips as f64, days(p)), r6, fg.filled())))
            .map_err(err)?;
        chart
            .draw_secondary_series(std::iter::once(Circle::new(
                (p.chips as f64, p.mfu),
                r5,
                mfu_color.filled(),
            )))
            .map_err(err)?;
        let verdict = if p.fits { "fits" } else { "does not fit" };
        legend.push((
            format!("this plan: {} chips, {verdict}", numbers::format(p.chips as f64)),
            Mark::Dot,
            fg.filled(),
        ));
    }
    draw_legend(root, theme, chart.plotting_area().get_pixel_range(), &legend, true)?;
    root.present().map_err(err)
}

/// One chip's best days to train at each cluster size a sizing searched.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Curve {
    /// The chip, as the legend names it.
    pub label: String,
    /// (chips, days with failures), by chips.
    pub points: Vec<(u32, f64)>,
}

/// Days to train (with failures) against chip count for each chip sized, with the deadline as
/// a grey line, so "N of chip A match M of chip B" reads off where the curves cross it.
pub fn draw_sizing<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    curves: &[Curve],
    deadline_days: f64,
    theme: &Theme,
) -> DrawResult {
    root.fill(&theme.background).map_err(err)?;
    let all = curves.iter().flat_map(|c| c.points.iter());
    let (x_lo, x_hi, y_lo, y_hi) = all.fold(
        (f64::MAX, 0.0f64, deadline_days.max(1e-3), deadline_days.max(1e-3)),
        |(a, b, c, d), &(n, days)| (a.min(n as f64), b.max(n as f64), c.min(days), d.max(days)),
    );
    let (x_lo, x_hi) = if x_hi > 0.0 { (x_lo * 0.7, x_hi * 1.4) } else { (8.0, 131072.0) };
    let (y_lo, y_hi) = (y_lo.max(1e-3) * 0.7, y_hi * 1.4);
    let mut chart = chips_chart(
        root,
        theme,
        "Days to train against cluster size, per chip",
        (x_lo, x_hi),
        (y_lo, y_hi),
        "days with failures",
    )?;
    let (w2, r5) = (theme.upx(2.0), theme.px(5.0));
    let fg = theme.foreground;
    let mut legend = Vec::new();
    chart
        .draw_series(LineSeries::new(
            [(x_lo, deadline_days), (x_hi, deadline_days)],
            fg.mix(0.6).stroke_width(w2),
        ))
        .map_err(err)?;
    legend.push((
        format!("deadline: {} days", numbers::format(deadline_days)),
        Mark::Line,
        fg.stroke_width(w2),
    ));
    for (i, curve) in curves.iter().enumerate() {
        let color = theme.palette[i % theme.palette.len()];
        let points = curve.points.iter().map(|&(n, d)| (n as f64, d.max(1e-3)));
        chart.draw_series(LineSeries::new(points.clone(), color.stroke_width(w2))).map_err(err)?;
        chart.draw_series(points.map(|p| Circle::new(p, r5, color.filled()))).map_err(err)?;
        legend.push((curve.label.clone(), Mark::Dot, color.filled()));
    }
    draw_legend(root, theme, chart.plotting_area().get_pixel_range(), &legend, true)?;
    root.present().map_err(err)
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
}

/// Draws plot `kind` of estimate `e` of a plan on `chips` chips, with the plan at other sizes
/// (`scaling`) for the plots against chip count.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    kind: Kind,
    e: &Estimate,
    scaling: &[ScalingPoint],
    chips: u32,
    theme: &Theme,
) -> DrawResult {
    let current = ScalingPoint::of(chips, e);
    match kind {
        Kind::Step => draw_step(root, e, theme),
        Kind::Memory => draw_memory(root, e, theme),
        Kind::Scaling => draw_scaling(root, scaling, Some(&current), theme),
        Kind::Power => draw_power(root, e, theme),
        Kind::Cost => draw_cost(root, e, theme),
        Kind::PlantScaling => draw_plant_scaling(root, scaling, Some(&current), theme),
        Kind::Effective => draw_effective(root, scaling, Some(&current), theme),
    }
}

/// A drawing as an SVG document of `size` pixels, its text sized by an average glyph width
/// (there is no font system in a Web Worker, where these are drawn for the page). A plot that
/// cannot be drawn leaves the image blank.
pub fn svg(
    size: (u32, u32),
    draw: impl FnOnce(
        &DrawingArea<OwnText<SVGBackend, fn(&str, f64, &str) -> (u32, u32)>, Shift>,
    ) -> DrawResult,
) -> String {
    fn measure(text: &str, size: f64, _: &str) -> (u32, u32) {
        // About 0.56 em a character in a sans-serif face; a line box of 1.15 em.
        ((text.chars().count() as f64 * size * 0.56).ceil() as u32, (size * 1.15).ceil() as u32)
    }
    let mut out = String::new();
    {
        let backend = OwnText {
            backend: SVGBackend::with_string(&mut out, size),
            measure: measure as fn(&str, f64, &str) -> (u32, u32),
        };
        let _ = draw(&backend.into_drawing_area());
    }
    out
}

/// The sizing plot as an SVG document of `size` pixels.
pub fn sizing_svg(curves: &[Curve], deadline_days: f64, theme: &Theme, size: (u32, u32)) -> String {
    svg(size, |root| draw_sizing(root, curves, deadline_days, theme))
}

mod own_text {
    //! A backend whose text is measured by the caller rather than by plotters' font system:
    //! in the browser plotters measures every label with a span in the page (a layout of the
    //! whole page each time), and in a Web Worker there is no page at all.

    use plotters::prelude::*;
    use plotters_backend::{
        BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
    };

    /// `backend`, with text measured by `measure(text, font size in pixels, CSS font)`.
    pub struct OwnText<B, M> {
        /// The backend that draws.
        pub backend: B,
        /// Width and height of a text, pixels.
        pub measure: M,
    }

    type Drawn<B> = Result<(), DrawingErrorKind<<B as DrawingBackend>::ErrorType>>;

    impl<B: DrawingBackend, M: Fn(&str, f64, &str) -> (u32, u32)> DrawingBackend for OwnText<B, M> {
        type ErrorType = B::ErrorType;

        fn get_size(&self) -> (u32, u32) {
            self.backend.get_size()
        }
        fn ensure_prepared(&mut self) -> Drawn<B> {
            self.backend.ensure_prepared()
        }
        fn present(&mut self) -> Drawn<B> {
            self.backend.present()
        }
        fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn<B> {
            self.backend.draw_pixel(point, color)
        }
        fn draw_line<S: BackendStyle>(
            &mut self,
            from: BackendCoord,
            to: BackendCoord,
            style: &S,
        ) -> Drawn<B> {
            self.backend.draw_line(from, to, style)
        }
        fn draw_rect<S: BackendStyle>(
            &mut self,
            a: BackendCoord,
            b: BackendCoord,
            style: &S,
            fill: bool,
        ) -> Drawn<B> {
            self.backend.draw_rect(a, b, style, fill)
        }
        fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
            &mut self,
            path: I,
            style: &S,
        ) -> Drawn<B> {
            self.backend.draw_path(path, style)
        }
        fn draw_circle<S: BackendStyle>(
            &mut self,
            center: BackendCoord,
            radius: u32,
            style: &S,
            fill: bool,
        ) -> Drawn<B> {
            self.backend.draw_circle(center, radius, style, fill)
        }
        fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
            &mut self,
            vert: I,
            style: &S,
        ) -> Drawn<B> {
            self.backend.fill_polygon(vert, style)
        }
        fn draw_text<S: BackendTextStyle>(
            &mut self,
            text: &str,
            style: &S,
            pos: BackendCoord,
        ) -> Drawn<B> {
            self.backend.draw_text(text, style, pos)
        }
        fn estimate_text_size<S: BackendTextStyle>(
            &self,
            text: &str,
            style: &S,
        ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
            let size = style.size();
            let font = format!("{} {}px {}", style.style().as_str(), size, style.family().as_str());
            Ok((self.measure)(text, size, &font))
        }
    }
}

pub use own_text::OwnText;

/// Plan A against plan B: each one's step as a stacked bar on one axis (A above B), parts in
/// the step plot's colours, with both values per part in the legend.
pub fn draw_compare_step<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    a: &Estimate,
    b: &Estimate,
    theme: &Theme,
) -> DrawResult {
    root.fill(&theme.background).map_err(err)?;
    let root = root.titled("Step time: plan A against plan B", theme.font(16.0)).map_err(err)?;
    let (width, _) = root.dim_in_pixel();
    let (plot_area, legend_area) = root.split_horizontally((width as f64 * 0.62) as u32);
    let limit = a.step_s.max(b.step_s).max(1e-12) * 1.05;
    let mut chart = ChartBuilder::on(&plot_area)
        .margin(theme.upx(10.0))
        .x_label_area_size(theme.upx(40.0))
        .y_label_area_size(theme.upx(30.0))
        .build_cartesian_2d(0.0..limit, 0.0..2.0)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(theme.grid.mix(0.5))
        .bold_line_style(theme.grid)
        .max_light_lines(2)
        .axis_style(theme.foreground)
        .x_desc("seconds per step")
        .y_labels(2)
        .y_label_formatter(&|y| if *y >= 1.0 { "A".into() } else { "B".into() })
        .x_label_formatter(&|x| short(*x))
        .label_style(theme.font(12.0))
        .draw()
        .map_err(err)?;
    let (pa, pb) = (a.breakdown.parts(), b.breakdown.parts());
    for (estimate_parts, (lo, hi)) in [(&pa, (1.2, 1.8)), (&pb, (0.2, 0.8))] {
        let mut start = 0.0;
        for (idx, (_, value)) in estimate_parts.iter().enumerate() {
            if !(*value > 0.0) {
                continue;
            }
            let color = theme.palette[idx % theme.palette.len()];
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(start, lo), (start + value, hi)],
                    color.filled(),
                )))
                .map_err(err)?;
            start += value;
        }
    }
    let font = theme.font(12.0);
    let px = |n: f64| theme.px(n);
    let rows = STEP_LABELS
        .iter()
        .zip(pa.iter().zip(pb.iter()))
        .enumerate()
        .filter(|(_, (_, (x, y)))| x.1 > 0.0 || y.1 > 0.0);
    for (row, (idx, (label, ((_, va), (_, vb))))) in rows.enumerate() {
        let y = px(14.0 + 17.0 * row as f64);
        let color = theme.palette[idx % theme.palette.len()];
        legend_area
            .draw(&Rectangle::new(
                [(px(6.0), y - px(5.0)), (px(16.0), y + px(5.0))],
                color.filled(),
            ))
            .map_err(err)?;
        let text = format!("{label}: A {} s, B {} s", short(*va), short(*vb));
        legend_area.draw(&Text::new(text, (px(22.0), y - px(7.0)), font.clone())).map_err(err)?;
    }
    root.present().map_err(err)
}

/// Plan A against plan B: days to train against chip count for each, the plans themselves
/// marked.
pub fn draw_compare_scaling<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    a: (&[ScalingPoint], &ScalingPoint),
    b: (&[ScalingPoint], &ScalingPoint),
    theme: &Theme,
) -> DrawResult {
    root.fill(&theme.background).map_err(err)?;
    let days = |p: &ScalingPoint| p.train_days.max(1e-3);
    let all = a.0.iter().chain(b.0).chain([a.1, b.1]);
    let (lo, hi) = all.fold((f64::MAX, 0.0f64), |(lo, hi), p| (lo.min(days(p)), hi.max(days(p))));
    let (lo, hi) = if hi > 0.0 { (lo * 0.7, hi * 1.4) } else { (0.1, 100.0) };
    let x = (
        (a.1.chips.min(b.1.chips) as f64 * 0.7).clamp(1.0, 48.0),
        (a.1.chips.max(b.1.chips) as f64 * 1.4).max(131072.0),
    );
    let mut chart = chips_chart(
        root,
        theme,
        "Days to train against cluster size: plan A and plan B",
        x,
        (lo, hi),
        "days to train",
    )?;
    let (w2, r6) = (theme.upx(2.0), theme.px(6.0));
    let mut legend = Vec::new();
    for ((points, current), name, color) in
        [(a, "plan A", theme.palette[0]), (b, "plan B", theme.palette[3])]
    {
        chart
            .draw_series(LineSeries::new(
                points.iter().filter(|p| p.fits).map(|p| (p.chips as f64, days(p))),
                color.stroke_width(w2),
            ))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Circle::new(
                (current.chips as f64, days(current)),
                r6,
                color.filled(),
            )))
            .map_err(err)?;
        legend.push((name.to_string(), Mark::Dot, color.filled()));
    }
    draw_legend(root, theme, chart.plotting_area().get_pixel_range(), &legend, true)?;
    root.present().map_err(err)
}
