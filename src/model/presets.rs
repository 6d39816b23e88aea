//! Named chips, fabrics and transformers, each with its source.
//!
//! Presets are plain consts so the catalog costs nothing at run time and the command-line
//! tool and the app list the same figures. A figure whose source is weak is named in
//! `unverified`, so the user interface can say so next to it.

/// A preset's source text, or nothing in the page's own build (`--features page`): the page
/// shows the sources of chips, systems and models from `text/sources.txt`, loaded once it is
/// drawn (`sources_catalogue` writes it), so its first download carries none of them.
macro_rules! source {
    ($text:expr) => {
        if cfg!(feature = "page") {
            ""
        } else {
            $text
        }
    };
}

mod chips;
mod fabrics;
// Generated (`validation::fit::source`); kept as written so the staleness check compares like
// with like.
#[rustfmt::skip]
pub mod fitted;
// Generated (`validation::serving_fit::source`), as `fitted` is.
#[rustfmt::skip]
pub mod serving_fitted;
mod switches;
mod systems;
mod transformers;

pub use chips::CHIPS;
pub use fabrics::{SCALE_OUT, SCALE_UP};
pub use switches::SWITCHES;
pub use systems::SYSTEMS;
pub use transformers::TRANSFORMERS;

use crate::model::{Chip, Link, ScaleUp, Software, Stack, Switch, System, Transformer};

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
    /// The maker's architecture family (`Hopper`, `TPU`, `Ascend`): chips of one family share
    /// their kernels and software, so the validation runs of one speak for the others.
    pub family: &'static str,
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
pub struct ScaleOutPreset {
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

/// A reference architecture's rules for sizing the scale-out fabric (NVIDIA DGX SuperPOD):
/// scalable units of a fixed number of node positions, each with one leaf per rail, and a
/// minimum number of tiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuperPod {
    /// Node positions per scalable unit (leaf down-ports used per rail).
    pub nodes_per_unit: u32,
    /// Tiers the design builds even where fewer would do.
    pub min_tiers: u32,
}

/// A catalog system (server or rack-scale system).
#[derive(Clone, Copy, Debug)]
pub struct SystemPreset {
    /// Lowercase, hyphenated id (`dgx-h100`).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Id of the chip it holds (in `CHIPS`).
    pub chip: &'static str,
    /// Figures.
    pub system: System,
    /// Id of its scale-up fabric (in `SCALE_UP`).
    pub scale_up: &'static str,
    /// Id of its usual scale-out network (in `SCALE_OUT`).
    pub scale_out: &'static str,
    /// Id of its reference design's scale-out switch (in `SWITCHES`).
    pub switch: &'static str,
    /// Its reference architecture's sizing rules, when it has one.
    pub superpod: Option<SuperPod>,
    /// How firm the figures are overall.
    pub basis: Basis,
    /// Field names of `System` whose value is not confirmed.
    pub unverified: &'static [&'static str],
    /// Where the figures come from.
    pub source: &'static str,
}

/// A catalog scale-out switch.
#[derive(Clone, Copy, Debug)]
pub struct SwitchPreset {
    /// Lowercase, hyphenated id (`qm9700`).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Figures.
    pub switch: Switch,
    /// An InfiniBand switch (else Ethernet, for RoCE): a network of one kind is built of it.
    pub infiniband: bool,
    /// How firm the figures are.
    pub basis: Basis,
    /// Field names of `Switch` whose value is not confirmed.
    pub unverified: &'static [&'static str],
    /// Where the figures come from.
    pub source: &'static str,
}

/// Node power of a server the catalog does not list, per chip TDP: a DGX H100's 10.2 kW over
/// its 8 x 700 W GPUs is 1.82, a DGX A100's 6.5 kW over 8 x 400 W is 2.03 (vendor system
/// maxima); the lower ratio, for the larger chips most plans use.
pub const GENERIC_NODE_W_PER_CHIP_TDP: f64 = 1.82;

/// Price of a server the catalog does not list, per price of its chips: a DGX H100 at about
/// $270,000 (analyst estimate, 2023) over 8 H100 at $27,500 (street, $25-30k) is 1.23; the rest
/// is the hosts, memory, NICs and chassis.
pub const GENERIC_NODE_PRICE_PER_CHIP_PRICE: f64 = 1.23;

/// A generic server of `chips` of `chip`, four to a rack, air-cooled: its power
/// `GENERIC_NODE_W_PER_CHIP_TDP` and its price `GENERIC_NODE_PRICE_PER_CHIP_PRICE` times its
/// chips' (0 without a chip price, which the estimate warns of: `Warning::ServersUnpriced`).
pub fn generic_server(chip: &Chip, chips: u32) -> System {
    let n = chips.max(1);
    System {
        chips_per_node: n,
        nics_per_chip: 1,
        node_max_w: GENERIC_NODE_W_PER_CHIP_TDP * chip.tdp_w * n as f64,
        node_peak_w: 0.0,
        nodes_per_rack: 4,
        liquid: false,
        node_price_usd: chip.price_usd.unwrap_or(0.0)
            * n as f64
            * GENERIC_NODE_PRICE_PER_CHIP_PRICE,
        scale_up_switches_per_rack: 0,
    }
}

