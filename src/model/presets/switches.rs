//! Catalog scale-out switches: radix, port speed, power and price, each with its source.
//!
//! Switch power is the box at typical load without optics (the transceivers are counted
//! separately); prices are list or street estimates and are assumptions the user can edit.

use super::units::GBIT_PER_S;
use super::{Basis, SwitchPreset};
use crate::model::Switch;

/// Every catalog switch.
pub const SWITCHES: &[SwitchPreset] = &[
    SwitchPreset {
        id: "qm8700",
        name: "NVIDIA Quantum QM8700 (40 × 200G HDR)",
        switch: Switch {
            ports: 40,
            port_bytes_per_s: 200.0 * GBIT_PER_S,
            power_w: 250.0, // estimate: 1U HDR switch without optics
            price_usd: 25_000.0,
            ports_per_transceiver: 1,
        },
        infiniband: true,
        basis: Basis::Unverified,
        unverified: &["power_w", "price_usd"],
        source: source!(
            "Quantum HDR switch family: 40 ports of 200 Gb/s in 1U (vendor product brief, as \
                 widely quoted); power and price are estimates"
        ),
    },
    SwitchPreset {
        id: "qm9700",
        name: "NVIDIA Quantum-2 QM9700 (64 × 400G NDR)",
        switch: Switch {
            ports: 64,
            port_bytes_per_s: 400.0 * GBIT_PER_S,
            power_w: 750.0, // estimate: 51.2 Tb/s ASIC and fans, no optics
            price_usd: 35_000.0,
            ports_per_transceiver: 2, // 32 OSFP cages of 2 x 400G
        },
        infiniband: true,
        basis: Basis::Secondary,
        unverified: &["power_w", "price_usd"],
        source: source!(
            "64 x 400G = 51.2 Tb/s per 1U, 32 twin-port OSFP cages (itctshop.com InfiniBand \
                 switch guide; yobitel.com Quantum-2 page); DGX SuperPOD H100 and B200 reference \
                 architectures"
        ),
    },
    SwitchPreset {
        id: "q3400",
        name: "NVIDIA Quantum-X800 Q3400 (144 × 800G XDR)",
        switch: Switch {
            ports: 144,
            port_bytes_per_s: 800.0 * GBIT_PER_S,
            power_w: 2_400.0, // estimate: 115.2 Tb/s, liquid-cooled box
            price_usd: 120_000.0,
            ports_per_transceiver: 2,
        },
        infiniband: true,
        basis: Basis::Secondary,
        unverified: &["power_w", "price_usd"],
        source: source!(
            "144 x 800G = 115.2 Tb/s (ziash.github.io NVIDIA NCA study guide; \
                 quantum-computing.news); DGX SuperPOD B300 XDR reference architecture"
        ),
    },
    SwitchPreset {
        id: "sn5600",
        name: "NVIDIA Spectrum-4 SN5600 (64 × 800G)",
        switch: Switch {
            ports: 64,
            port_bytes_per_s: 800.0 * GBIT_PER_S,
            power_w: 900.0, // estimate: 51.2 Tb/s Ethernet ASIC and fans, no optics
            price_usd: 50_000.0,
            ports_per_transceiver: 1,
        },
        infiniband: false,
        basis: Basis::Secondary,
        unverified: &["power_w", "price_usd"],
        source: source!(
            "Spectrum-4: 51.2 Tb/s, 64 x 800G or 128 x 400G (router-switch.com comparison); \
                 the switch of Spectrum-X"
        ),
    },
    SwitchPreset {
        id: "sn5600-400g",
        name: "NVIDIA Spectrum-4 SN5600 (128 × 400G)",
        switch: Switch {
            ports: 128,
            port_bytes_per_s: 400.0 * GBIT_PER_S,
            power_w: 900.0,
            price_usd: 50_000.0,
            ports_per_transceiver: 2,
        },
        infiniband: false,
        basis: Basis::Secondary,
        unverified: &["power_w", "price_usd"],
        source: source!(
            "the same 51.2 Tb/s box with each 800G port split in two (router-switch.com \
                 comparison)"
        ),
    },
    SwitchPreset {
        id: "tomahawk5",
        name: "Broadcom Tomahawk 5 box (128 × 400G)",
        switch: Switch {
            ports: 128,
            port_bytes_per_s: 400.0 * GBIT_PER_S,
            power_w: 800.0, // ASIC ~450-500 W plus fans and CPU
            price_usd: 40_000.0,
            ports_per_transceiver: 2,
        },
        infiniband: false,
        basis: Basis::Secondary,
        unverified: &["power_w", "price_usd"],
        source: source!(
            "BCM78900: 51.2 Tb/s = 64 x 800G, 128 x 400G or 256 x 200G; chip ~450 W typical \
                 (chipcraft) to ~500 W (TechInsights); convergedigest (Broadcom PR)"
        ),
    },
    SwitchPreset {
        id: "tomahawk4",
        name: "Broadcom Tomahawk 4 box (64 × 400G)",
        switch: Switch {
            ports: 64,
            port_bytes_per_s: 400.0 * GBIT_PER_S,
            power_w: 600.0,
            price_usd: 30_000.0,
            ports_per_transceiver: 1,
        },
        infiniband: false,
        basis: Basis::Secondary,
        unverified: &["power_w", "price_usd"],
        source: source!(
            "25.6 Tb/s = 64 x 400G (MegaScale, NSDI'24, §3.6; tomshardware.com TH4 launch)"
        ),
    },
    SwitchPreset {
        id: "h3c-s9827",
        name: "H3C S9827 class 400G box (128 × 400G)",
        switch: Switch {
            ports: 128,
            port_bytes_per_s: 400.0 * GBIT_PER_S,
            power_w: 900.0,
            price_usd: 35_000.0,
            ports_per_transceiver: 2,
        },
        infiniband: false,
        basis: Basis::Unverified,
        unverified: &["ports", "power_w", "price_usd"],
        source: source!(
            "a 51.2 Tb/s Chinese-market data-centre switch of the kind built for RoCE AI \
                 clusters; figures by class, not from a datasheet"
        ),
    },
];
