//! What moves the answer: each uncertain input moved by a stated amount each way, the plan
//! estimated again at both ends, and the change of days with failures and of the run's cost,
//! largest effect on days first.
//!
//! The amounts are how far each assumption is known, not a fit: GEMM efficiency ±20 % (the
//! spread of the fitted efficiencies of one chip class across stacks), the scale-out
//! bandwidth reached ±25 % (NCCL bus bandwidth over line rate runs 0.6 to 0.9 across fabrics),
//! collective latency halved and doubled, each failure class's rate halved and doubled (the
//! Llama 3 and Alibaba HPN counts differ by about that much between fleets), checkpoint
//! bandwidth halved and doubled, PUE ±0.1, hardware price ±20 % and power price ±30 % (quotes
//! and tariffs), and the model's own error range (`validation::range`, passed in as factors
//! of the estimated days).

use crate::model::{estimate, Inputs};

/// An input the sweep moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The share of peak the chip's GEMMs reach (`Chip::matmul_efficiency`).
    GemmEfficiency,
    /// Scale-out bandwidth per chip as reached (`Link::efficiency`).
    ScaleOutBandwidth,
    /// Per-message latency of a scale-out collective step.
    ScaleOutLatency,
    /// Mean time between failures of the accelerators and their HBM.
    ChipMtbf,
    /// Of the hosts.
    HostMtbf,
    /// Of the software stack (job crashes, collective watchdogs).
    SoftwareMtbf,
    /// Of a NIC.
    NicMtbf,
    /// Of a scale-out switch.
    SwitchMtbf,
    /// Of a cable or its optics.
    LinkMtbf,
    /// Checkpoint write bandwidth.
    CheckpointBandwidth,
    Pue,
    /// The price of the systems (chips and their servers).
    HardwarePrice,
    /// The electricity price.
    PowerPrice,
    /// The model's error range on runs like this one.
    ModelError,
}

impl Input {
    /// Every input, in a fixed order (the sweep's before sorting).
    pub const ALL: [Input; 14] = [
        Input::GemmEfficiency,
        Input::ScaleOutBandwidth,
        Input::ScaleOutLatency,
        Input::ChipMtbf,
        Input::HostMtbf,
        Input::SoftwareMtbf,
        Input::NicMtbf,
        Input::SwitchMtbf,
        Input::LinkMtbf,
        Input::CheckpointBandwidth,
        Input::Pue,
        Input::HardwarePrice,
        Input::PowerPrice,
        Input::ModelError,
    ];

    /// Its name in JSON and in the catalogues (`sensitivity.<id>`).
    pub fn id(self) -> &'static str {
        match self {
            Input::GemmEfficiency => "gemm_efficiency",
            Input::ScaleOutBandwidth => "scale_out_bandwidth",
            Input::ScaleOutLatency => "scale_out_latency",
            Input::ChipMtbf => "chip_mtbf",
            Input::HostMtbf => "host_mtbf",
            Input::SoftwareMtbf => "software_mtbf",
            Input::NicMtbf => "nic_mtbf",
            Input::SwitchMtbf => "switch_mtbf",
            Input::LinkMtbf => "link_mtbf",
            Input::CheckpointBandwidth => "checkpoint_bandwidth",
            Input::Pue => "pue",
            Input::HardwarePrice => "hardware_price",
            Input::PowerPrice => "power_price",
            Input::ModelError => "model_error",
        }
    }

    /// How far it is moved each way: factors of its assumed value (PUE: added to it).
    pub fn moves(self) -> (f64, f64) {
        match self {
            Input::GemmEfficiency => (0.8, 1.2),
            Input::HardwarePrice => (1.2, 0.8),
            Input::ScaleOutBandwidth => (0.75, 1.25),
            Input::ScaleOutLatency => (2.0, 0.5),
            Input::ChipMtbf
            | Input::HostMtbf
            | Input::SoftwareMtbf
            | Input::NicMtbf
            | Input::SwitchMtbf
            | Input::LinkMtbf
            | Input::CheckpointBandwidth => (0.5, 2.0),
            Input::Pue => (0.1, -0.1),
            Input::PowerPrice => (1.3, 0.7),
            Input::ModelError => (1.0, 1.0),
        }
    }
}

/// One input moved: its value at each end (in SI units: a share, bytes/s, seconds, hours
/// between failures of one component, USD a node, USD/kWh, or the model's error as a factor
/// of the days) and the plan's days with
/// failures and run cost there; the end that worsens the answer is `low`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    pub input: Input,
    /// The value as assumed.
    pub assumed: f64,
    pub low: f64,
    pub high: f64,
    /// Days with failures at `low` and at `high` (infinite where the run never finishes).
    pub effective_days: (f64, f64),
    /// The run's amortised cost at each end, USD.
    pub cost_usd: (f64, f64),
}

impl Entry {
    /// The larger change of days either way from `base` (infinite where an end never
    /// finishes and the base does).
    pub fn days_effect(&self, base: f64) -> f64 {
        let d = |x: f64| {
            if x.is_finite() && base.is_finite() {
                (x - base).abs()
            } else if x == base {
                0.0
            } else {
                f64::INFINITY
            }
        };
        d(self.effective_days.0).max(d(self.effective_days.1))
    }

    /// The same for cost.
    pub fn cost_effect(&self, base: f64) -> f64 {
        (self.cost_usd.0 - base).abs().max((self.cost_usd.1 - base).abs())
    }
}

