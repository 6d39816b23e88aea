//! The site as it must be built and as it runs, under the site's cards: the power provisioned
//! for the peak beside the average, racks and cooling designed for it, the swing of the draw
//! each step, and the checkpoint storage. Words only; the figures are the facility estimate's.

use yew::prelude::*;

use super::state::Evaluation;
use crate::format;
use crate::text::fill;

/// Three lines: provisioned power and the design, the swing, the storage.
pub fn site_design(good: &Evaluation) -> Html {
    let f = &good.estimate.facility;
    let (p, d, s, c) = (&f.power, &f.design, &f.storage, &f.cooling);
    let mw = |w: f64| format::sig3(w / 1e6);
    let kw = |w: f64| format::sig3(w / 1e3);
    let pue = format::sig3(good.inputs.plant.facility.pue);
    let provisioned = fill(
        "site.provisioned",
        &[
            ("mw", &mw(d.provisioned_w)),
            ("it", &mw(p.peak_it_w)),
            ("pue", &pue),
            ("avg", &mw(p.facility_w)),
            ("rack", &kw(d.rack_w)),
            ("load", &kw(c.rack_w)),
            ("tons", &format::count(d.refrigeration_tons)),
            ("avg_tons", &format::count(c.refrigeration_tons)),
        ],
    );
    let period = format::seconds(d.swing_period_s);
    let swing = if d.floor_w > 0.0 {
        fill(
            "site.swing-floor",
            &[("mw", &mw(d.swing_w)), ("period", &period), ("floor", &mw(d.floor_w))],
        )
    } else {
        fill("site.swing", &[("mw", &mw(d.swing_w)), ("period", &period)])
    };
    let storage = fill(
        "site.storage",
        &[
            ("nodes", &crate::numbers::format(s.nodes as f64)),
            ("pb", &format::sig3(s.capacity_bytes / 1e15)),
            ("kept", &crate::numbers::hint(good.inputs.plant.facility.checkpoints_kept)),
            ("gbs", &format::count(s.bytes_per_s / 1e9)),
            ("kw", &kw(s.power_w)),
            ("usd", &format::Money::of(&good.inputs.plant.facility).show(s.cost_usd)),
        ],
    );
    html! {
        <div class="time-lost site-design" data-testid="site-design">
            <span data-testid="provisioned">{ provisioned }</span><br />
            <span data-testid="power-swing">{ swing }</span><br />
            <span data-testid="site-storage">{ storage }</span>
        </div>
    }
}
