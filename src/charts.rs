//! Plots of an estimate, each an SVG document drawn with plotters (`plot` is what they are
//! drawn on: its SVG backend writing into a string, text sizes estimated).
//!
//! The page shows them inline and saves them as SVG or PNG; the worker draws them; native
//! tests read them as text. Nothing here knows the browser, and nothing computes: every number
//! comes from `model::Estimate` or a `model::sweep::ScalingPoint`, only converted to display
//! units.

/// A mesh in the theme's text, axis and grid colours, without minor lines: every plot's.
macro_rules! themed {
    ($mesh:expr, $theme:expr) => {
        $mesh
            .label_style(font($theme, TEXT))
            .axis_desc_style(font($theme, TEXT))
            .axis_style(color($theme.foreground))
            .bold_line_style(color($theme.grid))
            .light_line_style(TRANSPARENT)
    };
}

mod failures;
mod load;
mod sketch;
mod svg;
mod timeline;
mod tornado;
mod year;

pub use crate::sketch::text_width;
pub use failures::draw_failures;
pub use load::{draw_network, TierBar};
pub use sketch::{draw_fleet, draw_sketch, pool_colour};
pub use svg::escape;
pub use timeline::{
    draw_timeline, rows as timeline_rows, PASSES as TIMELINE_PASSES, ROWS as TIMELINE_ROWS,
};
pub use tornado::{draw_tornado, Swing};
pub use year::{draw_year_fleet, draw_year_gantt, Bar, FleetWeeks};

use plotters::coord::combinators::WithKeyPoints;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use crate::format::Money;
use crate::model::presets::units::GIB;
use crate::model::sweep::{self, ScalingPoint};
use crate::model::Estimate;
use crate::numbers;
use crate::text::substitute;
use svg::{color, font, font_at, Area, Drawn};

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
    /// Fill of the cluster drawing's boxes, their outlines, and its quieter text.
    pub panel: &'static str,
    pub outline: &'static str,
    pub muted: &'static str,
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
    panel: "#f3f5f8",
    outline: "#8a94a6",
    muted: "#5b6577",
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
    panel: "#222834",
    outline: "#6f7a8e",
    muted: "#a3acbb",
    palette: [
        "#56a0e6", "#96bef0", "#ffa046", "#5fc85f", "#b991e6", "#c88c78", "#f096d2", "#aaaaaa",
        "#d7d750",
    ],
};

/// The size plots are drawn at when nothing else is asked: wide, and as tall as the page's.
pub type Size = (u32, u32);

/// The size of plot text: tick labels and axis names, legends, captions.
const TEXT: f64 = 12.0;
const LEGEND: f64 = 11.0;
const CAPTION: f64 = 16.0;

/// A breakdown part's name in the theme's words (`part.<id>`).
fn part_name(theme: &Theme, id: &str) -> &'static str {
    (theme.words)(&format!("part.{id}"))
}

/// A legend drawn as a column in `area`: a swatch and a line of text per entry.
fn legend_column(area: &Area, theme: &Theme, rows: &[(String, &str)]) -> Drawn {
    for (row, (text, swatch)) in rows.iter().enumerate() {
        let y = 10 + 17 * row as i32;
        area.draw(&Rectangle::new([(6, y - 5), (16, y + 5)], color(swatch).filled()))?;
        let style = font_at(theme, TEXT, (HPos::Left, VPos::Center));
        area.draw(&Text::new(text.clone(), (22, y), style))?;
    }
    Ok(())
}

/// The plot area under a caption, and the column beside it a legend takes (`legend` of the
/// width), for the bar plots.
fn bar_areas<'a>(
    root: &Area<'a>,
    theme: &Theme,
    caption: &str,
    legend: &[(String, &str)],
) -> (Area<'a>, Area<'a>) {
    let titled = root.titled(caption, font(theme, CAPTION)).unwrap_or_else(|_| root.clone());
    let width = titled.dim_in_pixel().0 as f64;
    // The legend's column: as wide as its longest line needs, from 30 % to half the plot.
    let longest = legend.iter().map(|(t, _)| text_width(t, TEXT)).fold(0.0, f64::max);
    let share = ((longest + 30.0) / width.max(1.0)).clamp(0.3, 0.5);
    titled.split_horizontally((width * (1.0 - share)) as i32)
}

/// A chart of `bars` horizontal bars (each one unit tall, the first at the bottom) along a
/// linear axis from 0 to `limit` named `axis`; with more than one bar, room on the left for
/// their names. Its grid and axis drawn.
fn bar_chart<'a, 'b>(
    area: &'a Area<'b>,
    theme: &Theme,
    axis: &str,
    limit: f64,
    bars: u32,
) -> Result<
    ChartContext<'a, svg::Svg<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    Box<dyn std::error::Error>,
> {
    let named = bars > 1;
    let mut chart = ChartBuilder::on(area)
        .margin_left(if named { 0 } else { 14 })
        .margin_right(10)
        .x_label_area_size(40)
        .y_label_area_size(if named { 30 } else { 0 })
        .build_cartesian_2d(axis_range(0.0, limit), 0.0..bars as f64)?;
    let mut mesh = chart.configure_mesh();
    mesh.disable_y_mesh()
        .y_labels(0)
        .x_labels(6)
        .x_label_formatter(&|v| numbers::sig3(*v))
        .x_desc(axis)
        .label_style(font(theme, TEXT))
        .axis_desc_style(font(theme, TEXT))
        .axis_style(color(theme.foreground))
        .bold_line_style(color(theme.grid))
        .light_line_style(TRANSPARENT);
    if !named {
        mesh.disable_y_axis();
    }
    mesh.draw()?;
    Ok(chart)
}

