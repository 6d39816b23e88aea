//! The numbers inside the objects a user may write by hand (a custom chip, a custom scale-up
//! fabric, a custom scale-out network), each defined once: its field-table entry (path, unit,
//! range, words), where the model keeps it, and how it is read. `resolve` reads an object
//! through its leaves, `describe` writes one back through the same leaves, and the form offers
//! them, so a key is spelled in one place.

use super::fields::{self, Fallback, Field};
use crate::model::{Chip, Link, ScaleUp};

/// How a leaf's value is read and what its absence means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Above zero.
    Positive,
    /// Above zero and at most one.
    Fraction,
    /// A whole number.
    Count,
    /// Zero or above; `null` means none (no FP8 units).
    Optional,
    /// Above zero, or `null` for none (no price known).
    Maybe,
}

/// One number of an object `T`.
pub struct Leaf<T> {
    /// Its entry in the field table.
    pub field: &'static Field,
    /// Its value in the model's units, `None` when it has none.
    pub get: fn(&T) -> Option<f64>,
    /// Writes the model's value.
    pub set: fn(&mut T, Option<f64>),
    pub rule: Rule,
    /// The value, in the model's units, that a leaf whose default is `Derived` takes from the
    /// leaves read before it.
    pub derive: Option<fn(&T) -> f64>,
    /// The `data-testid` of its input in the form.
    pub testid: &'static str,
}

impl<T> Leaf<T> {
    /// Its value without a preset under it, in the scenario's units, given the leaves read so
    /// far: the fixed default, the derived one, or none (required, or absent for an optional
    /// leaf).
    pub fn fallback(&self, so_far: &T) -> Option<f64> {
        match self.field.default {
            Fallback::Fixed(x) => Some(x),
            Fallback::Derived => self.derive.map(|d| self.field.from_si(d(so_far))),
            Fallback::Preset | Fallback::Required => None,
        }
    }
}

/// A leaf whose model value is the plain number `$($step).+` of `T`.
macro_rules! leaf {
    ($t:ty, $field:ident, $rule:ident, $testid:literal, $($step:ident).+) => {
        Leaf::<$t> {
            field: &fields::$field,
            get: |o| Some(o.$($step).+ as f64),
            set: |o, x| o.$($step).+ = x.unwrap_or(0.0) as _,
            rule: Rule::$rule,
            derive: None,
            testid: $testid,
        }
    };
}

/// A chip's figures, in the order `resolve` reads them (the FP32 rate derives from BF16's).
pub static CHIP: [Leaf<Chip>; 13] = [
    leaf!(Chip, CLUSTER_CHIP_BF16_TFLOPS, Positive, "chip-bf16", bf16_flops_per_s),
    leaf!(Chip, CLUSTER_CHIP_FP8_TFLOPS, Optional, "chip-fp8", fp8_flops_per_s),
    leaf!(Chip, CLUSTER_CHIP_FP4_TFLOPS, Optional, "chip-fp4", fp4_flops_per_s),
    leaf!(Chip, CLUSTER_CHIP_INT8_TOPS, Optional, "chip-int8", int8_ops_per_s),
    Leaf {
        // Chips without a datasheet figure run FP32 at a sixteenth of BF16's rate.
        derive: Some(|c| c.bf16_flops_per_s / 16.0),
        ..leaf!(Chip, CLUSTER_CHIP_FP32_TFLOPS, Positive, "chip-fp32", fp32_flops_per_s)
    },
    leaf!(Chip, CLUSTER_CHIP_HBM_GB, Positive, "chip-hbm", hbm_bytes),
    leaf!(Chip, CLUSTER_CHIP_HBM_TB_PER_S, Positive, "chip-bw", hbm_bytes_per_s),
    leaf!(Chip, CLUSTER_CHIP_HOST_GB_PER_S, Positive, "chip-host-bw", host_bytes_per_s),
    leaf!(Chip, CLUSTER_CHIP_EXP_TERA_PER_S, Optional, "chip-exp", exp_per_s),
    leaf!(Chip, CLUSTER_CHIP_TDP_W, Positive, "chip-tdp", tdp_w),
    leaf!(
        Chip,
        CLUSTER_CHIP_MATMUL_EFFICIENCY,
        Fraction,
        "chip-matmul-efficiency",
        matmul_efficiency
    ),
    leaf!(
        Chip,
        CLUSTER_CHIP_MEMORY_EFFICIENCY,
        Fraction,
        "chip-memory-efficiency",
        memory_efficiency
    ),
    Leaf {
        field: &fields::CLUSTER_CHIP_PRICE_USD,
        get: |c| c.price_usd,
        set: |c, x| c.price_usd = x,
        rule: Rule::Maybe,
        derive: None,
        testid: "chip-price",
    },
];

/// A scale-up fabric's figures; its bandwidth is quoted as both directions added (the field's
/// scale halves it).
pub static SCALE_UP: [Leaf<ScaleUp>; 4] = [
    leaf!(ScaleUp, CLUSTER_SCALE_UP_BANDWIDTH_GB_PER_S, Positive, "scale-up-bw", link.bytes_per_s),
    leaf!(ScaleUp, CLUSTER_SCALE_UP_DOMAIN, Count, "scale-up-domain-size", domain_size),
    leaf!(ScaleUp, CLUSTER_SCALE_UP_LATENCY_US, Positive, "scale-up-latency", link.latency_s),
    leaf!(ScaleUp, CLUSTER_SCALE_UP_EFFICIENCY, Fraction, "scale-up-efficiency", link.efficiency),
];

/// A scale-out network's figures per chip.
pub static SCALE_OUT: [Leaf<Link>; 3] = [
    leaf!(Link, CLUSTER_SCALE_OUT_GBIT_PER_S, Positive, "scale-out-bw", bytes_per_s),
    leaf!(Link, CLUSTER_SCALE_OUT_LATENCY_US, Positive, "scale-out-latency", latency_s),
    leaf!(Link, CLUSTER_SCALE_OUT_EFFICIENCY, Fraction, "scale-out-efficiency", efficiency),
];

/// An object's leaves as scenario JSON, in the scenario's units: counts as whole numbers, a
/// value it lacks as `null`.
pub fn write<T>(leaves: &[Leaf<T>], object: &T) -> serde_json::Map<String, serde_json::Value> {
    use serde_json::Value;
    let value = |leaf: &Leaf<T>| match (leaf.get)(object).map(|x| leaf.field.from_si(x)) {
        None => Value::Null,
        Some(x) if leaf.rule == Rule::Count => Value::from(x as u64),
        Some(x) => Value::from(x),
    };
    leaves.iter().map(|leaf| (leaf.field.key().to_string(), value(leaf))).collect()
}
