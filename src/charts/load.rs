//! The network's load tier by tier: a bar a tier of its utilisation over a step (the time the
//! tier is busy over the step), the hottest in the alert colour (`model::network`).

use plotters::prelude::*;

use super::svg::{self, color};
use super::{row_chart, Size, Theme};

/// One tier's bar: its name, utilisation (a share) and whether it is the hottest.
pub struct TierBar {
    pub name: String,
    pub utilisation: f64,
    pub hottest: bool,
}

/// The bars of `tiers`, scale-up on top.
pub fn draw_network(tiers: &[TierBar], theme: &Theme, size: Size) -> String {
    svg::svg(size, theme, |root| {
        let top = tiers.iter().map(|t| t.utilisation).filter(|u| u.is_finite()).fold(0.0, f64::max);
        let limit = (top * 100.0 * 1.15).max(1.0);
        let rows = tiers.len().max(1) as f64;
        let names: Vec<String> = tiers.iter().map(|t| t.name.clone()).collect();
        let tick = |v: &f64| format!("{}%", crate::numbers::sig3(*v));
        let mut chart = row_chart(
            root,
            theme,
            (theme.words)("chart.network-load"),
            &names,
            (0.0, limit, rows),
            (theme.words)("chart.utilisation"),
            &tick,
        )?;
        for (i, t) in tiers.iter().enumerate() {
            let y = rows - i as f64;
            let c = if t.hottest { theme.alert } else { theme.palette[0] };
            let u = (t.utilisation * 100.0).clamp(0.0, limit);
            chart.draw_series(std::iter::once(Rectangle::new(
                [(0.0, y - 0.8), (u, y - 0.2)],
                color(c).filled(),
            )))?;
        }
        Ok(())
    })
}
