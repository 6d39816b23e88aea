//! The answer's sections, each under one name in every layer: `app::sections::X` words and
//! draws it in the worker from the typed results, `ui::sections::X` lays it out. The sections
//! a plan shows on every edit travel together as `Drawn`, one typed field each; a search, a
//! sizing, the accuracy report, a comparison and a launch are jobs of their own, each a
//! `View`.

pub mod accuracy;
pub mod compare;
pub mod failures;
pub mod fleet;
pub mod insight;
pub mod launch;
pub mod plots;
pub mod search;
pub mod serving;
pub mod sizing;
pub mod timeline;
pub mod year;

use serde::Serialize;

use crate::app::bricks::scenario_json_or_none;
use crate::charts;
use crate::scenario::Scenario;

/// The per-edit result: every section of a plan drawn `width` pixels wide, or why none could
/// be.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Drawn {
    /// The scenario they were drawn for, as the page sent it: the page shows them as its
    /// plan's only while it is the same.
    #[serde(serialize_with = "scenario_json_or_none::serialize")]
    pub scenario: Option<Box<Scenario>>,
    pub plots: plots::Plots,
    /// The cluster drawn, an SVG document, where its fabric builds.
    pub sketch: Option<String>,
    pub timeline: timeline::Timeline,
    pub insights: insight::Insights,
    /// Serving and post-training, where the plan asks.
    pub served: Option<serving::Served>,
    /// The fleet, for several pools or sites.
    pub fleet: Option<fleet::Fleet>,
    /// The days with failures, for a run that finishes.
    pub failures: Option<failures::Failures>,
    /// The cluster's year, where the plan has one.
    pub year: Option<year::Year>,
    pub error: Option<String>,
}

impl Drawn {
    /// Every section of `typed` as the page shows it: refused inputs set aside and a chip
    /// count the plan does not divide taken with chips idle (`evaluation::shown`).
    pub fn of(typed: &Scenario, theme: &charts::Theme, width: u32) -> Drawn {
        let drawn_for = Some(Box::new(typed.clone()));
        let Ok(crate::evaluation::Shown { good, estimated, .. }) = crate::evaluation::shown(typed)
        else {
            let error = Some("the plan does not resolve".into());
            return Drawn { scenario: drawn_for, error, ..Drawn::default() };
        };
        let scenario = &estimated;
        let width = width.clamp(200, 4000);
        let served = crate::evaluation::serve(&good);
        let sketch = crate::sketch::sketch(&good.inputs, &good.estimate).map(|s| {
            let layout = crate::sketch::layout(&s, &crate::app::words::sketch_words());
            charts::draw_sketch(&layout, theme)
        });
        Drawn {
            scenario: drawn_for,
            plots: plots::Plots::of(&good, theme, width),
            sketch,
            timeline: timeline::Timeline::of(&good, theme, width),
            insights: insight::Insights::of(scenario, &good, theme, width),
            served: serving::Served::of(scenario, &good, &served, theme, width),
            fleet: fleet::view(scenario, &good, theme, width),
            failures: failures::drawn(&good, theme, width),
            year: year::drawn(typed, theme, width),
            error: None,
        }
    }
}
