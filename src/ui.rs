//! The browser app (Yew): the only module that knows the DOM.
//!
//! Thin: every number it shows comes from `model::Estimate`; it only formats. Scenario edits
//! go through `scenario::Scenario::with`, validation through `Scenario::resolve`, the URL
//! through `scenario::url`. Browser access is confined to `ui::browser`.

mod accuracy;
mod app;
mod browser;
mod compare;
mod fields;
mod format;
mod inputs;
mod job;
mod job_view;
mod plot;
mod results;
mod search;
mod sizing;
mod sketch;
mod state;
mod text;
mod worker;

pub use app::App;
pub use state::{Action, State};

pub use worker::serve as serve_worker;

/// Installs the panic hook and mounts the app on `<body>`.
pub fn start() {
    browser::install_panic_hook();
    yew::Renderer::<App>::new().render();
}
