//! The days with failures as a distribution, under the delivered cards: the percentiles of
//! the simulated runs (`evaluation::failures`), the chance of meeting the deadline, and the
//! chance of finishing by each day drawn (`charts::draw_failures`).

use serde::{Deserialize, Serialize};

use crate::charts;

/// The days with failures as a distribution: its percentiles, the chance of meeting the
/// deadline, in words, and drawn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Failures {
    pub p10_days: Option<f64>,
    pub p50_days: Option<f64>,
    pub p90_days: Option<f64>,
    pub deadline_chance: Option<f64>,
    pub said: String,
    pub deadline: Option<String>,
    /// The chance of finishing by each day, an SVG document.
    pub svg: String,
}

/// A figure JSON would carry: finite, else none.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// The days with failures as a distribution, worded and drawn: its percentiles, the chance of
/// meeting the deadline, and the chance of finishing by each day (`charts::draw_failures`).
pub fn drawn(
    good: &crate::evaluation::Evaluation,
    theme: &charts::Theme,
    width: u32,
) -> Option<Failures> {
    let spread = crate::evaluation::failures(good);
    // A run that never finishes has no spread to show; its problem says so.
    if spread.trials == 0 {
        return None;
    }
    let free = good.estimate.train_days;
    let deadline = good.inputs.reliability.deadline_days;
    let days = |d: f64| crate::numbers::sig3(d);
    let said = crate::text::fill(
        "failures.spread",
        &[
            ("runs", &crate::numbers::format(spread.trials as f64)),
            ("p10", &days(spread.p10_days)),
            ("p50", &days(spread.p50_days)),
            ("p90", &days(spread.p90_days)),
        ],
    );
    // Where the simulation had to stop early, the answer says so.
    let mut bounded = Vec::new();
    if spread.fewer_runs {
        let all = crate::numbers::format(crate::model::failures::TRIALS as f64);
        bounded.push(crate::text::fill("failures.fewer-runs", &[("all", &all)]));
    }
    if spread.cut_short > 0 {
        let events = crate::numbers::format(crate::model::failures::MAX_EVENTS as f64);
        let n = crate::numbers::format(spread.cut_short as f64);
        bounded.push(crate::text::fill("failures.cut-short", &[("n", &n), ("events", &events)]));
    }
    let said = [said].into_iter().chain(bounded).collect::<Vec<_>>().join(" ");
    let key = match good.inputs.reliability.confidence {
        crate::model::Confidence::Central => "failures.deadline",
        crate::model::Confidence::P90 => "failures.deadline-p90",
    };
    let deadline_said = deadline.zip(spread.deadline_chance).map(|(d, chance)| {
        crate::text::fill(key, &[("days", &days(d)), ("chance", &crate::format::percent(chance))])
    });
    Some(Failures {
        p10_days: finite(spread.p10_days),
        p50_days: finite(spread.p50_days),
        p90_days: finite(spread.p90_days),
        deadline_chance: spread.deadline_chance.and_then(finite),
        said,
        deadline: deadline_said,
        svg: charts::draw_failures(&spread, free, deadline, theme, (width, 300)),
    })
}