/// The sweep: the plan as estimated and each input moved, largest change of days first (of
/// cost where days tie, as for prices).
#[derive(Clone, Debug, PartialEq)]
pub struct Sensitivity {
    pub effective_days: f64,
    pub cost_usd: f64,
    pub deadline_days: Option<f64>,
    pub entries: Vec<Entry>,
}

impl Sensitivity {
    /// The entry that matters most.
    pub fn top(&self) -> Option<&Entry> {
        self.entries.first()
    }
}

/// Days with failures of an estimate, infinite where the run never finishes.
fn days(e: &crate::model::Estimate) -> f64 {
    e.reliability.effective_train_days.filter(|d| d.is_finite()).unwrap_or(f64::INFINITY)
}

/// The value of `input` in `inputs` (SI units; MTBF in hours of one component of its class).
fn value(inputs: &Inputs, input: Input) -> f64 {
    let r = &inputs.reliability.rates;
    let mtbf = |per_hour: f64| if per_hour > 0.0 { 1.0 / per_hour } else { f64::INFINITY };
    match input {
        Input::GemmEfficiency => inputs.cluster.chip.matmul_efficiency,
        Input::ScaleOutBandwidth => inputs.cluster.scale_out.achievable_bytes_per_s(),
        Input::ScaleOutLatency => inputs.cluster.scale_out.latency_s,
        Input::ChipMtbf => mtbf(r.chip + r.hbm),
        Input::HostMtbf => mtbf(r.host),
        Input::SoftwareMtbf => mtbf(r.software),
        Input::NicMtbf => mtbf(r.nic),
        Input::SwitchMtbf => mtbf(r.switch),
        Input::LinkMtbf => mtbf(r.link),
        Input::CheckpointBandwidth => inputs.reliability.storage_bytes_per_s,
        Input::Pue => inputs.plant.facility.pue,
        Input::HardwarePrice => inputs.plant.system.node_price_usd,
        Input::PowerPrice => inputs.plant.facility.usd_per_kwh,
        Input::ModelError => 1.0,
    }
}

/// `inputs` with `input` moved by `by` (a factor, or PUE's step).
fn moved(inputs: &Inputs, input: Input, by: f64) -> Inputs {
    let mut i = *inputs;
    let rates = &mut i.reliability.rates;
    // A mean time between failures `by` times as long: its rate divided by `by`.
    let per = 1.0 / by;
    match input {
        Input::GemmEfficiency => {
            let e = &mut i.cluster.chip.matmul_efficiency;
            *e = (*e * by).clamp(0.01, 1.0);
        }
        Input::ScaleOutBandwidth => {
            let e = &mut i.cluster.scale_out.efficiency;
            *e = (*e * by).clamp(0.01, 1.0);
        }
        Input::ScaleOutLatency => i.cluster.scale_out.latency_s *= by,
        Input::ChipMtbf => {
            rates.chip *= per;
            rates.hbm *= per;
        }
        Input::HostMtbf => rates.host *= per,
        Input::SoftwareMtbf => rates.software *= per,
        Input::NicMtbf => rates.nic *= per,
        Input::SwitchMtbf => rates.switch *= per,
        Input::LinkMtbf => rates.link *= per,
        Input::CheckpointBandwidth => i.reliability.storage_bytes_per_s *= by,
        Input::Pue => i.plant.facility.pue = (i.plant.facility.pue + by).max(1.0),
        Input::HardwarePrice => i.plant.system.node_price_usd *= by,
        Input::PowerPrice => i.plant.facility.usd_per_kwh *= by,
        Input::ModelError => {}
    }
    i
}

/// The sweep of `inputs` (estimated as `base`), with the model's error range on days as
/// factors `error` (low, high) of the estimated days.
pub fn sensitivity(
    inputs: &Inputs,
    base: &crate::model::Estimate,
    error: (f64, f64),
) -> Sensitivity {
    let (base_days, base_cost) = (days(base), base.facility.cost.run_amortized_usd);
    let mut entries: Vec<Entry> = Input::ALL
        .into_iter()
        .map(|input| {
            if input == Input::ModelError {
                // The cost of a run scales with its days at the same power.
                let (lo, hi) = (error.1.max(error.0), error.0.min(error.1));
                return Entry {
                    input,
                    assumed: 1.0,
                    low: lo,
                    high: hi,
                    effective_days: (base_days * lo, base_days * hi),
                    cost_usd: (base_cost * lo, base_cost * hi),
                };
            }
            let (a, b) = input.moves();
            let at = |by: f64| {
                let i = moved(inputs, input, by);
                let e = estimate(&i);
                (value(&i, input), days(&e), e.facility.cost.run_amortized_usd)
            };
            let ((low, d_a, c_a), (high, d_b, c_b)) = (at(a), at(b));
            Entry {
                input,
                assumed: value(inputs, input),
                low,
                high,
                effective_days: (d_a, d_b),
                cost_usd: (c_a, c_b),
            }
        })
        .collect();
    entries.sort_by(|x, y| {
        let days = y.days_effect(base_days).total_cmp(&x.days_effect(base_days));
        days.then(y.cost_effect(base_cost).total_cmp(&x.cost_effect(base_cost)))
    });
    Sensitivity {
        effective_days: base_days,
        cost_usd: base_cost,
        deadline_days: inputs.reliability.deadline_days,
        entries,
    }
}