/// The system a chip comes in when the scenario names none: the catalog system built around
/// it, else a generic server of the chip preset's size (`generic_server`).
pub fn system_for_chip(chip_id: &str) -> Option<SystemPreset> {
    let c = chip(chip_id)?;
    // The system built the way the chip preset describes it (its scale-up domain) comes first,
    // so a GB300 stays in its NVL72 rack rather than in an 8-GPU DGX B300.
    let own = SYSTEMS.iter().filter(|s| s.chip == chip_id);
    if let Some(system) =
        own.clone().find(|s| s.scale_up == c.scale_up).or_else(|| own.clone().next())
    {
        return Some(*system);
    }
    let n = c.chips_per_node.max(1);
    Some(SystemPreset {
        id: c.id,
        name: c.name,
        chip: c.id,
        system: generic_server(&c.chip, n),
        scale_up: c.scale_up,
        scale_out: c.scale_out,
        switch: "tomahawk5",
        superpod: None,
        basis: Basis::Unverified,
        unverified: &["node_max_w", "nodes_per_rack", "node_price_usd"],
        source: "a generic server of the chip preset's size: power 1.82 x the chips' TDP (the DGX H100 ratio), four per rack, priced at 1.23 x its chips' price (the DGX H100 ratio)",
    })
}

/// The system preset with this id.
pub fn system(id: &str) -> Option<&'static SystemPreset> {
    SYSTEMS.iter().find(|p| p.id == id)
}

/// The switch preset with this id.
pub fn switch(id: &str) -> Option<&'static SwitchPreset> {
    SWITCHES.iter().find(|p| p.id == id)
}

/// The chip preset with this id.
pub fn chip(id: &str) -> Option<&'static ChipPreset> {
    CHIPS.iter().find(|p| p.id == id)
}

impl ChipPreset {
    /// The chip's figures, its GEMM efficiency as fitted to published runs where the fit sets
    /// it (`fitted::CHIP_GEMM`), else the figure of its chip class in `chip`.
    pub fn figures(&self) -> Chip {
        let mut chip = self.chip;
        if let Some(&(_, efficiency, ..)) = fitted::CHIP_GEMM.iter().find(|f| f.0 == self.id) {
            chip.matmul_efficiency = efficiency;
        }
        chip
    }

    /// A fit to published runs sets its GEMM efficiency.
    pub fn fitted(&self) -> bool {
        fitted::CHIP_GEMM.iter().any(|f| f.0 == self.id)
    }
}

/// What `stack` reaches beyond its overlaps: its share of the chips' best kernel speed and the
/// MoE host wait and each layer's launches, as fitted to published runs
/// (`fitted::STACK_KERNEL_SHARE`, `fitted::MOE_HOST_S`, `fitted::LAYER_HOST_S`). The tuned stack's kernels are the chips' best by definition; it and
/// XLA run MoE layers with static shapes (a tuned submission drops and pads tokens to capture
/// whole steps in CUDA graphs; XLA compiles the step), so they never wait on the host.
///
/// `family` is the chip's (`ChipPreset::family`): where a family's runs on the stack reach a
/// share of their own (`fitted::FAMILY_KERNEL_SHARE`), its chips take it.
/// The best chip GEMM efficiency fitted to published runs of `family` (`fitted::CHIP_GEMM`,
/// chips with rows of their own), or of every family where it has none or is unknown.
pub fn class_best(family: Option<&str>) -> Option<crate::model::ClassBest> {
    let fitted =
        || fitted::CHIP_GEMM.iter().filter(|f| f.2 > 0).filter_map(|f| Some((chip(f.0)?, f.1)));
    let best = |of: &mut dyn Iterator<Item = (&'static ChipPreset, f64)>| {
        of.max_by(|a, b| a.1.total_cmp(&b.1))
    };
    let own = family.and_then(|family| best(&mut fitted().filter(|(p, _)| p.family == family)));
    let (preset, efficiency) = match own {
        Some(found) => found,
        None => best(&mut fitted())?,
    };
    Some(crate::model::ClassBest { efficiency, chip: preset.name, same_family: own.is_some() })
}

