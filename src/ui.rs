//! The browser app (Yew): the only module that knows the DOM.
//!
//! Thin: every number it shows comes from `model::Estimate`; it only formats. Scenario edits
//! go through `scenario::Scenario::with`, validation through `Scenario::resolve`, the URL
//! through `scenario::url`. Location, history, storage, clipboard, downloads and printing go
//! through `ui::browser`; components use `web_sys` and `gloo` directly only for their own events,
//! file reading and timers.

mod browser;
mod catalog;
mod fields;
mod hooks;
mod inputs;
mod job;
mod page;
mod report;
mod results;
mod sections;
mod site;
mod sketch;
mod state;
mod summary;
mod worker;

pub use page::App;
pub use state::{Action, State};

pub use worker::serve as serve_worker;

/// Installs the panic hook, loads the catalogue of the language to open in (English when
/// that cannot be had) and mounts the app on `<body>`.
pub fn start() {
    browser::install_panic_hook();
    let wanted = browser::preferred_lang();
    wasm_bindgen_futures::spawn_local(async move {
        let lang = match browser::load_text(wanted).await {
            Ok(()) => wanted,
            Err(why) => {
                web_sys::console::warn_1(&format!("no {} text: {why}", wanted.code()).into());
                browser::load_text(crate::text::Lang::En).await.ok();
                crate::text::Lang::En
            }
        };
        browser::speak(lang);
        yew::Renderer::<App>::new().render();
    });
}
