//! The few things a plot is drawn from, written straight into SVG markup: text, lines, boxes,
//! dots, axes with their ticks, and a legend. SVG places text by its anchor, so nothing needs
//! a font system; the only measure taken is a legend box's width, estimated from its labels.

use std::fmt::Write;

use super::Theme;

/// Text safe inside markup.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// About how wide `text` is at `size` pixels: 0.56 em a Latin character, 1 em a CJK one.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().map(|c| if c as u32 >= 0x1100 { 1.0 } else { 0.56 }).sum::<f64>() * size
}

/// An SVG document being drawn.
pub struct Doc {
    out: String,
    pub w: f64,
    pub h: f64,
}

/// Where text hangs from its point.
#[derive(Clone, Copy)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Doc {
    /// A `w` × `h` document on `background`.
    pub fn new(w: f64, h: f64, theme: &Theme) -> Doc {
        let mut out = String::with_capacity(8192);
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="sans-serif"><rect width="{w:.0}" height="{h:.0}" fill="{}"/>"#,
            theme.background
        );
        Doc { out, w, h }
    }

    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: Anchor, fill: &str, text: &str) {
        let anchor = match anchor {
            Anchor::Start => "",
            Anchor::Middle => r#" text-anchor="middle""#,
            Anchor::End => r#" text-anchor="end""#,
        };
        let _ = write!(
            self.out,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" fill="{fill}"{anchor}>{}</text>"#,
            escape(text)
        );
    }

    /// Text read upwards, centred on its point (a vertical axis's name).
    pub fn upright(&mut self, x: f64, y: f64, size: f64, fill: &str, text: &str) {
        let _ = write!(
            self.out,
            r#"<text transform="translate({x:.1} {y:.1}) rotate(-90)" font-size="{size}" fill="{fill}" text-anchor="middle">{}</text>"#,
            escape(text)
        );
    }

    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), stroke: &str, width: f64) {
        let _ = write!(
            self.out,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}" stroke-width="{width}"/>"#
        );
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str) {
        let _ = write!(
            self.out,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{fill}"/>"#,
            w.max(0.0),
            h.max(0.0)
        );
    }

    pub fn dot(&mut self, (x, y): (f64, f64), r: f64, fill: &str) {
        let _ = write!(self.out, r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r}" fill="{fill}"/>"#);
    }

    pub fn cross(&mut self, (x, y): (f64, f64), r: f64, stroke: &str) {
        self.line((x - r, y - r), (x + r, y + r), stroke, 2.0);
        self.line((x - r, y + r), (x + r, y - r), stroke, 2.0);
    }

    /// A line through `points`; `opacity` below 1 draws it faint.
    pub fn path(&mut self, points: &[(f64, f64)], stroke: &str, width: f64, opacity: f64) {
        if points.len() < 2 {
            return;
        }
        self.out.push_str("<polyline points=\"");
        for (x, y) in points {
            let _ = write!(self.out, "{x:.1},{y:.1} ");
        }
        let _ = write!(
            self.out,
            r#"" fill="none" stroke="{stroke}" stroke-width="{width}" stroke-opacity="{opacity}" stroke-linejoin="round"/>"#
        );
    }

    /// The caption, centred at the top.
    pub fn caption(&mut self, text: &str, theme: &Theme) {
        self.text(self.w / 2.0, 20.0, 16.0, Anchor::Middle, theme.foreground, text);
    }

    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

/// One axis: its range, scale and ticks.
#[derive(Clone, Debug)]
pub struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub log: bool,
    pub ticks: Vec<f64>,
}

impl Axis {
    /// A linear axis from `lo` to `hi` with ticks at 1, 2 or 5 times a power of ten, about
    /// `count` of them.
    pub fn linear(lo: f64, hi: f64, count: usize) -> Axis {
        let (lo, hi) =
            if hi > lo && hi.is_finite() && lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
        let rough = (hi - lo) / count.max(1) as f64;
        let power = 10f64.powf(rough.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * power)
            .find(|s| *s >= rough)
            .unwrap_or(power);
        let ticks = (0..)
            .map(|i| (lo / step).ceil() * step + i as f64 * step)
            .take_while(|t| *t <= hi * (1.0 + 1e-9))
            .take(50)
            .collect();
        Axis { lo, hi, log: false, ticks }
    }

    /// A log axis from `lo` to `hi` with ticks at powers of two (`base` 2) or at 1, 2 and 5
    /// per decade.
    pub fn log(lo: f64, hi: f64, base: f64) -> Axis {
        let (lo, hi) = if lo > 0.0 && hi > lo && hi.is_finite() { (lo, hi) } else { (1.0, 10.0) };
        let steps: &[f64] = if base == 2.0 { &[1.0, 2.0, 4.0, 8.0] } else { &[1.0, 2.0, 5.0] };
        Axis { lo, hi, log: true, ticks: super::ticks(lo, hi, steps, base) }
    }

