//! The plan's plots against its estimate (`charts::Kind::ALL`: the step, memory, days and MFU
//! against chip count, power, cost, the site against chip count, effective compute), each an
//! SVG document drawn as wide as the page's column, and the sweep over chip counts the curves
//! are drawn from.

use serde::Serialize;

use crate::charts::{self, Kind};
use crate::evaluation::Evaluation;
use crate::model::sweep::{self, ScalingPoint};
use crate::model::Inputs;

/// Every plot of `charts::Kind::ALL` that was drawn, by its kind; on the wire, the list alone.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Plots {
    #[serde(serialize_with = "by_id")]
    pub drawn: Vec<(Kind, String)>,
}

/// The plots as the wire carries them: each as its kind's id and its document
/// (`app::wire::read_drawn` reads them back).
fn by_id<S: serde::Serializer>(drawn: &[(Kind, String)], to: S) -> Result<S::Ok, S::Error> {
    to.collect_seq(drawn.iter().map(|(kind, svg)| (kind.id(), svg)))
}

impl Plots {
    /// Every plot of `good`, `width` pixels wide.
    pub fn of(good: &Evaluation, theme: &charts::Theme, width: u32) -> Plots {
        let chips = good.inputs.cluster.n_chips;
        let money = crate::format::Money::of(&good.inputs.plant.facility);
        let scaling = scaling(&good.inputs);
        Plots { drawn: charts::draw_all(&good.estimate, &scaling, chips, money, theme, width) }
    }

    /// The plot of `kind`, an SVG document.
    pub fn get(&self, kind: Kind) -> Option<&str> {
        self.drawn.iter().find(|(k, _)| *k == kind).map(|(_, svg)| svg.as_str())
    }
}

/// The plan of `inputs` at the sizes its plots sweep; the fabric is rebuilt at each size, so
/// power and cost scale with what is bought.
pub fn scaling(inputs: &Inputs) -> Vec<ScalingPoint> {
    crate::fabric::scaling(inputs, &sweep::default_chip_counts())
}
