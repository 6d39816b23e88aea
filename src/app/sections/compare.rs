//! Plan A against plan B, drawn in the worker: their steps side by side and their days
//! against chip count, as pictures the page lays out under the comparison's table.

use super::plots::scaling;
use crate::app::{Line, Picture, View};
use crate::charts;
use crate::model::sweep::ScalingPoint;
use crate::scenario::Scenario;

/// Plan A against plan B: the step and the scaling plots as SVG documents, or why not.
pub type Compared = Result<(String, String), &'static str>;

/// Plan A against plan B: the step and the scaling plots as SVG documents.
pub fn drawn(a_scenario: &Scenario, b_scenario: &Scenario, dark: bool) -> Compared {
    // Each side as the page shows it (`evaluation::shown`).
    let (Ok(a), Ok(b)) =
        (crate::evaluation::shown(a_scenario), crate::evaluation::shown(b_scenario))
    else {
        return Err("a plan of the comparison does not resolve");
    };
    let (a, b) = (a.good, b.good);
    let current =
        |g: &crate::evaluation::Evaluation| ScalingPoint::of(g.inputs.cluster.n_chips, &g.estimate);
    let (now_a, now_b) = (current(&a), current(&b));
    let (scaling_a, scaling_b) = (scaling(&a.inputs), scaling(&b.inputs));
    let theme = if dark { charts::DARK } else { charts::LIGHT };
    let (name_a, name_b) =
        (crate::app::words::plan_short(a_scenario), crate::app::words::plan_short(b_scenario));
    let names = [name_a.as_str(), name_b.as_str()];
    Ok((
        charts::draw_compare_step(&a.estimate, &b.estimate, names, &theme, (960, 300)),
        charts::draw_compare_scaling(
            (&scaling_a, &now_a),
            (&scaling_b, &now_b),
            names,
            &theme,
            (960, 380),
        ),
    ))
}

/// Plan A against plan B as the page shows it: each drawing as a picture (`compare-step`,
/// `compare-scaling`), or why they could not be drawn.
pub fn view(drawn: &Compared) -> View {
    match drawn {
        Ok((step, scaling)) => View {
            pictures: vec![
                Picture::svg("compare-step", step),
                Picture::svg("compare-scaling", scaling),
            ],
            ..View::default()
        },
        Err(why) => View::said(vec![Line::new("compare-error", why.to_string(), true)]),
    }
}
