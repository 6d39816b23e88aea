//! Published cluster designs against the fabric graph: switch counts per tier, exact where the
//! design follows the same rules as `fabric`, with the difference explained where it does not.

use crate::fabric::{self, Spec};
use crate::model::presets;

/// A published fabric design.
#[derive(Clone, Copy, Debug)]
pub struct Design {
    /// What it is.
    pub name: &'static str,
    /// The catalog system it is built from.
    pub system: &'static str,
    /// Chips.
    pub chips: u32,
    /// Published leaf, spine and core switches.
    pub published: [u64; 3],
    /// The design follows `fabric`'s rules, so the counts must match exactly.
    pub exact: bool,
    /// Where the counts come from.
    pub source: &'static str,
    /// How its rules differ from ours, when they do.
    pub note: &'static str,
}

/// Every design `docs/accuracy.md` compares.
pub const DESIGNS: &[Design] = &[
    Design {
        name: "DGX SuperPOD H100, 1 SU (31 DGX)",
        system: "dgx-h100",
        chips: 248,
        published: [8, 4, 0],
        exact: true,
        source: "DGX SuperPOD H100 reference architecture, Network fabrics",
        note: "",
    },
    Design {
        name: "DGX SuperPOD H100, 4 SUs (127 DGX)",
        system: "dgx-h100",
        chips: 1016,
        published: [32, 16, 0],
        exact: true,
        source: "same",
        note: "",
    },
    Design {
        name: "DGX SuperPOD B200, 16 SUs",
        system: "dgx-b200",
        chips: 4096,
        published: [128, 128, 64],
        exact: true,
        source: "DGX SuperPOD B200 reference architecture",
        note: "",
    },
    Design {
        name: "DGX SuperPOD B200, 64 SUs",
        system: "dgx-b200",
        chips: 16_384,
        published: [512, 512, 256],
        exact: true,
        source: "same",
        note: "",
    },
    Design {
        name: "DGX SuperPOD B300 XDR, 1 SU (72 DGX)",
        system: "dgx-b300",
        chips: 576,
        published: [8, 4, 0],
        exact: true,
        source: "DGX SuperPOD B300 XDR reference architecture, Table 3",
        note: "",
    },
    Design {
        name: "DGX SuperPOD B300 XDR, 4 SUs",
        system: "dgx-b300",
        chips: 2304,
        published: [32, 18, 0],
        exact: true,
        source: "same",
        note: "18 spines, not the 16 a minimal count gives, so that every leaf spreads its 72 uplinks evenly; `fabric` rounds up the same way",
    },
    Design {
        name: "DGX SuperPOD B300 XDR, 18 SUs (1,296 DGX)",
        system: "dgx-b300",
        chips: 10_368,
        published: [144, 72, 0],
        exact: true,
        source: "same",
        note: "the table prints 9,216 GPUs for 1,296 systems of 8, whose 10,368 matches its cable count",
    },
];

/// A design with the fabric `fabric` builds for it.
#[derive(Clone, Copy, Debug)]
pub struct DesignOutcome {
    /// The design.
    pub design: Design,
    /// Leaf, spine and core switches `fabric` builds.
    pub predicted: [u64; 3],
}

impl DesignOutcome {
    /// The counts agree.
    pub fn matches(&self) -> bool {
        self.predicted == self.design.published
    }
}

/// Every design's outcome (a design whose fabric cannot be built predicts zeros).
pub fn outcomes() -> Vec<DesignOutcome> {
    DESIGNS
        .iter()
        .map(|d| {
            let predicted = presets::system(d.system)
                .and_then(|s| Spec::for_system(s, d.chips))
                .and_then(|spec| fabric::build(&spec).ok())
                .map_or([0; 3], |f| [f.bom.leaf, f.bom.spine, f.bom.core]);
            DesignOutcome { design: *d, predicted }
        })
        .collect()
}

/// The designs as a Markdown section of the accuracy report.
pub fn markdown() -> String {
    let list = outcomes();
    let exact = list.iter().filter(|o| o.design.exact).count();
    let matching = list.iter().filter(|o| o.design.exact && o.matches()).count();
    let mut out = String::from("\n## Fabric designs\n\n");
    out.push_str(&format!(
        "Switch counts of published designs against the fabric graph (`src/fabric.rs`) built from the catalog system: {matching} of {exact} designs that follow the same rules match exactly.\n\n"
    ));
    out.push_str("| design | chips | published leaf / spine / core | predicted | match | note |\n|---|---:|---|---|:-:|---|\n");
    let show = |c: [u64; 3]| format!("{} / {} / {}", c[0], c[1], c[2]);
    for o in &list {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            o.design.name,
            o.design.chips,
            show(o.design.published),
            show(o.predicted),
            if o.matches() { "yes" } else { "**no**" },
            o.design.note
        ));
    }
    out.push_str("\nOther published designs follow other rules, so they are checked for structure in `tests/it/fabric.rs` rather than counted here: ByteDance's MegaScale (3 layers of Tomahawk 4 with split ports, 64 servers per ToR set) and a public two-tier example (512 GPUs on 16 leaf and 8 spine switches) match; NVIDIA Selene's 850 switches include its storage fabric and full 560-system build, and Meta's Llama 3 pods of 3,072 GPUs use modular spines of a larger radix than their ToRs, which a one-switch-model fat tree does not express.\n");
    out
}
