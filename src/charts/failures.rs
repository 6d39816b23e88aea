//! The chance of finishing by each day: the simulated runs' days to train (`model::failures`)
//! as a curve rising to the share of runs that finish, with the failure-free days, the 10th,
//! 50th and 90th percentiles and the deadline, if there is one, marked.

use plotters::prelude::*;

use super::svg::{self, color, font};
use super::{fill_in, legend_box, stroke, Mark, Size, Theme, CAPTION, TEXT};
use crate::model::failures::Spread;
use crate::numbers::sig3;

/// The curve of `spread` against days, beside `free_days` without failures and the
/// `deadline`.
pub fn draw_failures(
    spread: &Spread,
    free_days: f64,
    deadline: Option<f64>,
    theme: &Theme,
    size: Size,
) -> String {
    svg::svg(size, theme, |root| {
        let mut legend: Vec<(String, Mark, &str)> = Vec::new();
        let first = spread.days.first().copied().unwrap_or(free_days);
        let last = spread.days.last().copied().unwrap_or(free_days);
        let lo = free_days.min(first).min(deadline.unwrap_or(f64::MAX)) * 0.98;
        let hi = last.max(free_days).max(deadline.unwrap_or(0.0)) * 1.02;
        let (lo, hi) = if lo.is_finite() && hi > lo { (lo.max(0.0), hi) } else { (0.0, 1.0) };
        let mut chart = ChartBuilder::on(root)
            .caption((theme.words)("chart.finish"), font(theme, CAPTION))
            .margin(8)
            .x_label_area_size(40)
            .y_label_area_size(58)
            .build_cartesian_2d(super::axis_range(lo, hi), 0.0..100.0)?;
        themed!(
            chart
                .configure_mesh()
                .x_labels(8)
                .y_labels(6)
                .x_label_formatter(&|d| sig3(*d))
                .y_label_formatter(&|p| format!("{p:.0}%"))
                .x_desc((theme.words)("chart.days-with-failures"))
                .y_desc((theme.words)("chart.chance-done")),
            theme
        )
        .draw()?;
        let n = spread.trials.max(1) as f64;
        let share = |i: usize| 100.0 * i as f64 / n;
        let curve = theme.palette[0];
        let rise =
            spread.days.iter().enumerate().flat_map(|(i, &d)| [(d, share(i)), (d, share(i + 1))]);
        let ends = [(lo, 0.0)].into_iter().chain(rise).chain([(hi, share(spread.days.len()))]);
        chart.draw_series(LineSeries::new(ends, stroke(curve, 2)))?;
        legend.push(((theme.words)("chart.simulated-runs").to_string(), Mark::Line, curve));
        let fg = theme.foreground;
        let upright = |d: f64| [(d, 0.0), (d, 100.0)];
        chart
            .draw_series(LineSeries::new(upright(free_days), color(fg).mix(0.5).stroke_width(1)))?;
        let free = fill_in(theme.words, "chart.failure-free", &[("days", &sig3(free_days))]);
        legend.push((free, Mark::Faint, fg));
        if let Some(d) = deadline {
            let alert = theme.alert;
            chart.draw_series(LineSeries::new(upright(d), stroke(alert, 2)))?;
            let chance = spread.chance_by(d);
            let words = fill_in(
                theme.words,
                "chart.deadline-chance",
                &[("days", &sig3(d)), ("chance", &crate::format::percent(chance))],
            );
            legend.push((words, Mark::Line, alert));
        }
        let marks = [(spread.p10_days, 10.0), (spread.p50_days, 50.0), (spread.p90_days, 90.0)];
        let dots = marks.into_iter().filter(|(d, _)| d.is_finite());
        chart.draw_series(dots.map(|(d, p)| Circle::new((d, p), 5, color(fg).filled())))?;
        let quantiles = fill_in(
            theme.words,
            "chart.percentiles",
            &[
                ("p10", &sig3(spread.p10_days)),
                ("p50", &sig3(spread.p50_days)),
                ("p90", &sig3(spread.p90_days)),
            ],
        );
        legend.push((quantiles, Mark::Dot, fg));
        legend_box(&chart.plotting_area().strip_coord_spec(), theme, &legend, false)?;
        Ok(())
    })
}
