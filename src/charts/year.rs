//! The cluster's year drawn: the fleet as a stacked area of the chips each job holds week by
//! week under the chips installed, with deliveries and power caps marked; and the jobs as a
//! Gantt, each bar from start to finish with its range, its deadline marked.

use plotters::prelude::*;

use super::svg::{self, color, font};
use super::{legend_box, row_chart, stroke, Mark, Size, Theme, CAPTION, TEXT};
use crate::numbers::{format, sig3};

/// What the fleet chart draws: per week, the chips installed and each job's average chips.
pub struct FleetWeeks {
    pub installed: Vec<f64>,
    /// Each job's name and its chips by week.
    pub jobs: Vec<(String, Vec<f64>)>,
    /// Weeks chips arrive, with their words; weeks a power cap starts, with theirs.
    pub deliveries: Vec<(u32, String)>,
    pub caps: Vec<(u32, String)>,
}

/// A job's bar: days from the year's start.
pub struct Bar {
    pub name: String,
    pub start: Option<f64>,
    pub finish: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub deadline: Option<f64>,
    pub met: bool,
}

/// The fleet over the year.
pub fn draw_year_fleet(f: &FleetWeeks, theme: &Theme, size: Size) -> String {
    svg::svg(size, theme, |root| {
        let weeks = f.installed.len().max(1) as f64;
        let fg = theme.foreground;
        // The legend: each job, the chips installed, deliveries and power caps.
        let mut legend: Vec<(String, Mark, &str)> = Vec::new();
        for (i, (name, _)) in f.jobs.iter().enumerate() {
            legend.push((name.clone(), Mark::Dot, theme.palette[i % theme.palette.len()]));
        }
        legend.push(((theme.words)("chart.installed").to_string(), Mark::Line, fg));
        if !f.deliveries.is_empty() {
            let words = f.deliveries.iter().map(|d| d.1.clone()).collect::<Vec<_>>().join("; ");
            legend.push((words, Mark::Faint, fg));
        }
        if !f.caps.is_empty() {
            let words = f.caps.iter().map(|d| d.1.clone()).collect::<Vec<_>>().join("; ");
            legend.push((words, Mark::Line, theme.alert));
        }
        // Room above the fleet for the legend, so it covers no week's chips: the plotting
        // area's size from the chart's (its margins, caption and labels), the fleet at most
        // the share of it below the legend, and never more than 2.5 times its own height.
        let (w, h) = root.dim_in_pixel();
        let plot_w = w as f64 - 2.0 * 8.0 - 64.0;
        let plot_h = (h as f64 - 2.0 * 8.0 - 2.0 * CAPTION - 40.0).max(1.0);
        let below = (1.0 - super::legend_depth(plot_w, &legend) / plot_h).clamp(0.4, 1.0 / 1.15);
        let top = f.installed.iter().copied().fold(1.0, f64::max) / below;
        let mut chart = ChartBuilder::on(root)
            .caption((theme.words)("chart.year-fleet"), font(theme, CAPTION))
            .margin(8)
            .x_label_area_size(40)
            .y_label_area_size(64)
            .build_cartesian_2d(0.0..weeks, 0.0..top)?;
        themed!(
            chart
                .configure_mesh()
                .x_labels(8)
                .y_labels(6)
                .x_label_formatter(&|w| format!("{:.0}", w + 1.0))
                .y_label_formatter(&|c| sig3(*c))
                .x_desc((theme.words)("chart.week"))
                .y_desc((theme.words)("chart.chips")),
            theme
        )
        .draw()?;
        // Each job stacked on those before it, a step a week.
        let mut floor = vec![0.0f64; f.installed.len()];
        for (i, (_, chips)) in f.jobs.iter().enumerate() {
            let c = theme.palette[i % theme.palette.len()];
            let top: Vec<f64> = floor.iter().zip(chips).map(|(a, b)| a + b.max(0.0)).collect();
            for (w, (&lo, &hi)) in floor.iter().zip(&top).enumerate() {
                if hi > lo {
                    let x = w as f64;
                    let block =
                        Rectangle::new([(x, lo), (x + 1.0, hi)], color(c).mix(0.85).filled());
                    chart.draw_series(std::iter::once(block))?;
                }
            }
            floor = top;
        }
        let edge =
            f.installed.iter().enumerate().flat_map(|(w, &c)| [(w as f64, c), (w as f64 + 1.0, c)]);
        chart.draw_series(LineSeries::new(edge, stroke(fg, 2)))?;
        let upright = |w: u32| [(w as f64, 0.0), (w as f64, top)];
        for (w, _) in &f.deliveries {
            chart.draw_series(LineSeries::new(upright(*w), color(fg).mix(0.5).stroke_width(1)))?;
        }
        for (w, _) in &f.caps {
            chart.draw_series(LineSeries::new(upright(*w), stroke(theme.alert, 1)))?;
        }
        legend_box(&chart.plotting_area().strip_coord_spec(), theme, &legend, true)?;
        Ok(())
    })
}

/// The jobs over the year, `weeks` long.
pub fn draw_year_gantt(bars: &[Bar], weeks: u32, theme: &Theme, size: Size) -> String {
    svg::svg(size, theme, |root| {
        let end = weeks.max(1) as f64 * 7.0;
        // Two rows' room on top for the legend, then a job a row.
        let room = [String::new(), String::new()];
        let names: Vec<String> =
            room.into_iter().chain(bars.iter().map(|b| b.name.clone())).collect();
        let rows = bars.len().max(1) as f64 + 2.0;
        let mut chart = row_chart(
            root,
            theme,
            (theme.words)("chart.year-jobs"),
            &names,
            (0.0, end, rows),
            (theme.words)("chart.week"),
            &|d| format((d / 7.0).floor() + 1.0),
        )?;
        let (ok, late) = (theme.palette[0], theme.alert);
        for (i, b) in bars.iter().enumerate() {
            let y = rows - 2.0 - i as f64;
            let Some(start) = b.start else { continue };
            let c = if b.met { ok } else { late };
            let finish = b.finish.unwrap_or(end).min(end);
            let bar = Rectangle::new(
                [(start, y - 0.75), (finish.max(start), y - 0.25)],
                color(c).filled(),
            );
            chart.draw_series(std::iter::once(bar))?;
            // The finish's range as a whisker.
            if let (Some(lo), Some(hi)) = (b.low, b.high) {
                let (lo, hi) = (lo.min(end), hi.min(end));
                let whisker = vec![(lo, y - 0.5), (hi, y - 0.5)];
                chart.draw_series(std::iter::once(PathElement::new(
                    whisker,
                    stroke(theme.foreground, 1),
                )))?;
            }
            if let Some(d) = b.deadline.filter(|d| *d <= end) {
                let tick = vec![(d, y - 0.95), (d, y - 0.05)];
                chart.draw_series(std::iter::once(PathElement::new(tick, stroke(late, 2))))?;
            }
        }
        let legend = [
            ((theme.words)("chart.year-met").to_string(), Mark::Dot, ok),
            ((theme.words)("chart.year-missed").to_string(), Mark::Dot, late),
            ((theme.words)("chart.year-deadline").to_string(), Mark::Line, late),
        ];
        legend_box(&chart.plotting_area().strip_coord_spec(), theme, &legend, true)?;
        Ok(())
    })
}