/// A chart of `rows` named horizontal bars (a row one unit tall, the first on top) along a
/// linear axis from `lo` to `hi`, under `caption`, with room on the left for the longest of
/// `names`; its axis drawn and named `axis`, ticks as `tick` writes them.
fn row_chart<'a, 'b>(
    root: &'a Area<'b>,
    theme: &Theme,
    caption: &str,
    names: &[String],
    (lo, hi, rows): (f64, f64, f64),
    axis: &str,
    tick: &dyn Fn(&f64) -> String,
) -> Result<
    ChartContext<'a, svg::Svg<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    Box<dyn std::error::Error>,
> {
    let longest = names.iter().map(|n| text_width(n, TEXT)).fold(0.0, f64::max);
    let width = root.dim_in_pixel().0 as f64;
    let mut chart = ChartBuilder::on(root)
        .caption(caption, font(theme, CAPTION))
        .margin(8)
        .margin_right(14)
        .x_label_area_size(40)
        .y_label_area_size((longest + 12.0).clamp(50.0, width * 0.45) as u32)
        .build_cartesian_2d(axis_range(lo, hi), axis_range(0.0, rows))?;
    themed!(
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_labels(6)
            .x_label_formatter(tick)
            .x_desc(axis),
        theme
    )
    .draw()?;
    for (i, name) in names.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(lo, rows - i as f64 - 0.5));
        let style = font_at(theme, TEXT, (HPos::Right, VPos::Center));
        root.draw(&Text::new(name.clone(), (x - 6, y), style))?;
    }
    Ok(chart)
}

/// A marker on a stacked bar: its words, where it stands, and what it is compared with to say
/// it is exceeded (the whole bar, or the parts of it the marker measures).
type Marker<'a> = Option<(&'a str, f64, f64)>;

/// One horizontal stacked bar of `(id, value)` parts (worded as `part.<id>`) with an optional
/// marker, and its legend (name and value per part) in a column on the right.
fn stacked_bar(
    size: Size,
    theme: &Theme,
    caption: &str,
    axis: &str,
    unit: &str,
    parts: &[(&str, f64)],
    capacity: Marker,
) -> String {
    svg::svg(size, theme, |root| {
        let total: f64 = parts.iter().map(|(_, v)| v.max(0.0)).sum();
        let limit = capacity.map_or(total, |(_, c, _)| c.max(total)).max(1e-12) * 1.05;
        let mut rows: Vec<(String, &str)> = Vec::new();
        for (idx, (id, value)) in parts.iter().enumerate().filter(|(_, (_, v))| *v > 0.0) {
            let swatch = theme.palette[idx % theme.palette.len()];
            let value = numbers::sig3(*value);
            rows.push((format!("{}: {value} {unit}", part_name(theme, id)), swatch));
        }
        if let Some((label, c, against)) = capacity {
            let key = if against > c { "chart.capacity-exceeded" } else { "chart.capacity" };
            let n = numbers::sig3(c);
            rows.push((
                fill_in(theme.words, key, &[("label", label), ("n", &n), ("unit", unit)]),
                theme.alert,
            ));
        }
        let n = numbers::sig3(total);
        rows.push((
            fill_in(theme.words, "chart.total", &[("n", &n), ("unit", unit)]),
            theme.foreground,
        ));
        let (left, right) = bar_areas(root, theme, caption, &rows);
        let mut chart = bar_chart(&left, theme, axis, limit, 1)?;
        let mut start = 0.0;
        for (idx, (_, value)) in parts.iter().enumerate().filter(|(_, (_, v))| *v > 0.0) {
            let swatch = theme.palette[idx % theme.palette.len()];
            let bar =
                Rectangle::new([(start, 0.25), (start + value, 0.75)], color(swatch).filled());
            chart.draw_series(std::iter::once(bar))?;
            start += value;
        }
        if let Some((_, c, _)) = capacity {
            let line =
                PathElement::new(vec![(c, 0.1), (c, 0.9)], color(theme.alert).stroke_width(3));
            chart.draw_series(std::iter::once(line))?;
        }
        legend_column(&right, theme, &rows)
    })
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
    let total = e.memory.peak_bytes / GIB;
    let capacity = Some(((theme.words)("chart.capacity-name"), e.memory.hbm_bytes / GIB, total));
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
    // The IT maximum is compared with IT power, the parts before cooling and losses.
    let p = &e.facility.power;
    let peak = Some(((theme.words)("chart.it-maximum"), p.peak_it_w / 1e6, p.it_w / 1e6));
    stacked_bar(size, theme, (theme.words)("chart.power"), "MW", "MW", &parts, peak)
}

