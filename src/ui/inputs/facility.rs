//! The facility panel: cooling, PUE, rack limit, prices, and failures and checkpoints.

use yew::prelude::*;

use super::{Form, PanelProps};
use crate::model::facility::{Cooling, Currency};
use crate::model::reliability::{Checkpoint, Confidence, Recovery};
use crate::scenario::fields;

/// The site: cooling, PUE, rack limit and prices.
pub fn facility_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let site = f.good.map(|g| g.inputs.plant.facility);
    let rel = f.good.map(|g| g.inputs.reliability);
    let checkpoint = rel.map_or(Checkpoint::Async, |r| r.checkpoint);
    let recovery = rel.map_or(Recovery::Spare, |r| r.recovery);
    let confidence = rel.map_or(Confidence::Central, |r| r.confidence);
    let cooling = site.map_or(Cooling::Air, |s| s.cooling);
    let currency = site.map_or(Currency::Usd, |s| s.currency);
    html! {
        <section class="panel">
            <h2>{ crate::text::t("form.facility") }</h2>
            { f.choice(&fields::FACILITY_COOLING, "cooling", cooling) }
            <div class="grid">
                { f.render(f.number(&fields::FACILITY_PUE, "pue", site.map(|s| s.pue))) }
                { f.render(f.number(&fields::FACILITY_BUILT_YEAR, "built-year", Some(fields::FACILITY_BUILT_YEAR.fixed()))) }
                { f.render(f.number(&fields::FACILITY_RACK_KW, "rack-kw", site.map(|s| s.rack_w))) }
                { f.render(f.number(&fields::FACILITY_INLET_C, "inlet-c", site.map(|s| s.inlet_c))) }
                { f.plain("facility") }
            </div>
            { f.choice(&fields::FACILITY_CURRENCY, "currency", currency) }
            <div class="grid">
                { f.render(f.number(&fields::FACILITY_USD_TO_CNY, "usd-to-cny", site.map(|s| s.usd_to_cny))) }
            </div>
            <h2>{ crate::text::t("form.failures") }</h2>
            { f.choice(&fields::RELIABILITY_CHECKPOINT, "checkpoint", checkpoint) }
            { f.choice(&fields::RELIABILITY_RECOVERY, "recovery", recovery) }
            { f.choice(&fields::SIZING_CONFIDENCE, "sizing-confidence", confidence) }
            <div class="grid">
                { f.render(f.number(&fields::RELIABILITY_STORAGE_GB_PER_S, "storage", rel.map(|r| r.storage_bytes_per_s))) }
                { f.plain("reliability") }
                { f.render(f.number(&fields::RELIABILITY_REPAIR_H, "repair-h", rel.map(|r| r.repair_s))) }
                { f.render(f.number(&fields::RELIABILITY_SPARE_NODES, "spare-nodes", rel.and_then(|r| r.spare_nodes).map(f64::from))) }
                { f.render(f.number(&fields::RELIABILITY_DEADLINE_DAYS, "deadline-days", rel.and_then(|r| r.deadline_days))) }
            </div>
            { failure_rates(&f, rel) }
        </section>
    }
}

/// Your own failure rates, one a part, folded away unless one is typed or the chip's are
/// borrowed from another fleet (which the finding beside the accelerators' rate says).
fn failure_rates(f: &Form, rel: Option<crate::model::Reliability>) -> Html {
    let rates = rel.map(|r| r.rates);
    let fields = [
        (&fields::RELIABILITY_RATES_CHIP, "rate-chip", rates.map(|r| r.chip)),
        (&fields::RELIABILITY_RATES_HBM, "rate-hbm", rates.map(|r| r.hbm)),
        (&fields::RELIABILITY_RATES_HOST, "rate-host", rates.map(|r| r.host)),
        (&fields::RELIABILITY_RATES_SOFTWARE, "rate-software", rates.map(|r| r.software)),
        (&fields::RELIABILITY_RATES_NIC, "rate-nic", rates.map(|r| r.nic)),
        (&fields::RELIABILITY_RATES_SWITCH, "rate-switch", rates.map(|r| r.switch)),
        (&fields::RELIABILITY_RATES_LINK, "rate-link", rates.map(|r| r.link)),
    ];
    let typed = fields.iter().any(|(field, _, _)| f.raw(*field).is_some());
    let open = typed || rel.is_some_and(|r| r.rates_borrowed);
    html! {
        <details class="more" data-testid="failure-rates" {open}>
            <summary>{ crate::text::t("form.failure-rates") }</summary>
            <div class="grid">
                { for fields.into_iter().map(|(field, testid, resolved)| f.render(f.number(field, testid, resolved))) }
            </div>
        </details>
    }
}
