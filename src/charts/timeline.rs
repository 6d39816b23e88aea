//! The step as a Gantt drawing: a row a pipeline stage (at most `ROWS`, the first and last
//! always among them), its passes, exposed communication, fill and drain, and the step's tail
//! in time order (`model::timeline`), each bar with a hover title of its kind and time.
//!
//! plotters draws the frame, axis and legend; the bars are written as SVG rectangles of their
//! own, since only those carry a `<title>`. Bars narrower than a pixel and a half join the
//! next, and the chunks of an interleaved pass join when each is under `CHUNK_PX`, so the
//! drawing stays a few thousand elements at most whatever the plan.

use plotters::prelude::*;
use std::cell::RefCell;

use super::svg::{self, color, escape, font};
use super::{bar_areas, fill_in, legend_column, Size, Theme, TEXT};
use crate::model::timeline::{Event, Kind};
use crate::numbers::sig3;

/// Stages drawn at most.
pub const ROWS: u32 = 8;

/// A part of a pass narrower than this (pixels) joins its bar.
const MIN_PX: f64 = 3.0;

/// Chunks of an interleaved pass are drawn apart only when each is this wide (pixels).
const CHUNK_PX: f64 = 4.0;

/// Every kind in the legend's order.
const KINDS: [Kind; 13] = [
    Kind::Forward,
    Kind::Backward,
    Kind::Tp,
    Kind::Cp,
    Kind::Ep,
    Kind::Pp,
    Kind::Host,
    Kind::Bubble,
    Kind::Dp,
    Kind::Optimizer,
    Kind::Offload,
    Kind::Straggler,
    Kind::Steady,
];

/// A kind's name in the theme's words.
fn name(theme: &Theme, kind: Kind) -> &'static str {
    let key = match kind {
        Kind::Forward => "chart.timeline-forward",
        Kind::Backward => "chart.timeline-backward",
        Kind::Tp => "part.tp_exposed",
        Kind::Cp => "part.cp_exposed",
        Kind::Ep => "part.ep_exposed",
        Kind::Pp => "part.pp_exposed",
        Kind::Host => "part.host",
        Kind::Bubble => "part.bubble",
        Kind::Dp => "part.dp_exposed",
        Kind::Optimizer => "part.optimizer",
        Kind::Offload => "part.offload",
        Kind::Straggler => "part.straggler",
        Kind::Steady => "chart.timeline-steady",
    };
    (theme.words)(key)
}

/// A kind's colour.
fn colour(theme: &Theme, kind: Kind) -> &'static str {
    let p = &theme.palette;
    match kind {
        Kind::Forward => p[0],
        Kind::Backward => p[2],
        Kind::Tp => p[3],
        Kind::Cp => p[4],
        Kind::Ep => p[5],
        Kind::Pp => p[6],
        Kind::Host => p[7],
        Kind::Bubble => theme.grid,
        Kind::Dp => p[8],
        Kind::Optimizer => p[1],
        Kind::Offload => theme.muted,
        Kind::Straggler => theme.alert,
        Kind::Steady => theme.outline,
    }
}

/// One bar: where it starts and how long it is, what it is made of (longest first decides
/// its colour), and the micro-batch and chunks it covers.
struct Bar {
    start_s: f64,
    dur_s: f64,
    parts: Vec<(Kind, f64)>,
    micro_batch: Option<u32>,
    chunks: Option<(u32, u32)>,
    /// The passes a summary of the steady state stands for.
    passes: u64,
}

impl Bar {
    fn of(e: &Event) -> Bar {
        Bar {
            start_s: e.start_s,
            dur_s: e.dur_s,
            parts: vec![(e.kind, e.dur_s)],
            micro_batch: e.micro_batch,
            chunks: e.chunk.map(|c| (c, c)),
            passes: e.passes,
        }
    }

    fn main(&self) -> Kind {
        let longest = self.parts.iter().max_by(|a, b| a.1.total_cmp(&b.1));
        longest.map_or(Kind::Bubble, |p| p.0)
    }

    fn take(&mut self, e: &Event) {
        self.dur_s = e.start_s + e.dur_s - self.start_s;
        match self.parts.iter_mut().find(|p| p.0 == e.kind) {
            Some(p) => p.1 += e.dur_s,
            None => self.parts.push((e.kind, e.dur_s)),
        }
        self.micro_batch = self.micro_batch.or(e.micro_batch);
        self.passes += e.passes;
        if let Some(c) = e.chunk {
            self.chunks = Some(self.chunks.map_or((c, c), |(lo, hi)| (lo.min(c), hi.max(c))));
        }
    }

    /// Its hover title: stage, micro-batch, chunks, its own part's kind and time, and the time
    /// of the parts that joined it.
    fn title(&self, theme: &Theme, stage: u32) -> String {
        let mut head = fill_in(theme.words, "chart.stage", &[("n", &(stage + 1).to_string())]);
        if let Some(i) = self.micro_batch {
            let n = (i + 1).to_string();
            head += &format!(" · {}", fill_in(theme.words, "chart.micro-batch", &[("n", &n)]));
        }
        if let Some((lo, hi)) = self.chunks {
            let n =
                if lo == hi { format!("{}", lo + 1) } else { format!("{}–{}", lo + 1, hi + 1) };
            head += &format!(" · {}", fill_in(theme.words, "chart.chunk", &[("n", &n)]));
        }
        if self.passes > 0 {
            let n = crate::numbers::format(self.passes as f64);
            head += &format!(" · {}", fill_in(theme.words, "chart.passes", &[("n", &n)]));
        }
        // The bar's own part and its time, then what joined it, summed.
        let main = self.main();
        let own: f64 = self.parts.iter().filter(|p| p.0 == main).map(|p| p.1).sum();
        let rest = self.dur_s - own;
        let mut said = format!("{head}: {} {} ms", name(theme, main), sig3(own * 1e3));
        if rest * 1e3 >= 0.0005 {
            let ms = sig3(rest * 1e3);
            said += &format!(", {}", fill_in(theme.words, "chart.timeline-rest", &[("ms", &ms)]));
        }
        said
    }
}

