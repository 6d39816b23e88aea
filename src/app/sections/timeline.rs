//! The step as a Gantt drawing of its pipeline stages (`charts::draw_timeline`): the first
//! and last passes of each stage it can make out, and the steady state between them as one
//! bar. The page saves the whole step as a Chrome trace from the same estimate.

use serde::Serialize;

use crate::charts;
use crate::evaluation::Evaluation;

/// The step drawn, an SVG document; on the wire, the document alone.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Timeline {
    pub svg: String,
}

impl Timeline {
    /// The step of `good`, `width` pixels wide.
    pub fn of(good: &Evaluation, theme: &charts::Theme, width: u32) -> Timeline {
        let p = &good.inputs.parallelism;
        let events = crate::model::timeline::summarised(
            &good.estimate,
            p.pipeline,
            p.virtual_stages,
            charts::TIMELINE_PASSES,
            Some(&charts::timeline_rows(p.pipeline)),
        );
        let size = (width, charts::Kind::Timeline.height());
        let svg = charts::draw_timeline(&events, p.pipeline, good.estimate.step_s, theme, size);
        Timeline { svg }
    }
}
