//! clusterplan: how long a transformer takes to train on a cluster, whether it fits, and what
//! it costs.
//!
//! - `model`: the analytical model, pure and total (`model::estimate`).
//! - `scenario`: what a user typed, serializable and versioned; `Scenario::resolve` validates
//!   it into `model::Inputs`.
//! - `evaluation`: the one judge: a scenario, its measurements, pools and sites checked and
//!   estimated with the ranges of its headlines, for the page, the worker and the command line.
//! - `fabric`: the scale-out network as a graph (petgraph), its bill of materials and the tier
//!   summary the model reads.
//! - `app`: everything the page does except markup, as plain Rust: its state and every edit
//!   of it, its words, typed views of every result and the wire they travel on, and the jobs
//!   its worker runs a slice at a time.
//! - `charts`: plots of an estimate as SVG documents.
//! - `format`: human units for display (days, percentages, GiB, seconds).
//! - `catalog`, `report`: the presets and an estimate as JSON, for the command-line tool.
//! - `numbers`: numbers as people write them (`16k`, `14.8T`, `1.6万`), read and written.
//! - `sizing`: the smallest cluster of a chip that meets a deadline, searching plans at each
//!   size (`model::search`).
//! - `validation`: published training runs and the model's error on each.
// `report::serving_json` writes one object of more keys than `json!` expands by default.
#![recursion_limit = "256"]

pub mod app;
pub mod catalog;
pub mod charts;
pub mod cite;
pub mod evaluation;
pub mod fabric;
pub mod format;
pub mod launch;
pub mod measure;
pub mod model;
pub mod numbers;
pub mod report;
pub mod scenario;
pub mod sizing;
pub mod sketch;
pub mod text;
#[cfg(target_arch = "wasm32")]
pub mod ui;
pub mod validation;