    /// Where `v` falls, 0 at `lo` and 1 at `hi`, clamped a little past the ends.
    pub fn at(&self, v: f64) -> f64 {
        let f = if self.log {
            (v.max(1e-300).ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        if f.is_finite() {
            f.clamp(-0.02, 1.02)
        } else {
            0.0
        }
    }
}

/// The plotting area of a chart, in pixels, and its axes.
pub struct Chart {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    pub x: Axis,
    pub y: Axis,
    /// A second vertical axis on the right.
    pub y2: Option<Axis>,
}

impl Chart {
    /// The point of (`x`, `y`) on the left axis, or on the right one with `second`.
    pub fn at(&self, x: f64, y: f64, second: bool) -> (f64, f64) {
        let axis = if second { self.y2.as_ref().unwrap_or(&self.y) } else { &self.y };
        (
            self.left + self.x.at(x) * (self.right - self.left),
            self.bottom - axis.at(y) * (self.bottom - self.top),
        )
    }

    /// A line through `points` on one of the vertical axes.
    pub fn series(
        &self,
        doc: &mut Doc,
        points: impl Iterator<Item = (f64, f64)>,
        second: bool,
        stroke: &str,
        width: f64,
    ) {
        let points: Vec<_> = points.map(|(x, y)| self.at(x, y, second)).collect();
        doc.path(&points, stroke, width, 1.0);
    }
}

/// The names of a chart's axes and how their tick labels read.
/// How an axis's tick labels read.
pub type Tick<'a> = &'a dyn Fn(f64) -> String;

pub struct Names<'a> {
    pub x: &'a str,
    pub y: &'a str,
    pub y2: &'a str,
    pub x_tick: Tick<'a>,
    pub y_tick: Tick<'a>,
    pub y2_tick: Tick<'a>,
}

/// Lays out a chart under its caption and draws its grid, axes, tick labels and names.
pub fn chart(
    doc: &mut Doc,
    theme: &Theme,
    x: Axis,
    y: Axis,
    y2: Option<Axis>,
    names: &Names,
) -> Chart {
    let right = doc.w - if y2.is_some() { 64.0 } else { 14.0 };
    let c = Chart { left: 64.0, top: 34.0, right, bottom: doc.h - 44.0, x, y, y2 };
    for &t in &c.y.ticks {
        let (_, py) = c.at(c.x.lo, t, false);
        doc.line((c.left, py), (c.right, py), theme.grid, 1.0);
        doc.text(c.left - 6.0, py + 4.0, 12.0, Anchor::End, theme.foreground, &(names.y_tick)(t));
    }
    // Tick labels along x, skipped where they would touch the one before.
    let mut free = f64::MIN;
    for &t in &c.x.ticks {
        let (px, _) = c.at(t, c.y.lo, false);
        doc.line((px, c.top), (px, c.bottom), theme.grid, 1.0);
        let label = (names.x_tick)(t);
        let half = text_width(&label, 12.0) / 2.0;
        if px - half > free && px + half <= doc.w {
            doc.text(px, c.bottom + 16.0, 12.0, Anchor::Middle, theme.foreground, &label);
            free = px + half + 6.0;
        }
    }
    doc.line((c.left, c.bottom), (c.right, c.bottom), theme.foreground, 1.0);
    doc.line((c.left, c.top), (c.left, c.bottom), theme.foreground, 1.0);
    doc.text(
        (c.left + c.right) / 2.0,
        doc.h - 8.0,
        12.0,
        Anchor::Middle,
        theme.foreground,
        names.x,
    );
    doc.upright(14.0, (c.top + c.bottom) / 2.0, 12.0, theme.foreground, names.y);
    if let Some(y2) = &c.y2 {
        doc.line((c.right, c.top), (c.right, c.bottom), theme.foreground, 1.0);
        for &t in &y2.ticks {
            let (_, py) = c.at(c.x.lo, t, true);
            doc.text(
                c.right + 6.0,
                py + 4.0,
                12.0,
                Anchor::Start,
                theme.foreground,
                &(names.y2_tick)(t),
            );
        }
        doc.upright(doc.w - 10.0, (c.top + c.bottom) / 2.0, 12.0, theme.foreground, names.y2);
    }
    c
}

/// How a legend entry is marked.
#[derive(Clone, Copy)]
pub enum Mark {
    Line,
    Faint,
    Dot,
    Cross,
}

/// A legend in a top corner of the chart (`right` or left): a mark and a label per entry.
pub fn legend(
    doc: &mut Doc,
    theme: &Theme,
    c: &Chart,
    entries: &[(String, Mark, &str)],
    right: bool,
) {
    let longest = entries.iter().map(|(t, ..)| text_width(t, 11.0)).fold(0.0, f64::max);
    let (width, height) = (longest + 32.0, 8.0 + 16.0 * entries.len() as f64);
    let x0 = if right { c.right - width - 8.0 } else { c.left + 8.0 };
    let y0 = c.top + 6.0;
    let _ = write!(
        doc.out,
        r#"<rect x="{x0:.1}" y="{y0:.1}" width="{width:.1}" height="{height:.1}" fill="{}" fill-opacity="0.9" stroke="{}"/>"#,
        theme.background, theme.grid
    );
    for (row, (text, mark, color)) in entries.iter().enumerate() {
        let (x, y) = (x0 + 6.0, y0 + 12.0 + 16.0 * row as f64);
        match mark {
            Mark::Line => doc.line((x, y), (x + 14.0, y), color, 2.0),
            Mark::Faint => doc.path(&[(x, y), (x + 14.0, y)], color, 1.0, 0.5),
            Mark::Dot => doc.dot((x + 7.0, y), 4.0, color),
            Mark::Cross => doc.cross((x + 7.0, y), 4.0, color),
        }
        doc.text(x + 20.0, y + 4.0, 11.0, Anchor::Start, theme.foreground, text);
    }
}