/// Passes drawn at each end of a stage's schedule; the steady state between is one bar
/// (`model::timeline::summarised`), so a long schedule does not draw as a stripe.
pub const PASSES: u64 = 24;

/// The stages drawn: all of them up to `ROWS`, else `ROWS` spread evenly from first to last.
pub fn rows(stages: u32) -> Vec<u32> {
    let n = stages.max(1);
    if n <= ROWS {
        return (0..n).collect();
    }
    (0..ROWS).map(|r| (r as u64 * (n as u64 - 1) / (ROWS as u64 - 1)) as u32).collect()
}

/// One stage's events as bars `px_per_s` pixels a second: a pass's host launch, chunks and
/// communication join its bar when too narrow to see, and never another micro-batch's.
fn bars(events: &[&Event], px_per_s: f64) -> Vec<Bar> {
    let narrow = |s: f64| s * px_per_s < MIN_PX;
    let mut out: Vec<Bar> = Vec::new();
    for e in events {
        if let Some(last) = out.last_mut() {
            let same = last.micro_batch == e.micro_batch;
            let turns = matches!(
                (last.main(), e.kind),
                (Kind::Forward, Kind::Backward) | (Kind::Backward, Kind::Forward)
            );
            let chunk_of_pass =
                last.main() == e.kind && e.chunk.is_some() && e.dur_s * px_per_s < CHUNK_PX;
            if same && !turns && (narrow(last.dur_s) || narrow(e.dur_s) || chunk_of_pass) {
                last.take(e);
                continue;
            }
        }
        out.push(Bar::of(e));
    }
    out
}

/// The timeline `events` of a step of `step_s` over `stages` stages, as an SVG document.
pub fn draw_timeline(
    events: &[Event],
    stages: u32,
    step_s: f64,
    theme: &Theme,
    size: Size,
) -> String {
    let drawn = rows(stages);
    let shown: Vec<Kind> =
        KINDS.into_iter().filter(|k| events.iter().any(|e| e.kind == *k)).collect();
    let legend: Vec<(String, &str)> =
        shown.iter().map(|k| (name(theme, *k).to_string(), colour(theme, *k))).collect();
    let rects = RefCell::new(String::new());
    let svg = svg::svg(size, theme, |root| {
        let caption = (theme.words)("chart.timeline");
        let (left, right) = bar_areas(root, theme, caption, &legend);
        let limit = step_s.max(1e-9);
        let n = drawn.len() as f64;
        let mut chart = ChartBuilder::on(&left)
            .margin_right(10)
            .x_label_area_size(40)
            .y_label_area_size(36)
            .build_cartesian_2d(super::axis_range(0.0, limit), super::axis_range(0.0, n))?;
        themed!(
            chart
                .configure_mesh()
                .disable_y_mesh()
                .x_labels(6)
                .y_labels(0)
                .x_label_formatter(&|v| sig3(*v))
                .x_desc((theme.words)("chart.seconds"))
                .y_desc((theme.words)("chart.stages")),
            theme
        )
        .draw()?;
        let (x0, _) = chart.backend_coord(&(0.0, 0.0));
        let (x1, _) = chart.backend_coord(&(limit, 0.0));
        let px_per_s = f64::from((x1 - x0).max(1)) / limit;
        let mut out = rects.borrow_mut();
        for (row, stage) in drawn.iter().enumerate() {
            // The first stage on top.
            let y = n - row as f64;
            let (_, top) = chart.backend_coord(&(0.0, y - 0.12));
            let (_, bottom) = chart.backend_coord(&(0.0, y - 0.88));
            let (top, height) = (top.min(bottom), (bottom - top).abs().max(1));
            out.push_str(&format!(
                r#"<text x="{}" y="{}" font-size="{TEXT}" text-anchor="end" dominant-baseline="middle" fill="{}">{}</text>"#,
                x0 - 6,
                top + height / 2,
                theme.foreground,
                stage + 1
            ));
            let mine: Vec<&Event> = events.iter().filter(|e| e.stage == *stage).collect();
            for bar in bars(&mine, px_per_s) {
                let x = f64::from(x0) + bar.start_s * px_per_s;
                let w = bar.dur_s * px_per_s;
                let fill = colour(theme, bar.main());
                out.push_str(&format!(
                    r#"<rect x="{x:.1}" y="{top}" width="{w:.1}" height="{height}" fill="{fill}"><title>{}</title></rect>"#,
                    escape(&bar.title(theme, *stage))
                ));
            }
        }
        drop(out);
        legend_column(&right, theme, &legend)
    });
    let rects = rects.into_inner();
    match svg.rfind("</svg>") {
        Some(at) => format!("{}<g class=\"bars\">{rects}</g></svg>", &svg[..at]),
        None => svg,
    }
}
