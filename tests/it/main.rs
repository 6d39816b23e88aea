//! The native test suite as one binary, a module per suite: one link instead of one per file,
//! so `cargo test` rebuilds in one step. `tests/web.rs` runs apart, in the browser, and
//! `tests/bounds.rs` apart, alone with its clock and its memory.
#![cfg(not(target_arch = "wasm32"))]

mod common;

mod app;
mod calibration;
mod charts;
mod cli;
mod context;
mod diffusion;
mod fabric;
mod facility;
mod failures;
mod fuzz;
mod hybrid;
mod insight;
mod invariants;
mod jobs;
mod launch;
mod leaves;
mod linear;
mod measure;
mod model;
mod numbers;
mod pools;
mod recipes;
mod reliability;
mod scenario;
mod search;
mod serving;
mod site;
mod sizing;
mod sketch;
mod snapshot;
mod text;
mod tidy;
mod timeline;
mod url;
mod user_catalog;
mod validation;
mod year;