/// The share of the chip's fitted speed serving reaches on `engine` and a chip of `family`
/// (`Serving::kernel_share`): the family's and the engine's fitted shares
/// (`serving_fitted::FAMILY_SERVING_SHARE`, `serving_fitted::ENGINE_SERVING_SHARE`), each 1
/// where no measurement set it.
pub fn serving_share(family: Option<&str>, engine: crate::model::serving::Engine) -> f64 {
    let own = serving_fitted::FAMILY_SERVING_SHARE
        .iter()
        .find(|f| Some(f.0) == family)
        .map_or(1.0, |f| f.1);
    let engine =
        serving_fitted::ENGINE_SERVING_SHARE.iter().find(|f| f.0 == engine).map_or(1.0, |f| f.1);
    own * engine
}

/// The share of serving's share the routed experts' grouped GEMMs reach on a chip of `family`
/// (`Serving::expert_share`, `serving_fitted::FAMILY_EXPERT_SHARE`), 1 where no measurement of
/// a mixture of experts set it.
pub fn serving_expert_share(family: Option<&str>) -> f64 {
    serving_fitted::FAMILY_EXPERT_SHARE.iter().find(|f| Some(f.0) == family).map_or(1.0, |f| f.1)
}

/// The share of serving's share latent attention's kernels reach on a chip of `family`
/// (`Serving::latent_share`, `serving_fitted::FAMILY_LATENT_SHARE`), 1 where no measurement of
/// a model with MLA set it.
pub fn serving_latent_share(family: Option<&str>) -> f64 {
    serving_fitted::FAMILY_LATENT_SHARE.iter().find(|f| Some(f.0) == family).map_or(1.0, |f| f.1)
}

pub fn software(stack: Stack, family: Option<&str>) -> Software {
    let pooled = fitted::STACK_KERNEL_SHARE.iter().find(|f| f.0 == stack).map_or(1.0, |f| f.1);
    let own = fitted::FAMILY_KERNEL_SHARE
        .iter()
        .find(|f| f.0 == stack && Some(f.1) == family)
        .map_or(1.0, |f| f.2);
    let kernel_share = pooled * own;
    // A compiled step never waits on the host. A benchmark submission's is Megatron-Core's
    // host, hidden by its full-iteration CUDA graph (`Stack::graphs`) unless it runs without.
    let (moe_host_s, moe_host_deepep_s) = match stack {
        Stack::Xla => (0.0, 0.0),
        Stack::MegatronCore | Stack::MegatronBaseline | Stack::PytorchFsdp | Stack::Tuned => {
            (fitted::MOE_HOST_S.0, fitted::MOE_HOST_DEEPEP_S.0)
        }
    };
    let launches_like = if stack == Stack::Tuned { Stack::MegatronCore } else { stack };
    let layer_host_s = match stack {
        Stack::Xla => 0.0,
        _ => fitted::LAYER_HOST_S.iter().find(|f| f.0 == launches_like).map_or(0.0, |f| f.1),
    };
    let low_precision_share =
        fitted::FAMILY_LOW_PRECISION.iter().find(|f| Some(f.0) == family).map_or(1.0, |f| f.1);
    let grouped_waste_rows = match stack {
        Stack::Xla => crate::model::parallelism::GROUPED_TILE_WASTE_XLA,
        _ => crate::model::parallelism::GROUPED_TILE_WASTE_GPU,
    };
    Software {
        kernel_share,
        moe_host_s,
        moe_host_deepep_s,
        low_precision_share,
        layer_host_s,
        grouped_waste_rows,
    }
}

/// The scale-up preset with this id.
pub fn scale_up(id: &str) -> Option<&'static ScaleUpPreset> {
    SCALE_UP.iter().find(|p| p.id == id)
}

/// The scale-out preset with this id.
pub fn scale_out(id: &str) -> Option<&'static ScaleOutPreset> {
    SCALE_OUT.iter().find(|p| p.id == id)
}

/// The transformer preset with this id.
pub fn transformer(id: &str) -> Option<&'static TransformerPreset> {
    TRANSFORMERS.iter().find(|p| p.id == id)
}

/// Unit helpers so presets read like datasheets (`model::units`).
pub use crate::model::units;

/// The sources of the catalog's chips, systems and models as a text catalogue
/// (`source.chip.<id> = <text>`), for `static/text/sources.txt`, which the page loads once it is
/// drawn (`tests/it/text.rs` keeps the file current).
pub fn sources_catalogue() -> String {
    let mut out = String::from(
        "# Generated from src/model/presets/ by `UPDATE_TEXT=1 cargo test --test it text::`; do not edit.\n",
    );
    let chips = CHIPS.iter().map(|p| ("chip", p.id, p.source));
    let systems = SYSTEMS.iter().map(|p| ("system", p.id, p.source));
    let models = TRANSFORMERS.iter().map(|p| ("model", p.id, p.source));
    for (kind, id, text) in chips.chain(systems).chain(models) {
        out.push_str(&format!("source.{kind}.{id} = {}\n", text.trim()));
    }
    out
}