/// The run's amortised cost split into its parts, with the cloud price as a marker, in
/// millions of the site's money.
pub fn draw_cost(e: &Estimate, money: Money, theme: &Theme, size: Size) -> String {
    let m = |usd: f64| money.amount(usd) / 1e6;
    let parts = e.facility.cost.run_parts().map(|(id, usd)| (id, m(usd)));
    let c = &e.facility.cost;
    let cloud = Some(((theme.words)("chart.cloud"), m(c.run_cloud_usd), m(c.run_amortized_usd)));
    stacked_bar(
        size,
        theme,
        (theme.words)("chart.cost"),
        (theme.words)(money.pick("chart.usd-millions", "chart.cny-millions")),
        (theme.words)(money.pick("chart.usd-millions-unit", "chart.cny-millions-unit")),
        &parts,
        cloud,
    )
}

/// A chip count as an axis label.
fn chips_tick(x: &f64) -> String {
    numbers::format(x.round())
}

/// A value as an axis label.
fn plain_tick(y: &f64) -> String {
    numbers::sig3(*y)
}

/// The range of `f` over `points`, widened for the plot; `fallback` when there is none.
fn range(points: impl Iterator<Item = f64>, fallback: (f64, f64)) -> (f64, f64) {
    let (lo, hi) = points.fold((f64::MAX, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if hi > 0.0 && lo <= hi && hi.is_finite() {
        (lo.max(1e-300) * 0.7, hi * 1.4)
    } else {
        fallback
    }
}

/// The chip counts the scaling plots always show: 64 to 100,000 chips with a margin.
const CHIP_AXIS: (f64, f64) = (48.0, 131072.0);

/// The chip-count axis of the scaling plots, widened to keep each plan of `chips` on it.
fn chip_axis(chips: &[u32]) -> (f64, f64) {
    let lo = chips.iter().map(|&n| n as f64 * 0.7).fold(CHIP_AXIS.0, f64::min).max(1.0);
    let hi = chips.iter().map(|&n| n as f64 * 1.4).fold(CHIP_AXIS.1, f64::max);
    (lo, hi)
}

/// A log-log chart against chip count under its caption, with room for a second axis on the
/// right when `second`; `mesh!` draws its grid, axes, ticks and names once any second axis is
/// set (a second axis takes the right-hand labels from the first).
type Log = WithKeyPoints<LogCoord<f64>>;
type LogLog<'a, 'b> = ChartContext<'a, svg::Svg<'b>, Cartesian2d<Log, Log>>;

/// A log axis from `lo` to `hi` labelled at powers of two (`base` 2, every other one over a
/// range of more than 512 times), or at 1, 2 and 5 per decade (every decade past three of them;
/// finer within one).
/// A linear axis from `lo` to `hi` that plotters can step through: finite, in order, within
/// `AXIS_MOST` of zero, and at least a millionth of its own size wide, so its key points
/// advance (a range narrower than a float's step between them never ends); else 0 to 1.
pub(crate) fn axis_range(lo: f64, hi: f64) -> std::ops::Range<f64> {
    if !(lo.is_finite() && hi.is_finite()) {
        return 0.0..1.0;
    }
    let (lo, hi) =
        (lo.min(hi).clamp(-AXIS_MOST, AXIS_MOST), lo.max(hi).clamp(-AXIS_MOST, AXIS_MOST));
    let least = (lo.abs().max(hi.abs()) * 1e-6).max(1e-12);
    if hi - lo < least {
        let mid = lo / 2.0 + hi / 2.0;
        return (mid - least)..(mid + least);
    }
    lo..hi
}

/// The largest value an axis reaches: beyond it a figure is drawn at the edge.
const AXIS_MOST: f64 = 1e15;

fn log_axis(lo: f64, hi: f64, base: f64) -> Log {
    // A log axis takes the same care: positive, in order, and wide enough to step through.
    let (lo, hi) = if lo > 0.0 && hi > lo * (1.0 + 1e-6) && hi.is_finite() && hi < AXIS_MOST {
        (lo, hi)
    } else {
        (1.0, 10.0)
    };
    let mut ticks = Vec::new();
    if base == 2.0 {
        let stride = if hi / lo > 512.0 { 4.0 } else { 2.0 };
        let mut x = 2f64.powi(lo.log2().ceil() as i32);
        while x <= hi && ticks.len() < 40 {
            ticks.push(x);
            x *= stride;
        }
    } else {
        let steps: &[f64] = match hi / lo {
            r if r > 1000.0 => &[1.0],
            r if r > 10.0 => &[1.0, 2.0, 5.0],
            _ => &[1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
        };
        let mut decade = 10f64.powi(lo.log10().floor() as i32);
        while decade <= hi && ticks.len() < 40 {
            ticks.extend(steps.iter().map(|s| s * decade).filter(|x| (lo..=hi).contains(x)));
            decade *= 10.0;
        }
    }
    (lo..hi).log_scale().base(base).with_key_points(ticks)
}

fn chips_chart<'a, 'b>(
    root: &'a Area<'b>,
    theme: &Theme,
    caption: &str,
    (x_lo, x_hi): (f64, f64),
    (y_lo, y_hi): (f64, f64),
    second: bool,
) -> Result<LogLog<'a, 'b>, Box<dyn std::error::Error>> {
    let chart = ChartBuilder::on(root)
        .caption(caption, font(theme, CAPTION))
        .margin(8)
        .x_label_area_size(40)
        .y_label_area_size(58)
        .right_y_label_area_size(if second { 58 } else { 0 })
        .build_cartesian_2d(log_axis(x_lo, x_hi, 2.0), log_axis(y_lo, y_hi, 10.0))?;
    Ok(chart)
}

/// Draws a chips chart's grid, axes, ticks and names, `y_name` on the left.
macro_rules! mesh {
    ($chart:expr, $theme:expr, $y_name:expr) => {
        themed!(
            $chart
                .configure_mesh()
                .x_labels(40)
                .y_labels(40)
                .x_label_formatter(&chips_tick)
                .y_label_formatter(&plain_tick)
                .x_desc(($theme.words)("chart.chips-log"))
                .y_desc($y_name),
            $theme
        )
        .draw()
    };
}

/// A curve's style: its colour at `width` pixels.
fn stroke(c: &str, width: u32) -> ShapeStyle {
    color(c).stroke_width(width)
}

/// How a legend entry is marked.
#[derive(Clone, Copy)]
enum Mark {
    Line,
    Faint,
    Dot,
    Cross,
}

/// A legend in a top corner of a chart's plotting `area` (`right` or left): a mark and a
/// label per entry, over a veil of the background, a label too wide for the area wrapped onto
/// further lines. Drawn here rather than by plotters' series labels, which measure text through
/// the page's document, which the worker has not.
fn legend_box(area: &Area, theme: &Theme, entries: &[(String, Mark, &str)], right: bool) -> Drawn {
    let lines = legend_lines(area.dim_in_pixel().0 as f64, entries);
    let longest = lines.iter().flatten().map(|t| text_width(t, LEGEND)).fold(0.0, f64::max);
    let rows: usize = lines.iter().map(Vec::len).sum();
    let (w, h) = ((longest + 32.0) as i32, 8 + 16 * rows as i32);
    let x0 = if right { (area.dim_in_pixel().0 as i32 - w - 8).max(0) } else { 8 };
    let y0 = 6;
    let corners = [(x0, y0), (x0 + w, y0 + h)];
    area.draw(&Rectangle::new(corners, color(theme.background).mix(0.9).filled()))?;
    area.draw(&Rectangle::new(corners, color(theme.grid).stroke_width(1)))?;
    let mut row: i32 = 0;
    for ((_, mark, c), text) in entries.iter().zip(&lines) {
        let (x, y) = (x0 + 6, y0 + 12 + 16 * row);
        match mark {
            Mark::Line => area.draw(&PathElement::new(vec![(x, y), (x + 14, y)], stroke(c, 2)))?,
            Mark::Faint => area.draw(&PathElement::new(
                vec![(x, y), (x + 14, y)],
                color(c).mix(0.5).stroke_width(1),
            ))?,
            Mark::Dot => area.draw(&Circle::new((x + 7, y), 4, color(c).filled()))?,
            Mark::Cross => area.draw(&Cross::new((x + 7, y), 4, stroke(c, 2)))?,
        }
        for line in text {
            let style = font_at(theme, LEGEND, (HPos::Left, VPos::Center));
            let y = y0 + 12 + 16 * row;
            area.draw(&Text::new(line.clone(), (x + 20, y), style))?;
            row += 1;
        }
    }
    Ok(())
}

/// Each legend entry's label in the lines a plotting area `width` pixels wide shows it in.
fn legend_lines(width: f64, entries: &[(String, Mark, &str)]) -> Vec<Vec<String>> {
    let room = (width - 48.0).max(LEGEND * 8.0);
    entries.iter().map(|(t, ..)| wrap(t, LEGEND, room)).collect()
}

/// Pixels from a plotting area's top to the bottom of its legend box (`legend_box`), at a
/// plotting area `width` pixels wide.
fn legend_depth(width: f64, entries: &[(String, Mark, &str)]) -> f64 {
    let rows: usize = legend_lines(width, entries).iter().map(Vec::len).sum();
    6.0 + 8.0 + 16.0 * rows as f64
}

/// `text` in lines no wider than `room` pixels at `size`: broken after a space, or between
/// two wide (CJK) characters, and mid-word only where a word alone is wider than the room.
fn wrap(text: &str, size: f64, room: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    // Pieces that stay whole: a word with its trailing space, or one wide character.
    let mut pieces = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        let wide = c as u32 >= 0x1100;
        if wide && !word.is_empty() {
            pieces.push(std::mem::take(&mut word));
        }
        word.push(c);
        if c == ' ' || wide {
            pieces.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        pieces.push(word);
    }
    for piece in pieces {
        if !line.is_empty() && text_width(line.trim_end(), size) + text_width(&piece, size) > room {
            lines.push(line.trim_end().to_string());
            line.clear();
        }
        // A piece wider than the room alone goes a character at a time.
        for c in piece.chars() {
            if !line.is_empty()
                && text_width(&line, size) + text_width(c.encode_utf8(&mut [0; 4]), size) > room
            {
                lines.push(line.trim_end().to_string());
                line.clear();
            }
            line.push(c);
        }
    }
    if !line.trim_end().is_empty() || lines.is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// Site power and the run's cost against chip count (log axes), the plan's own size marked.
pub fn draw_plant_scaling(
    points: &[ScalingPoint],
    current: Option<&ScalingPoint>,
    money: Money,
    theme: &Theme,
    size: Size,
) -> String {
    svg::svg(size, theme, |root| {
        let mut legend: Vec<(String, Mark, &str)> = Vec::new();
        let mw = |p: &ScalingPoint| (p.facility_w / 1e6).max(1e-3);
        let musd = |p: &ScalingPoint| (money.amount(p.run_usd) / 1e6).max(1e-3);
        let all = || points.iter().chain(current);
        let x = chip_axis(current.map(|p| p.chips).as_slice());
        let (c_lo, c_hi) = range(all().map(musd), (0.1, 100.0));
        let chart = chips_chart(
            root,
            theme,
            (theme.words)("chart.plant-scaling"),
            x,
            range(all().map(mw), (0.1, 100.0)),
            true,
        )?;
        let mut chart =
            chart.set_secondary_coord(log_axis(x.0, x.1, 2.0), log_axis(c_lo, c_hi, 10.0));
        mesh!(chart, theme, (theme.words)("chart.site-power-mw"))?;
        chart
            .configure_secondary_axes()
            .y_labels(40)
            .y_label_formatter(&plain_tick)
            .y_desc((theme.words)(money.pick("chart.run-cost-musd", "chart.run-cost-mcny")))
            .label_style(font(theme, TEXT))
            .axis_desc_style(font(theme, TEXT))
            .axis_style(color(theme.foreground))
            .draw()?;
        let (power_color, cost_color) = (theme.palette[3], theme.palette[4]);
        chart.draw_series(LineSeries::new(
            points.iter().map(|p| (p.chips as f64, mw(p))),
            stroke(power_color, 2),
        ))?;
        legend.push(((theme.words)("chart.site-power-mw").to_string(), Mark::Line, power_color));
        chart.draw_secondary_series(LineSeries::new(
            points.iter().map(|p| (p.chips as f64, musd(p))),
            stroke(cost_color, 2),
        ))?;
        legend.push((
            (theme.words)(money.pick("chart.run-cost-amortised", "chart.run-cost-amortised-cny"))
                .to_string(),
            Mark::Line,
            cost_color,
        ));
        if let Some(p) = current {
            let at = (p.chips as f64, mw(p));
            let label = fill_in(
                theme.words,
                "chart.this-plan",
                &[("chips", &numbers::format(p.chips as f64))],
            );
            chart.draw_series(std::iter::once(Circle::new(
                at,
                6,
                color(theme.foreground).filled(),
            )))?;
            legend.push((label.to_string(), Mark::Dot, theme.foreground));
            let cost = Circle::new((p.chips as f64, musd(p)), 6, color(cost_color).filled());
            chart.draw_secondary_series(std::iter::once(cost))?;
        }
        legend_box(&chart.plotting_area().strip_coord_spec(), theme, &legend, false)?;
        Ok(())
    })
}

/// What the cluster really delivers against its size, in model EFLOP/s (log axes): linear
/// growth from the smallest size, what MFU leaves, and what failures leave of that.
pub fn draw_effective(
    points: &[ScalingPoint],
    current: Option<&ScalingPoint>,
    theme: &Theme,
    size: Size,
) -> String {
    svg::svg(size, theme, |root| {
        let mut legend: Vec<(String, Mark, &str)> = Vec::new();
        let exa = |x: f64| (x / 1e18).max(1e-6);
        let first = points.first().copied();
        let ideal = |p: &ScalingPoint| {
            first.map_or(0.0, |f| f.model_flops_per_s * p.chips as f64 / f.chips.max(1) as f64)
        };
        let values = points.iter().flat_map(|p| {
            [exa(p.model_flops_per_s * p.goodput), exa(ideal(p)), exa(p.model_flops_per_s)]
        });
        let mut chart = chips_chart(
            root,
            theme,
            (theme.words)("chart.effective"),
            chip_axis(current.map(|p| p.chips).as_slice()),
            range(values, (1e-3, 10.0)),
            false,
        )?;
        mesh!(chart, theme, (theme.words)("chart.eflops"))?;
        let fg = theme.foreground;
        chart.draw_series(LineSeries::new(
            points.iter().map(|p| (p.chips as f64, exa(ideal(p)))),
            color(fg).mix(0.5).stroke_width(1),
        ))?;
        legend.push(((theme.words)("chart.linear").to_string(), Mark::Faint, fg));
        let mfu_color = theme.palette[2];
        chart.draw_series(LineSeries::new(
            points.iter().map(|p| (p.chips as f64, exa(p.model_flops_per_s))),
            stroke(mfu_color, 2),
        ))?;
        legend.push(((theme.words)("chart.at-mfu").to_string(), Mark::Line, mfu_color));
        let after = theme.palette[0];
        chart.draw_series(LineSeries::new(
            points.iter().map(|p| (p.chips as f64, exa(p.model_flops_per_s * p.goodput))),
            stroke(after, 2),
        ))?;
        legend.push(((theme.words)("chart.after-failures").to_string(), Mark::Line, after));
        if let Some(p) = current {
            let at = (p.chips as f64, exa(p.model_flops_per_s * p.goodput));
            let label = fill_in(
                theme.words,
                "chart.this-plan-goodput",
                &[
                    ("chips", &numbers::format(p.chips as f64)),
                    ("goodput", &crate::format::percent(p.goodput)),
                ],
            );
            chart.draw_series(std::iter::once(Circle::new(at, 6, color(fg).filled())))?;
            legend.push((label.to_string(), Mark::Dot, fg));
        }
        legend_box(&chart.plotting_area().strip_coord_spec(), theme, &legend, false)?;
        Ok(())
    })
}

/// Days to train and MFU against chip count (log axis), with the current plan marked.
pub fn draw_scaling(
    points: &[ScalingPoint],
    current: Option<&ScalingPoint>,
    theme: &Theme,
    size: Size,
) -> String {
    svg::svg(size, theme, |root| {
        let mut legend: Vec<(String, Mark, &str)> = Vec::new();
        let days = |p: &ScalingPoint| p.train_days.max(1e-3);
        let (lo, hi) = range(points.iter().chain(current).map(days), (0.1, 100.0));
        let mfu_top = points.iter().chain(current).map(|p| p.mfu).fold(0.6f64, f64::max) * 1.1;
        let (x_lo, x_hi) = chip_axis(current.map(|p| p.chips).as_slice());
        let chart =
            chips_chart(root, theme, (theme.words)("chart.scaling"), (x_lo, x_hi), (lo, hi), true)?;
        let mut chart = chart.set_secondary_coord(log_axis(x_lo, x_hi, 2.0), 0.0..mfu_top);
        mesh!(chart, theme, (theme.words)("chart.days"))?;
        chart
            .configure_secondary_axes()
            .y_labels(6)
            .y_label_formatter(&|y| format!("{:.0}", 100.0 * y))
            .y_desc((theme.words)("chart.mfu-percent"))
            .label_style(font(theme, TEXT))
            .axis_desc_style(font(theme, TEXT))
            .axis_style(color(theme.foreground))
            .draw()?;
        let fg = theme.foreground;
        let (days_color, mfu_color) = (theme.palette[0], theme.palette[2]);
        // Perfect scaling from this plan: the gap to the curve is what size costs.
        if let Some(p) = current {
            let ideal = |chips: f64| {
                sweep::ideal_days(p, chips.round().clamp(1.0, u32::MAX as f64) as u32).clamp(lo, hi)
            };
            chart.draw_series(LineSeries::new(
                [x_lo, x_hi].map(|x| (x, ideal(x))),
                color(fg).mix(0.5).stroke_width(1),
            ))?;
            legend.push(((theme.words)("chart.ideal").to_string(), Mark::Faint, fg));
        }
        chart.draw_series(LineSeries::new(
            points.iter().map(|p| (p.chips as f64, days(p))),
            stroke(days_color, 2),
        ))?;
        legend.push(((theme.words)("chart.days").to_string(), Mark::Line, days_color));
        chart.draw_secondary_series(LineSeries::new(
            points.iter().map(|p| (p.chips as f64, p.mfu)),
            stroke(mfu_color, 2),
        ))?;
        legend.push(((theme.words)("chart.mfu-percent").to_string(), Mark::Line, mfu_color));
        if points.iter().any(|p| !p.fits) {
            let crosses = points
                .iter()
                .filter(|p| !p.fits)
                .map(|p| Cross::new((p.chips as f64, days(p)), 4, stroke(theme.alert, 2)));
            chart.draw_series(crosses)?;
            legend.push((
                (theme.words)("chart.does-not-fit").to_string(),
                Mark::Cross,
                theme.alert,
            ));
        }
        if let Some(p) = current {
            let verdict = (theme.words)(if p.fits { "fit.fits" } else { "fit.does-not-fit" });
            let chips = numbers::format(p.chips as f64);
            let label = fill_in(
                theme.words,
                "chart.this-plan-fit",
                &[("chips", &chips), ("verdict", verdict)],
            );
            let at = (p.chips as f64, days(p));
            chart.draw_series(std::iter::once(Circle::new(at, 6, color(fg).filled())))?;
            legend.push((label.to_string(), Mark::Dot, fg));
            let mfu = Circle::new((p.chips as f64, p.mfu), 5, color(mfu_color).filled());
            chart.draw_secondary_series(std::iter::once(mfu))?;
        }
        legend_box(&chart.plotting_area().strip_coord_spec(), theme, &legend, true)?;
        Ok(())
    })
}

/// Days to train (with failures) against chip count for each chip sized, with the deadline as
/// a grey line, so "N of chip A match M of chip B" reads off where the curves cross it.
pub fn sizing_svg(curves: &[Curve], deadline_days: f64, theme: &Theme, size: Size) -> String {
    svg::svg(size, theme, |root| {
        let mut legend: Vec<(String, Mark, &str)> = Vec::new();
        let deadline = deadline_days.max(1e-3);
        let all = || curves.iter().flat_map(|c| c.points.iter());
        let (x_lo, x_hi) = range(all().map(|&(n, _)| n as f64), (8.0 / 0.7, CHIP_AXIS.1 / 1.4));
        let (y_lo, y_hi) = range(all().map(|&(_, d)| d.max(1e-3)).chain([deadline]), (0.1, 100.0));
        let mut chart = chips_chart(
            root,
            theme,
            (theme.words)("chart.sizing"),
            (x_lo, x_hi),
            (y_lo, y_hi),
            false,
        )?;
        mesh!(chart, theme, (theme.words)("chart.days-with-failures"))?;
        let fg = theme.foreground;
        let label =
            fill_in(theme.words, "chart.deadline", &[("days", &numbers::format(deadline_days))]);
        chart.draw_series(LineSeries::new(
            [(x_lo, deadline), (x_hi, deadline)],
            color(fg).mix(0.6).stroke_width(2),
        ))?;
        legend.push((label.to_string(), Mark::Line, fg));
        for (i, curve) in curves.iter().enumerate() {
            let c = theme.palette[i % theme.palette.len()];
            let points: Vec<(f64, f64)> =
                curve.points.iter().map(|&(n, d)| (n as f64, d.max(1e-3))).collect();
            chart.draw_series(LineSeries::new(points.clone(), stroke(c, 2)))?;
            chart.draw_series(points.into_iter().map(|p| Circle::new(p, 5, color(c).filled())))?;
            legend.push((curve.label.clone(), Mark::Dot, c));
        }
        legend_box(&chart.plotting_area().strip_coord_spec(), theme, &legend, true)?;
        Ok(())
    })
}

/// Draws plot `kind` of estimate `e` of a plan on `chips` chips, with the plan at other sizes
/// (`scaling`) for the plots against chip count.
pub fn draw(
    kind: Kind,
    e: &Estimate,
    scaling: &[ScalingPoint],
    chips: u32,
    money: Money,
    theme: &Theme,
    size: Size,
) -> String {
    let current = ScalingPoint::of(chips, e);
    match kind {
        Kind::Step => draw_step(e, theme, size),
        Kind::Memory => draw_memory(e, theme, size),
        Kind::Scaling => draw_scaling(scaling, Some(&current), theme, size),
        Kind::Power => draw_power(e, theme, size),
        Kind::Cost => draw_cost(e, money, theme, size),
        Kind::PlantScaling => draw_plant_scaling(scaling, Some(&current), money, theme, size),
        Kind::Effective => draw_effective(scaling, Some(&current), theme, size),
        Kind::Frontier | Kind::Timeline | Kind::Sensitivity | Kind::NetworkLoad => String::new(),
    }
}

/// Serving's frontier: output tokens a second per chip against the time per output token, one
/// point a batch size (log-log), the batch run marked and the target drawn as a line.
pub fn draw_frontier(
    frontier: &[crate::model::serving::FrontierPoint],
    chosen: (f64, f64),
    target_s: f64,
    theme: &Theme,
    size: Size,
) -> String {
    svg::svg(size, theme, |root| {
        let ms = |s: f64| (s * 1e3).max(1e-3);
        let xs = frontier.iter().map(|p| ms(p.tpot_s)).chain([ms(chosen.0), ms(target_s)]);
        let ys = frontier.iter().map(|p| p.tokens_per_s_per_chip.max(1e-3));
        let (x_lo, x_hi) = range(xs, (1.0, 1000.0));
        let (y_lo, y_hi) = range(ys.chain([chosen.1.max(1e-3)]), (1.0, 1000.0));
        let mut chart = ChartBuilder::on(root)
            .caption((theme.words)("chart.frontier"), font(theme, CAPTION))
            .margin(8)
            .x_label_area_size(40)
            .y_label_area_size(58)
            .build_cartesian_2d(log_axis(x_lo, x_hi, 10.0), log_axis(y_lo, y_hi, 10.0))?;
        themed!(
            chart
                .configure_mesh()
                .x_labels(40)
                .y_labels(40)
                .x_label_formatter(&plain_tick)
                .y_label_formatter(&plain_tick)
                .x_desc((theme.words)("chart.tpot-ms"))
                .y_desc((theme.words)("chart.tokens-per-chip")),
            theme
        )
        .draw()?;
        let c = theme.palette[0];
        let points: Vec<(f64, f64)> =
            frontier.iter().map(|p| (ms(p.tpot_s), p.tokens_per_s_per_chip.max(1e-3))).collect();
        chart.draw_series(LineSeries::new(points.iter().copied(), stroke(c, 2)))?;
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color(c).filled())))?;
        let target = theme.palette[3];
        let line = vec![(ms(target_s), y_lo), (ms(target_s), y_hi)];
        chart.draw_series(std::iter::once(PathElement::new(line, stroke(target, 1))))?;
        let at = (ms(chosen.0), chosen.1.max(1e-3));
        chart.draw_series(std::iter::once(Circle::new(at, 6, color(target).filled())))?;
        let legend = [
            ((theme.words)("chart.frontier-batches").to_string(), Mark::Dot, c),
            ((theme.words)("chart.frontier-target").to_string(), Mark::Line, target),
        ];
        legend_box(&chart.plotting_area().strip_coord_spec(), theme, &legend, true)?;
        Ok(())
    })
}

/// Plan A against plan B: each one's step as a stacked bar on one axis (A above B), parts in
/// the step plot's colours, with both values per part in the legend.
pub fn draw_compare_step(
    a: &Estimate,
    b: &Estimate,
    names: [&str; 2],
    theme: &Theme,
    size: Size,
) -> String {
    svg::svg(size, theme, |root| {
        let limit = a.step_s.max(b.step_s).max(1e-12) * 1.05;
        let (pa, pb) = (a.breakdown.parts(), b.breakdown.parts());
        let sides = [("A", names[0]), ("B", names[1])].map(|(side, name)| {
            (
                fill_in(theme.words, "chart.side", &[("side", side), ("name", name)]),
                theme.foreground,
            )
        });
        let parts =
            pa.iter().zip(pb.iter()).enumerate().filter(|(_, (x, y))| x.1 > 0.0 || y.1 > 0.0).map(
                |(idx, ((id, va), (_, vb)))| {
                    let text = format!(
                        "{}: A {} s, B {} s",
                        part_name(theme, id),
                        numbers::sig3(*va),
                        numbers::sig3(*vb)
                    );
                    (text, theme.palette[idx % theme.palette.len()])
                },
            );
        let rows: Vec<(String, &str)> = sides.into_iter().chain(parts).collect();
        let (left, right) = bar_areas(root, theme, (theme.words)("chart.compare-step"), &rows);
        let axis = (theme.words)("chart.seconds-per-step");
        let mut chart = bar_chart(&left, theme, axis, limit, 2)?;
        for (name, row) in [("A", 1.5), ("B", 0.5)] {
            let style = font_at(theme, TEXT, (HPos::Right, VPos::Center));
            let label = EmptyElement::at((0.0, row)) + Text::new(name, (-8, 0), style);
            chart.draw_series(std::iter::once(label))?;
        }
        for (row, parts) in [(1.0, &pa), (0.0, &pb)] {
            let mut start = 0.0;
            for (idx, (_, value)) in parts.iter().enumerate() {
                if *value > 0.0 {
                    let swatch = color(theme.palette[idx % theme.palette.len()]);
                    let bar = [(start, row + 0.2), (start + value, row + 0.8)];
                    chart.draw_series(std::iter::once(Rectangle::new(bar, swatch.filled())))?;
                    start += value;
                }
            }
        }
        legend_column(&right, theme, &rows)
    })
}

/// Plan A against plan B: days to train against chip count for each, the plans themselves
/// marked.
pub fn draw_compare_scaling(
    a: (&[ScalingPoint], &ScalingPoint),
    b: (&[ScalingPoint], &ScalingPoint),
    names: [&str; 2],
    theme: &Theme,
    size: Size,
) -> String {
    svg::svg(size, theme, |root| {
        let mut legend: Vec<(String, Mark, &str)> = Vec::new();
        let days = |p: &ScalingPoint| p.train_days.max(1e-3);
        let all = a.0.iter().chain(b.0).chain([a.1, b.1]);
        let mut chart = chips_chart(
            root,
            theme,
            (theme.words)("chart.compare-scaling"),
            chip_axis(&[a.1.chips, b.1.chips]),
            range(all.map(days), (0.1, 100.0)),
            false,
        )?;
        mesh!(chart, theme, (theme.words)("chart.days"))?;
        for ((points, current), (side, name), c) in
            [(a, ("A", names[0]), theme.palette[0]), (b, ("B", names[1]), theme.palette[3])]
        {
            let name = fill_in(theme.words, "chart.side", &[("side", side), ("name", name)]);
            let fitting = points.iter().filter(|p| p.fits).map(|p| (p.chips as f64, days(p)));
            chart.draw_series(LineSeries::new(fitting, stroke(c, 2)))?;
            let at = (current.chips as f64, days(current));
            chart.draw_series(std::iter::once(Circle::new(at, 6, color(c).filled())))?;
            legend.push((name, Mark::Dot, c));
        }
        legend_box(&chart.plotting_area().strip_coord_spec(), theme, &legend, true)?;
        Ok(())
    })
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
    /// Serving's frontier: output tokens a second per chip against the time between tokens,
    /// over batch sizes; drawn only for a scenario that serves (`draw_frontier`), so not in
    /// `ALL`.
    Frontier,
    /// The step as a Gantt drawing of its pipeline stages (`draw_timeline`), drawn from the
    /// plan's degrees as well as its estimate, so not in `ALL`.
    Timeline,
    /// What moves the days with failures, input by input (`draw_tornado`).
    Sensitivity,
    /// Each tier of the network's load over a step (`draw_network`).
    NetworkLoad,
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
            Kind::Frontier => "serving-frontier",
            Kind::Timeline => "step-timeline",
            Kind::Sensitivity => "sensitivity",
            Kind::NetworkLoad => "network-load",
        }
    }

    /// The plot named `id`.
    pub fn from_id(id: &str) -> Option<Kind> {
        [Kind::Frontier, Kind::Timeline, Kind::Sensitivity, Kind::NetworkLoad]
            .into_iter()
            .chain(Kind::ALL)
            .find(|k| k.id() == id)
    }

    /// The plot's height on the page, CSS pixels: bars are short, curves against chip count
    /// taller.
    pub fn height(self) -> u32 {
        match self {
            Kind::Scaling => 320,
            Kind::PlantScaling | Kind::Effective | Kind::Frontier | Kind::Timeline => 300,
            Kind::Step | Kind::Memory | Kind::Power | Kind::Cost | Kind::NetworkLoad => 230,
            Kind::Sensitivity => 380,
        }
    }
}

/// Every plot of a plan, each an SVG document `width` wide (`Kind::height` tall), keyed by
/// `Kind::id`.
pub fn draw_all(
    e: &Estimate,
    scaling: &[ScalingPoint],
    chips: u32,
    money: Money,
    theme: &Theme,
    width: u32,
) -> Vec<(Kind, String)> {
    Kind::ALL
        .into_iter()
        .map(|kind| (kind, draw(kind, e, scaling, chips, money, theme, (width, kind.height()))))
        .collect()
}
