//! Named chips, fabrics and transformers, each with its source.
//!
//! Presets are plain consts so the catalog costs nothing at run time and the command-line
//! tool and the app list the same figures. A figure whose source is weak is named in
//! `unverified`, so the user interface can say so next to it.

mod chips;
mod fabrics;
mod transformers;

pub use chips::CHIPS;
pub use fabrics::{SCALE_OUT, SCALE_UP};
pub use transformers::TRANSFORMERS;

use crate::model::{Chip, Link, ScaleUp, Transformer};

/// How firm a preset's figures are (vendor, secondary or unverified, as compiled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// Read from the vendor's own page or datasheet, or a paper quoting it.
    Vendor,
    /// Read from a secondary source (press, spec aggregator).
    Secondary,
    /// Not confirmed: widely quoted, disputed or partly derived.
    Unverified,
}

impl Basis {
    /// Short lowercase name used in the catalog output.
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Vendor => "vendor",
            Basis::Secondary => "secondary",
            Basis::Unverified => "unverified",
        }
    }
}

/// A catalog accelerator.
#[derive(Clone, Copy, Debug)]
pub struct ChipPreset {
    /// Lowercase, hyphenated id used in scenarios (`h100-sxm`).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Maker.
    pub vendor: &'static str,
    /// Figures.
    pub chip: Chip,
    /// Id of the scale-up fabric this chip ships with (in `SCALE_UP`).
    pub scale_up: &'static str,
    /// Id of the usual scale-out fabric (in `SCALE_OUT`).
    pub scale_out: &'static str,
    /// Chips in the usual server.
    pub chips_per_node: u32,
    /// How firm the figures are overall.
    pub basis: Basis,
    /// Field names of `Chip` whose value is not confirmed.
    pub unverified: &'static [&'static str],
    /// Where the figures come from.
    pub source: &'static str,
}

/// A catalog scale-up fabric.
#[derive(Clone, Copy, Debug)]
pub struct ScaleUpPreset {
    /// Lowercase, hyphenated id (`nvlink4-8`).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Figures.
    pub scale_up: ScaleUp,
    /// How firm the figures are.
    pub basis: Basis,
    /// Where the figures come from.
    pub source: &'static str,
}

/// A catalog scale-out fabric.
#[derive(Clone, Copy, Debug)]
pub struct FabricPreset {
    /// Lowercase, hyphenated id (`ib-ndr`).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Per-chip NIC figures.
    pub link: Link,
    /// How firm the figures are.
    pub basis: Basis,
    /// Where the figures come from.
    pub source: &'static str,
}

/// A catalog transformer.
#[derive(Clone, Copy, Debug)]
pub struct TransformerPreset {
    /// Lowercase, hyphenated id (`llama3-405b`).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Shape.
    pub transformer: Transformer,
    /// Where the shape comes from.
    pub source: &'static str,
}

/// The chip preset with this id.
pub fn chip(id: &str) -> Option<&'static ChipPreset> {
    CHIPS.iter().find(|p| p.id == id)
}

/// The scale-up preset with this id.
pub fn scale_up(id: &str) -> Option<&'static ScaleUpPreset> {
    SCALE_UP.iter().find(|p| p.id == id)
}

/// The scale-out preset with this id.
pub fn scale_out(id: &str) -> Option<&'static FabricPreset> {
    SCALE_OUT.iter().find(|p| p.id == id)
}

/// The transformer preset with this id.
pub fn transformer(id: &str) -> Option<&'static TransformerPreset> {
    TRANSFORMERS.iter().find(|p| p.id == id)
}

/// Unit helpers so presets read like datasheets.
pub mod units {
    /// 10^12 FLOP/s.
    pub const TFLOPS: f64 = 1e12;
    /// 10^9 bytes.
    pub const GB: f64 = 1e9;
    /// 2^30 bytes.
    pub const GIB: f64 = 1073741824.0;
    /// 10^12 bytes/s.
    pub const TB_PER_S: f64 = 1e12;
    /// 10^9 bytes/s.
    pub const GB_PER_S: f64 = 1e9;
    /// 10^9 bits/s, in bytes/s.
    pub const GBIT_PER_S: f64 = 1e9 / 8.0;
    /// 10^-6 s.
    pub const US: f64 = 1e-6;
}
