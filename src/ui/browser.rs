//! Every call into the browser: location and history, local storage, clipboard, downloads,
//! colour scheme and the panic hook. Failures come back as values, never panics.

use wasm_bindgen::{JsCast, JsValue};

use crate::scenario::{url, Scenario};

/// Local-storage key of the last scenario (as a fragment).
const STORAGE_KEY: &str = "clusterplan.scenario";

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// Shows any Rust panic on the page instead of leaving a dead app.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let message = format!("clusterplan hit an internal error and stopped: {info}. Reload the page; your scenario is in the link.");
        web_sys::console::error_1(&JsValue::from_str(&message));
        let Some(document) = window().and_then(|w| w.document()) else { return };
        let Ok(banner) = document.create_element("div") else { return };
        banner.set_class_name("panic");
        banner.set_attribute("role", "alert").ok();
        banner.set_attribute("data-testid", "panic").ok();
        banner.set_text_content(Some(&message));
        if let Some(body) = document.body() {
            body.prepend_with_node_1(&banner).ok();
        }
    }));
}

/// The scenario to open with: the link's, else the last one used here, else the default;
/// with a notice when the link could not be read.
pub fn initial_scenario() -> (Scenario, Option<String>) {
    let hash = window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    match url::decode(&hash) {
        Ok(Some(scenario)) => return (scenario, None),
        Err(e) => {
            let notice =
                format!("Could not open this link: {e}. Showing the default plan instead.");
            return (Scenario::default_plan(), Some(notice));
        }
        Ok(None) => {}
    }
    let stored = storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
    match stored.map(|text| url::decode(&text)) {
        Some(Ok(Some(scenario))) => (scenario, None),
        Some(Err(_)) => (
            Scenario::default_plan(),
            Some(
                "The scenario saved in this browser could not be read; showing the default plan."
                    .into(),
            ),
        ),
        _ => (Scenario::default_plan(), None),
    }
}

fn storage() -> Option<web_sys::Storage> {
    window().and_then(|w| w.local_storage().ok().flatten())
}

/// Writes the scenario into the URL fragment (no new history entry) and local storage.
pub fn save(scenario: &Scenario) {
    let fragment = url::encode(scenario);
    if let Some(w) = window() {
        let current = w.location().hash().unwrap_or_default();
        if current.trim_start_matches('#') != fragment {
            if let Ok(history) = w.history() {
                history
                    .replace_state_with_url(&JsValue::NULL, "", Some(&format!("#{fragment}")))
                    .ok();
            }
        }
    }
    if let Some(s) = storage() {
        s.set_item(STORAGE_KEY, &fragment).ok();
    }
}

/// The page's address, fragment included.
pub fn href() -> String {
    window().and_then(|w| w.location().href().ok()).unwrap_or_default()
}

/// Copies text to the clipboard; the promise's outcome is not awaited.
pub fn copy(text: &str) -> bool {
    let Some(w) = window() else { return false };
    let Ok(navigator) = js_sys::Reflect::get(&w, &JsValue::from_str("navigator")) else {
        return false;
    };
    let Ok(clipboard) = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard")) else {
        return false;
    };
    if clipboard.is_undefined() {
        return false;
    }
    let Ok(write) = js_sys::Reflect::get(&clipboard, &JsValue::from_str("writeText")) else {
        return false;
    };
    let Ok(write) = write.dyn_into::<js_sys::Function>() else { return false };
    match write.call1(&clipboard, &JsValue::from_str(text)) {
        Ok(promise) => {
            // Swallow a rejection (no permission): the notice shows the link either way.
            if let Ok(promise) = promise.dyn_into::<js_sys::Promise>() {
                let ignore =
                    wasm_bindgen::closure::Closure::<dyn FnMut(JsValue)>::new(|_: JsValue| {});
                let _ = promise.catch(&ignore);
                ignore.forget();
            }
            true
        }
        Err(_) => false,
    }
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, text: &str) -> Result<(), String> {
    let document = window().and_then(|w| w.document()).ok_or("no document")?;
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "cannot make a file")?;
    let url =
        web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| "cannot make a file link")?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|_| "no link element")?
        .dyn_into()
        .map_err(|_| "no link element")?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    web_sys::Url::revoke_object_url(&url).ok();
    Ok(())
}

/// The user prefers a dark colour scheme.
pub fn prefers_dark() -> bool {
    window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}
