//! The facility panel: cooling, PUE, rack limit, prices, and failures and checkpoints.

use yew::prelude::*;

use super::{Form, PanelProps};

/// The site: cooling, PUE, rack limit and prices.
pub fn facility_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let site = f.good.map(|g| g.inputs.plant.facility);
    let rel = f.good.map(|g| g.inputs.reliability);
    let checkpoint = match rel.map(|r| r.checkpoint) {
        Some(crate::model::reliability::Checkpoint::Sync) => "sync",
        Some(crate::model::reliability::Checkpoint::InMemory) => "in-memory",
        _ => "async",
    };
    let cooling = match site.map(|s| s.cooling) {
        Some(crate::model::facility::Cooling::Liquid) => "liquid",
        Some(crate::model::facility::Cooling::Hybrid) => "hybrid",
        _ => "air",
    };
    html! {
        <section class="panel">
            <h2>{ crate::text::t("form.facility") }</h2>
            { f.choice("facility.cooling", "cooling", &["air", "liquid", "hybrid"], cooling) }
            <div class="grid">
                { f.render(f.number("facility.pue", "pue", site.map(|s| s.pue))) }
                { f.render(f.number("facility.rack_kw", "rack-kw", site.map(|s| s.rack_w / 1000.0))) }
                { f.render(f.number("facility.usd_per_kwh", "usd-per-kwh", site.map(|s| s.usd_per_kwh))) }
                { f.render(f.number("facility.cloud_usd_per_chip_hour", "cloud-price", site.map(|s| s.cloud_usd_per_chip_hour))) }
                { f.render(f.number("facility.amortization_years", "amortization", site.map(|s| s.amortization_years))) }
                { f.render(f.number("facility.kg_co2_per_kwh", "co2", site.map(|s| s.kg_co2_per_kwh))) }
            </div>
            <h2>{ crate::text::t("form.failures") }</h2>
            { f.choice("reliability.checkpoint", "checkpoint", &["async", "sync", "in-memory"], checkpoint) }
            <div class="grid">
                { f.render(f.number("reliability.storage_gb_per_s", "storage", rel.map(|r| r.storage_bytes_per_s / 1e9))) }
                { f.render(f.number("reliability.restart_min", "restart", rel.map(|r| r.restart_s / 60.0))) }
            </div>
        </section>
    }
}
