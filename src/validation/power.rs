//! Measured system power against the model's: what servers draw per accelerator in training,
//! the part of the site the published energy figures of past runs cover.

use crate::model::facility;
use crate::model::presets;

/// What a measurement covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A calibration run's servers (chips, hosts, memory, NICs, fans) per accelerator over the
    /// run, from the run's own scenario.
    Run(&'static str),
    /// One node of a catalog system with every chip running kernels.
    Node(&'static str),
}

/// A published measurement of system power.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    /// What it is.
    pub name: &'static str,
    /// What it covers.
    pub scope: Scope,
    /// Published power, watts.
    pub published_w: f64,
    /// Allowed relative error.
    pub tolerance: f64,
    /// Where it comes from.
    pub source: &'static str,
    /// Why the model misses it, when it does (the tests check it still does).
    pub known_miss: &'static str,
}

/// Every measurement `docs/accuracy.md` compares. None of them set a figure of the model.
pub const MEASURED: &[Measured] = &[
    Measured {
        name: "GPT-3 175B on 10,000 V100, per accelerator",
        scope: Scope::Run("gpt-3"),
        published_w: 330.0,
        tolerance: 0.1,
        source: "Patterson et al. 2021, arXiv:2104.10350, Table 4: measured system average power per accelerator, including memory, network interface, fans and host CPU (measured by OpenAI)",
        known_miss: "",
    },
    Measured {
        name: "PaLM 540B on 6,144 TPU v4, per chip",
        scope: Scope::Run("palm-540b-v4"),
        published_w: 378.5,
        tolerance: 0.1,
        source: "Chowdhery et al. 2022, PaLM, arXiv:2204.02311, Appendix B (measured system power per TPU v4 chip)",
        known_miss: "the TPU v4 comes in a generic server whose host draws a share of its chips' power (the DGX H100's ratio); a host's CPUs, memory and network cards do not shrink with its chips, so four chips of 192 W leave it too little, and no published TPU v4 host power was found to build its own system from",
    },
    Measured {
        name: "8 x H100 HGX node training Llama 2 13B, peak",
        scope: Scope::Node("dgx-h100"),
        published_w: 8_480.0,
        tolerance: 0.1,
        source: "Latif et al. 2025, arXiv:2412.08602 (IEEE Access 13): measured node power peaks at about 8.4-8.5 kW against its 10.2 kW rating",
        known_miss: "",
    },
];

/// A measurement with the model's figure.
#[derive(Clone, Copy, Debug)]
pub struct PowerOutcome {
    /// The measurement.
    pub measured: Measured,
    /// The model's figure, watts (0 when its scenario does not resolve).
    pub predicted_w: f64,
}

impl PowerOutcome {
    /// `(predicted - published) / published`.
    pub fn error(&self) -> f64 {
        self.predicted_w / self.measured.published_w - 1.0
    }

    /// Within the measurement's tolerance.
    pub fn within(&self) -> bool {
        self.error().abs() <= self.measured.tolerance
    }
}

/// The model's figure for `scope`, watts.
fn predict(scope: Scope) -> Option<f64> {
    match scope {
        Scope::Run(id) => {
            let (_, rows) = super::loaded().as_ref().ok()?;
            let row = rows.iter().find(|r| r.run == id)?;
            let inputs = row.scenario.resolve().ok()?;
            let e = crate::model::estimate(&inputs);
            let p = &e.facility.power;
            Some((p.chips_w + p.hosts_w) / inputs.cluster.n_chips.max(1) as f64)
        }
        Scope::Node(id) => {
            let system = presets::system(id)?;
            let chip = presets::chip(system.chip)?;
            Some(facility::node_training_w(&system.system, chip.chip.tdp_w))
        }
    }
}

/// Every measurement's outcome.
pub fn outcomes() -> Vec<PowerOutcome> {
    MEASURED
        .iter()
        .map(|m| PowerOutcome { measured: *m, predicted_w: predict(m.scope).unwrap_or(0.0) })
        .collect()
}

/// The measurements as a Markdown section of the accuracy report.
pub fn markdown() -> String {
    let list = outcomes();
    let within = list.iter().filter(|o| o.within()).count();
    let mut out = String::from("\n## System power\n\n");
    out.push_str(&format!(
        "Measured server power against the model's chips and hosts (`src/model/facility.rs`), all held out: {within} of {} within tolerance. Published energy figures of past runs count servers only, so switches, optics and storage are left out on both sides.\n\n",
        list.len()
    ));
    out.push_str(
        "| measurement | published | predicted | error | source |\n|---|---:|---:|---:|---|\n",
    );
    for o in &list {
        let m = &o.measured;
        let error = format!("{:+.1}%", o.error() * 100.0);
        out.push_str(&format!(
            "| {} | {} W | {:.0} W | {} | {} |\n",
            m.name,
            m.published_w,
            o.predicted_w,
            if o.within() { error } else { format!("**{error}**") },
            m.source
        ));
    }
    for o in list.iter().filter(|o| !o.measured.known_miss.is_empty()) {
        out.push_str(&format!("\n- **{}**: {}.\n", o.measured.name, o.measured.known_miss));
    }
    out
}
