//! What moves the answer as a tornado: a bar an input, from the days with failures at its
//! better end to those at its worse, about the plan's own days, the largest on top
//! (`model::sensitivity`, already sorted). An end that never finishes runs to the axis' edge.

use plotters::prelude::*;

use super::svg::{self, color};
use super::{legend_box, row_chart, Mark, Size, Theme};
use crate::numbers::sig3;

/// One input's bar: its name and the days at its worse and better ends.
pub struct Swing {
    pub name: String,
    pub worse: f64,
    pub better: f64,
}

/// The tornado of `swings` about `base` days.
pub fn draw_tornado(swings: &[Swing], base: f64, theme: &Theme, size: Size) -> String {
    svg::svg(size, theme, |root| {
        let finite = |x: f64| x.is_finite().then_some(x);
        let ends = swings.iter().flat_map(|s| [finite(s.worse), finite(s.better)]).flatten();
        let (lo, hi) =
            ends.chain([base]).fold((f64::MAX, 0.0f64), |(a, b), x| (a.min(x), b.max(x)));
        let pad = ((hi - lo) * 0.08).max(base.abs() * 0.01).max(1e-9);
        let (lo, hi) = if hi >= lo { ((lo - pad).max(0.0), hi + pad) } else { (0.0, 1.0) };
        let rows = swings.len().max(1) as f64;
        // Two rows' room on top for the legend, then a name a swing.
        let room = [String::new(), String::new()];
        let names: Vec<String> =
            room.into_iter().chain(swings.iter().map(|s| s.name.clone())).collect();
        let mut chart = row_chart(
            root,
            theme,
            (theme.words)("chart.tornado"),
            &names,
            (lo, hi, rows + 2.0),
            (theme.words)("chart.days-with-failures"),
            &|v| sig3(*v),
        )?;
        let (worse_c, better_c) = (theme.alert, theme.palette[3]);
        for (i, s) in swings.iter().enumerate() {
            // The first swing on top, under the legend's room.
            let y = rows - i as f64;
            let clamp = |x: f64| if x.is_finite() { x.clamp(lo, hi) } else { hi };
            for (end, c) in [(s.worse, worse_c), (s.better, better_c)] {
                let (a, b) = (base.min(clamp(end)), base.max(clamp(end)));
                let bar = Rectangle::new([(a, y - 0.8), (b, y - 0.2)], color(c).filled());
                chart.draw_series(std::iter::once(bar))?;
            }
        }
        let line = vec![(base, 0.0), (base, rows + 0.1)];
        chart.draw_series(std::iter::once(PathElement::new(
            line,
            color(theme.foreground).stroke_width(1),
        )))?;
        let legend = [
            ((theme.words)("chart.tornado-worse").to_string(), Mark::Dot, worse_c),
            ((theme.words)("chart.tornado-better").to_string(), Mark::Dot, better_c),
        ];
        legend_box(&chart.plotting_area().strip_coord_spec(), theme, &legend, true)?;
        Ok(())
    })
}
