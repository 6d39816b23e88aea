//! The site as it must be built, beside the average it runs at: power provisioned for every
//! node at its measured peak in training where one is published, else at its supplies'
//! maximum, racks and the cooling plant designed for the same peak, the swing of
//! the whole site's draw each step, and the storage that holds the checkpoints.
//!
//! Each step every rank computes, then waits on the network together, so the site's draw rises
//! and falls in lockstep: accelerators draw near their TDP in the compute phase and near idle
//! while they communicate (Choukse et al. 2025, arXiv:2508.14318, §II-C), at the step's period.
//! A power floor (GB200/GB300 power smoothing's minimum power, at most 90 % of TDP; same paper,
//! §IV-B) holds the trough up and pays for it in energy.

use super::{Facility, Power, REFRIGERATION_TON_W};

/// Time an accelerator takes to follow its load down or up, seconds: GPUs may exceed TDP for
/// peaks of about 50 ms and hold it over a second (the same paper, §II-C), so a wait shorter
/// than this shows only in part at the site.
pub const POWER_RESPONSE_S: f64 = 0.05;

/// Write rate of one storage node, bytes/s: a DDN AI400X2 appliance writes 65 GB/s and reads
/// 90 GB/s (DDN datasheet, as quoted by DDN's reference designs for DGX SuperPOD).
pub const STORAGE_NODE_WRITE_BYTES_PER_S: f64 = 65e9;

/// Usable capacity of one storage node, bytes: the AI400X2's largest all-flash option, 500 TB.
pub const STORAGE_NODE_BYTES: f64 = 500e12;

/// Power of one storage node, watts: an AI400X2 draws about 2.2 kW (2U appliance).
pub const STORAGE_NODE_W: f64 = 2_200.0;

/// Bytes a token of the training data takes on storage: Megatron-LM's indexed datasets keep
/// token ids as 32-bit integers for vocabularies above 65,535 (`megatron/core/datasets/
/// indexed_dataset.py`).
pub const DATASET_BYTES_PER_TOKEN: f64 = 4.0;

/// The peak the site is designed for and the swing it runs with.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Design {
    /// What the utility contract and the electrical plant must carry: IT with every node at
    /// what it is provisioned for (`System::provisioned_w`), storage included, at the site's
    /// PUE, watts.
    pub provisioned_w: f64,
    /// One rack as designed: its nodes at their maximum and its scale-up switch trays, watts.
    pub rack_w: f64,
    /// Cooling plant for the peak heat, refrigeration tons.
    pub refrigeration_tons: f64,
    /// Coolant flow for the peak liquid heat, litres per minute.
    pub coolant_l_per_min: f64,
    /// Peak-to-trough of the site's IT draw within one step, watts.
    pub swing_w: f64,
    /// Period of the swing: one step, seconds.
    pub swing_period_s: f64,
    /// What the power floor adds to the accelerators' average draw, watts.
    pub floor_w: f64,
}

/// Storage for the checkpoints kept and the training data, written at the scenario's rate.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Storage {
    /// Checkpoints kept and the tokenised training data, bytes.
    pub capacity_bytes: f64,
    /// Aggregate write rate, bytes/s.
    pub bytes_per_s: f64,
    /// Storage nodes for that rate and capacity.
    pub nodes: u64,
    /// Their power, watts.
    pub power_w: f64,
    /// Their price, USD.
    pub cost_usd: f64,
}

/// An accelerator's draw at the top and the bottom of a step: running while in kernels, idle
/// (or the power floor, if higher) while it waits.
pub(super) fn chip_levels(running_w: f64, idle_w: f64, tdp_w: f64, f: &Facility) -> (f64, f64) {
    let floor = (f.power_floor.clamp(0.0, 1.0) * tdp_w).max(idle_w).min(running_w.max(idle_w));
    (running_w, floor)
}

/// Storage sized for `bytes_per_s` of writes and the checkpoints kept (`checkpoint_bytes`
/// each) beside `tokens` of training data.
pub fn storage(f: &Facility, bytes_per_s: f64, checkpoint_bytes: f64, tokens: f64) -> Storage {
    let kept = f.checkpoints_kept.max(1.0);
    let capacity_bytes =
        checkpoint_bytes.max(0.0) * kept + tokens.max(0.0) * DATASET_BYTES_PER_TOKEN;
    let by_rate = (bytes_per_s.max(0.0) / STORAGE_NODE_WRITE_BYTES_PER_S).ceil();
    let by_capacity = (capacity_bytes / STORAGE_NODE_BYTES).ceil();
    let nodes = by_rate.max(by_capacity).max(1.0);
    Storage {
        capacity_bytes,
        bytes_per_s,
        nodes: nodes as u64,
        power_w: nodes * STORAGE_NODE_W,
        cost_usd: nodes * f.storage_node_usd,
    }
}

/// How the accelerators' draw moves within a step.
pub(super) struct Swing {
    /// Chips the plan runs on.
    pub chips: f64,
    /// Each one's fall from its running draw to its trough, watts.
    pub per_chip_w: f64,
    /// Share of the step in kernels, and the step, seconds.
    pub busy: f64,
    pub step_s: f64,
    /// What the power floor adds to the average draw, watts.
    pub floor_w: f64,
}

/// The design peak and the swing, from the power at training load and at every supply's
/// maximum, a rack as designed, the liquid share of the peak heat, and the step's swing.
pub(super) fn design(
    f: &Facility,
    power: &Power,
    rack_w: f64,
    liquid_share: f64,
    swing: &Swing,
) -> Design {
    let peak_it = power.peak_it_w;
    let peak_liquid = peak_it * liquid_share.clamp(0.0, 1.0);
    let step_s = swing.step_s.max(0.0);
    let waiting_s = (1.0 - swing.busy.clamp(0.0, 1.0)) * step_s;
    let seen = (waiting_s / POWER_RESPONSE_S).min(1.0);
    Design {
        provisioned_w: peak_it * f.pue.max(1.0),
        rack_w,
        refrigeration_tons: peak_it / REFRIGERATION_TON_W,
        coolant_l_per_min: super::coolant_l_per_min(peak_liquid),
        swing_w: swing.chips * swing.per_chip_w.max(0.0) * seen,
        swing_period_s: step_s,
        floor_w: swing.floor_w,
    }
}
