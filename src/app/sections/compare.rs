//! Plan A against plan B: every headline figure, step part and bill-of-materials count side
//! by side with B's change against A (`compare`, which the page runs as it lays the table
//! out), and, drawn in the worker, their steps side by side and their days against chip
//! count, as pictures under the table.

use super::plots::scaling;
use crate::app::{Line, Picture, View};
use crate::charts;
use crate::model::sweep::ScalingPoint;
use crate::model::{Estimate, StepBreakdown};
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

/// What a figure of the comparison is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    TrainDays,
    /// Days with failures; a run that never finishes takes forever, and the page words it so.
    EffectiveDays,
    Mfu,
    Step,
    Memory,
    Chips,
    Power,
    Capex,
    RunCost,
    Energy,
    /// A part of the step, by its id (`bubble`, `dp_exposed`).
    Part(&'static str),
    Nodes,
    Racks,
    Switches,
    Transceivers,
}

/// How a figure's values read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    Days,
    Share,
    Seconds,
    Bytes,
    Count,
    Watts,
    /// US dollars, shown in the side's own currency.
    Money,
    MegawattHours,
}

impl Figure {
    /// Its label's key in the page's words; a step part is worded by its id.
    pub fn label(self) -> &'static str {
        match self {
            Figure::TrainDays => "compare.train-days",
            Figure::EffectiveDays => "compare.effective-days",
            Figure::Mfu => "compare.mfu",
            Figure::Step => "compare.step",
            Figure::Memory => "compare.memory",
            Figure::Chips => "compare.chips",
            Figure::Power => "compare.power",
            Figure::Capex => "compare.capex",
            Figure::RunCost => "compare.run-cost",
            Figure::Energy => "compare.energy",
            Figure::Part(id) => id,
            Figure::Nodes => "part.nodes",
            Figure::Racks => "part.racks",
            Figure::Switches => "compare.switches",
            Figure::Transceivers => "part.transceivers",
        }
    }

    /// How its values read.
    pub fn measure(self) -> Measure {
        match self {
            Figure::TrainDays | Figure::EffectiveDays => Measure::Days,
            Figure::Mfu => Measure::Share,
            Figure::Step | Figure::Part(_) => Measure::Seconds,
            Figure::Memory => Measure::Bytes,
            Figure::Chips
            | Figure::Nodes
            | Figure::Racks
            | Figure::Switches
            | Figure::Transceivers => Measure::Count,
            Figure::Power => Measure::Watts,
            Figure::Capex | Figure::RunCost => Measure::Money,
            Figure::Energy => Measure::MegawattHours,
        }
    }

    /// Whether less of it is better for the same work (days, time, cost, energy, power), more
    /// (MFU), or neither (how much is built and how much memory is used are what the plan
    /// needs, not a score).
    pub fn less_is_better(self) -> Option<bool> {
        match self {
            Figure::Mfu => Some(false),
            Figure::Memory
            | Figure::Chips
            | Figure::Nodes
            | Figure::Racks
            | Figure::Switches
            | Figure::Transceivers => None,
            _ => Some(true),
        }
    }

    /// A count of the bill of materials, which the comparison sets apart.
    pub fn built(self) -> bool {
        matches!(self, Figure::Nodes | Figure::Racks | Figure::Switches | Figure::Transceivers)
    }

    /// Its value in an estimate.
    fn of(self, e: &Estimate) -> f64 {
        let bom = &e.facility.bom;
        match self {
            Figure::TrainDays => e.train_days,
            Figure::EffectiveDays => e.effective_train_days().unwrap_or(f64::INFINITY),
            Figure::Mfu => e.mfu,
            Figure::Step => e.step_s,
            Figure::Memory => e.memory.peak_bytes,
            Figure::Chips => e.chips_used as f64,
            Figure::Power => e.facility.power.facility_w,
            Figure::Capex => e.facility.cost.capex_usd,
            Figure::RunCost => e.facility.cost.run_amortized_usd,
            Figure::Energy => e.facility.energy_mwh,
            Figure::Part(id) => {
                e.breakdown.parts().into_iter().find(|(p, _)| *p == id).map_or(0.0, |(_, s)| s)
            }
            Figure::Nodes => bom.nodes as f64,
            Figure::Racks => bom.racks as f64,
            Figure::Switches => bom.switches() as f64,
            Figure::Transceivers => bom.transceivers as f64,
        }
    }

    /// Every figure the comparison shows, in its order: the headline, the step's parts, the
    /// bill of materials.
    pub fn all() -> Vec<Figure> {
        use Figure::*;
        let head =
            [TrainDays, EffectiveDays, Mfu, Step, Memory, Chips, Power, Capex, RunCost, Energy];
        let parts = StepBreakdown::default().parts().map(|(id, _)| Part(id));
        head.into_iter().chain(parts).chain([Nodes, Racks, Switches, Transceivers]).collect()
    }
}

/// One figure of a comparison: side A's, side B's, and B's change relative to A.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    pub figure: Figure,
    /// Side A's value.
    pub a: f64,
    /// Side B's value.
    pub b: f64,
    /// `(b - a) / a`; zero when A is zero.
    pub change: f64,
}

impl Difference {
    /// Whether B reads better than A (`Some(true)`), worse, or neither: the same to a twentieth
    /// of a percent, a figure that is no score, or one A lacks.
    pub fn better(&self) -> Option<bool> {
        let less = self.figure.less_is_better()?;
        if self.a == 0.0 || self.change.abs() < 0.0005 || self.a == self.b {
            return None;
        }
        Some((self.b < self.a) == less)
    }

    /// The change in percentage points, for a figure that is itself a share (MFU): 40 % to
    /// 44 % is 4 points, not 10 %.
    pub fn points(&self) -> Option<f64> {
        (self.figure.measure() == Measure::Share).then_some(100.0 * (self.b - self.a))
    }
}

/// The headline figures, step parts and bill of materials of two estimates, side by side.
pub fn compare(a: &Estimate, b: &Estimate) -> Vec<Difference> {
    Figure::all()
        .into_iter()
        .map(|figure| {
            let (a, b) = (figure.of(a), figure.of(b));
            let change = if a != 0.0 { crate::model::finite((b - a) / a) } else { 0.0 };
            Difference { figure, a, b, change }
        })
        .collect()
}
