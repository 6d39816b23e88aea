//! Every call into the browser: location and history, local storage, clipboard, downloads,
//! colour scheme, event listeners and the panic hook. Failures come back as values, never
//! panics.

use gloo::events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::app::words;
use crate::scenario::user_catalog::UserCatalog;
use crate::scenario::{url, Scenario};
use crate::text::{self, Lang};

/// Local-storage key of the last scenario (as a fragment).
const STORAGE_KEY: &str = "clusterplan.scenario";

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// Shows any Rust panic on the page instead of leaving a dead app.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let message = text::fill("page.crashed", &[("why", &info.to_string())]);
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

/// Where the opening scenario came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The link, this browser's storage, or the default.
    Fine,
    /// The link could not be read: it is left in the address bar until the first edit.
    BrokenLink,
}

/// What a link or the storage holds: a plan (`s=`), and side B when it is a comparison
/// (`b=`), in which case the first is side A.
pub type Linked = (Scenario, Option<Scenario>);

fn read(fragment: &str) -> Result<Option<Linked>, url::DecodeError> {
    let Some(first) = url::decode(fragment)? else { return Ok(None) };
    Ok(Some((first, url::decode_b(fragment)?)))
}

/// The fragment of the page's state: the plan, or side A and side B of a comparison.
fn fragment(scenario: &Scenario, pinned: Option<&Scenario>) -> String {
    match pinned {
        Some(a) => url::encode_pair(a, scenario),
        None => url::encode(scenario),
    }
}

/// The plan in the page's link, if any; `Err` carries a notice when it cannot be read.
pub fn linked_scenario() -> Result<Option<Linked>, String> {
    let hash = window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    read(&hash).map_err(|e| text::fill("link.broken", &[("why", &words::decode_error(&e))]))
}

/// The plan to open with: the link's, else the last one used here, else the default; with a
/// notice when something could not be read.
pub fn initial_scenario() -> (Linked, Option<String>, Origin) {
    let default = || (Scenario::default_plan(), None);
    match linked_scenario() {
        Ok(Some(linked)) => return (linked, None, Origin::Fine),
        Err(notice) => return (default(), Some(notice), Origin::BrokenLink),
        Ok(None) => {}
    }
    // A page saved as a file opens at the plan it carries.
    if let Some(Ok(Some(linked))) = embedded_plan().map(|f| read(&f)) {
        return (linked, None, Origin::Fine);
    }
    let stored = storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
    match stored.map(|text| read(&text)) {
        Some(Ok(Some(linked))) => (linked, None, Origin::Fine),
        Some(Err(_)) => (default(), Some(text::t("link.stored-broken").into()), Origin::Fine),
        _ => (default(), None, Origin::Fine),
    }
}

/// The fragment a page saved as a file carries (`app::PLAN_META`).
fn embedded_plan() -> Option<String> {
    let selector = format!("meta[name=\"{}\"]", crate::app::PLAN_META);
    let document = window()?.document()?;
    document.query_selector(&selector).ok().flatten()?.get_attribute("content")
}

/// Saves the page as one HTML file that opens offline at the plan (and its comparison): the
/// single-file page, from the page itself where it is that file, else from beside it.
pub async fn save_file(scenario: &Scenario, pinned: Option<&Scenario>) -> Result<(), String> {
    let document = window().and_then(|w| w.document()).ok_or("no document")?;
    let itself = document.query_selector("script[data-worker]").ok().flatten().is_some();
    let page = match document.head() {
        Some(head) if itself => {
            format!(
                "<!doctype html>\n<html lang=\"{}\">{}<body></body></html>",
                text::lang().code(),
                head.outer_html()
            )
        }
        _ => fetch_text("standalone.html").await?,
    };
    let html = crate::app::saved_file(&page, &fragment(scenario, pinned));
    download("clusterplan-plan.html", &html, "text/html")
}

/// Sets the attribute `name` on the page's root element.
pub fn mark_root(name: &str) {
    if let Some(root) = window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        root.set_attribute(name, "").ok();
    }
}

/// Workers a search may run on at most, when this browser was told fewer than its cores
/// (`clusterplan.workers` in local storage, as the benchmarks set it).
pub fn workers_asked() -> Option<u32> {
    storage()?.get_item("clusterplan.workers").ok().flatten()?.trim().parse().ok()
}

fn storage() -> Option<web_sys::Storage> {
    window().and_then(|w| w.local_storage().ok().flatten())
}

/// Writes the scenario into the URL fragment and local storage. An edit replaces the current
/// history entry; a whole-plan change (`push`) adds one, so Back returns to the plan before.
pub fn save(scenario: &Scenario, pinned: Option<&Scenario>, push: bool) {
    let fragment = fragment(scenario, pinned);
    if let Some(w) = window() {
        let current = w.location().hash().unwrap_or_default();
        if current.trim_start_matches('#') != fragment {
            if let Ok(history) = w.history() {
                let url = format!("#{fragment}");
                if push {
                    history.push_state_with_url(&JsValue::NULL, "", Some(&url)).ok();
                } else {
                    history.replace_state_with_url(&JsValue::NULL, "", Some(&url)).ok();
                }
            }
        }
    }
    if let Some(s) = storage() {
        s.set_item(STORAGE_KEY, &fragment).ok();
    }
}

/// The address of the hosted planner, when the build was told it (`CLUSTERPLAN_PUBLIC_URL`
/// at build time; see the README). A page opened from a file shares links to it.
const PUBLIC_URL: Option<&str> = option_env!("CLUSTERPLAN_PUBLIC_URL");

/// A link to share a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareLink {
    /// A link that opens the plan anywhere.
    Web(String),
    /// The page was opened from a file and the build knows no hosted address: only the
    /// plan's fragment (`#s=1.…`) travels.
    Fragment(String),
}

/// The link that opens `scenario`: this page's address (or the hosted planner's, for a page
/// opened from a file) with the scenario's fragment, built from the state rather than the
/// address bar, which browsers may stop updating under very rapid edits.
pub fn share_link(scenario: &Scenario, pinned: Option<&Scenario>) -> ShareLink {
    let fragment = format!("#{}", fragment(scenario, pinned));
    let location = window().map(|w| w.location());
    let protocol = location.as_ref().and_then(|l| l.protocol().ok()).unwrap_or_default();
    if protocol == "file:" {
        return match PUBLIC_URL.filter(|u| !u.is_empty()) {
            Some(base) => {
                ShareLink::Web(format!("{}{fragment}", base.split('#').next().unwrap_or(base)))
            }
            None => ShareLink::Fragment(fragment),
        };
    }
    let href = location.and_then(|l| l.href().ok()).unwrap_or_default();
    let base = href.split('#').next().unwrap_or_default();
    ShareLink::Web(format!("{base}{fragment}"))
}

/// Starts copying text to the clipboard; the promise settles when the browser has decided.
pub fn copy(text: &str) -> Option<js_sys::Promise> {
    let w = window()?;
    let navigator = js_sys::Reflect::get(&w, &JsValue::from_str("navigator")).ok()?;
    let clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard")).ok()?;
    if clipboard.is_undefined() {
        return None;
    }
    let write = js_sys::Reflect::get(&clipboard, &JsValue::from_str("writeText")).ok()?;
    let write = write.dyn_into::<js_sys::Function>().ok()?;
    write.call1(&clipboard, &JsValue::from_str(text)).ok()?.dyn_into::<js_sys::Promise>().ok()
}

/// Offers `text` as a file download named `name`, of type `mime`.
pub fn download(name: &str, text: &str, mime: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "cannot make a file")?;
    let url =
        web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| "cannot make a file link")?;
    download_url(name, &url)?;
    // Some browsers start the download after the click returns: release the file later.
    gloo::timers::callback::Timeout::new(10_000, move || {
        web_sys::Url::revoke_object_url(&url).ok();
    })
    .forget();
    Ok(())
}

/// Offers the file at `url` (a `blob:` or `data:` URL) as a download named `name`.
pub fn download_url(name: &str, url: &str) -> Result<(), String> {
    let document = window().and_then(|w| w.document()).ok_or("no document")?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|_| "no link element")?
        .dyn_into()
        .map_err(|_| "no link element")?;
    anchor.set_href(url);
    anchor.set_download(name);
    anchor.click();
    Ok(())
}

/// Unfolds every folded section, so a printed page holds all of them.
pub fn unfold_all() {
    let Some(document) = window().and_then(|w| w.document()) else { return };
    let Ok(all) = document.query_selector_all("details") else { return };
    for i in 0..all.length() {
        if let Some(details) = all.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
            details.set_attribute("open", "").ok();
        }
    }
}

/// Opens the browser's print dialog (where "Save as PDF" is).
pub fn print() {
    if let Some(w) = window() {
        w.print().ok();
    }
}

/// Calls `f` before the page is printed, however printing was started, while the listener
/// lives.
pub fn on_before_print(f: impl Fn() + 'static) -> Option<EventListener> {
    window().map(|w| EventListener::new(&w, "beforeprint", move |_| f()))
}

fn dark_query() -> Option<web_sys::MediaQueryList> {
    window().and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
}

/// The user prefers a dark colour scheme.
pub fn prefers_dark() -> bool {
    dark_query().is_some_and(|m| m.matches())
}

/// Calls `f` whenever the preferred colour scheme changes, while the listener lives.
pub fn on_scheme_change(f: impl Fn() + 'static) -> Option<EventListener> {
    dark_query().map(|q| EventListener::new(&q, "change", move |_| f()))
}

/// Calls `f` whenever the page's fragment changes (a link pasted into the address bar, Back
/// and Forward), while the listeners live. `save` does not fire them.
pub fn on_location_change(f: impl Fn() + 'static) -> Vec<EventListener> {
    let Some(w) = window() else { return Vec::new() };
    let f = std::rc::Rc::new(f);
    ["hashchange", "popstate"]
        .into_iter()
        .map(|event| {
            let f = f.clone();
            EventListener::new(&w, event, move |_| f())
        })
        .collect()
}

/// What a key pressed outside a text box asks of the page's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryKey {
    Undo,
    Redo,
}

/// Calls `f` with Undo for Ctrl+Z (⌘Z) and Redo for Ctrl+Shift+Z or Ctrl+Y pressed anywhere
/// but in a box that edits text, whose own undo the browser keeps; the browser's default for
/// them is stopped. While the listener lives.
pub fn on_history_key(f: impl Fn(HistoryKey) + 'static) -> Option<EventListener> {
    let document = window().and_then(|w| w.document())?;
    Some(EventListener::new_with_options(
        &document,
        "keydown",
        gloo::events::EventListenerOptions::enable_prevent_default(),
        move |event| {
            let Some(key) = event.dyn_ref::<web_sys::KeyboardEvent>() else { return };
            if !(key.ctrl_key() || key.meta_key()) || key.alt_key() {
                return;
            }
            let asked = match (key.key().to_lowercase().as_str(), key.shift_key()) {
                ("z", false) => HistoryKey::Undo,
                ("z", true) | ("y", false) => HistoryKey::Redo,
                _ => return,
            };
            let in_text = event
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|e| {
                    let tag = e.tag_name().to_lowercase();
                    let kind = e.get_attribute("type").unwrap_or_default();
                    tag == "textarea"
                        || (tag == "input"
                            && !["range", "checkbox", "radio", "button"].contains(&kind.as_str()))
                        || e.get_attribute("contenteditable").is_some_and(|v| v != "false")
                });
            if in_text {
                return;
            }
            event.prevent_default();
            f(asked);
        },
    ))
}

/// Calls `f` whenever the window is resized, while the listener lives.
pub fn on_resize(f: impl Fn() + 'static) -> Option<EventListener> {
    window().map(|w| EventListener::new(&w, "resize", move |_| f()))
}

/// Offers an SVG drawing as a PNG image named `name`, rendered at twice its size.
pub fn download_png(name: &str, svg: &str) {
    let Ok(image) = web_sys::HtmlImageElement::new() else { return };
    let (name, drawn) = (name.to_string(), image.clone());
    let onload = wasm_bindgen::closure::Closure::once_into_js(move || {
        let (w, h) = (drawn.natural_width() * 2, drawn.natural_height() * 2);
        let document = window().and_then(|w| w.document());
        let canvas = document
            .and_then(|d| d.create_element("canvas").ok())
            .and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok());
        let Some(canvas) = canvas else { return };
        canvas.set_width(w);
        canvas.set_height(h);
        let context = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok());
        let Some(context) = context else { return };
        context
            .draw_image_with_html_image_element_and_dw_and_dh(&drawn, 0.0, 0.0, w as f64, h as f64)
            .ok();
        if let Ok(url) = canvas.to_data_url() {
            download_url(&name, &url).ok();
        }
    });
    image.set_onload(Some(onload.unchecked_ref()));
    let encoded = String::from(js_sys::encode_uri_component(svg));
    image.set_src(&format!("data:image/svg+xml;charset=utf-8,{encoded}"));
}

/// Where the chosen language is remembered.
const LANG_KEY: &str = "clusterplan.lang";

/// The language to open in: the one chosen here before, else the browser's.
pub fn preferred_lang() -> Lang {
    let stored = storage().and_then(|s| s.get_item(LANG_KEY).ok().flatten());
    let browser = window().and_then(|w| w.navigator().language());
    Lang::from_code(&stored.or(browser).unwrap_or_default())
}

/// Speaks `lang` from now on, remembers it and says so to the page (`<html lang>`).
pub fn speak(lang: Lang) {
    text::set_lang(lang);
    if let Some(s) = storage() {
        s.set_item(LANG_KEY, lang.code()).ok();
    }
    if let Some(root) = window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        root.set_attribute("lang", lang.code()).ok();
    }
}

/// Installs `lang`'s catalogue: from the page itself when it carries it (`standalone.html`),
/// else from the file beside the page (`text/<lang>.txt`).
pub async fn load_text(lang: Lang) -> Result<(), String> {
    if text::has(lang) {
        return Ok(());
    }
    load(lang.code().to_string()).await.and_then(|source| text::install(lang, source))
}

/// Adds `lang`'s explanations (`text/<lang>.help.txt`) and the catalog's sources
/// (`text/sources.txt`) to its catalogue; true once they are in.
pub async fn load_help(lang: Lang) -> bool {
    if text::has_key(lang, "help.mfu") {
        return true;
    }
    let help = load(format!("{}.help", lang.code())).await;
    let sources = load("sources".to_string()).await;
    help.and_then(|s| text::install(lang, s)).is_ok()
        && sources.and_then(|s| text::install(lang, s)).is_ok()
}

/// The text of the catalogue file `name`, from the page or beside it, kept for good.
async fn load(name: String) -> Result<&'static str, String> {
    let window = window().ok_or("no window")?;
    let inline = window
        .document()
        .and_then(|d| d.query_selector(&format!("script[data-text=\"{name}\"]")).ok().flatten())
        .and_then(|s| s.text_content());
    let source = match inline {
        Some(source) => source,
        None => fetch_text(&format!("text/{name}.txt")).await?,
    };
    Ok(Box::leak(source.into_boxed_str()))
}

/// The text of the file at `url` beside the page.
async fn fetch_text(url: &str) -> Result<String, String> {
    let window = window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(|_| "offline")?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "no response")?;
    if !response.ok() {
        return Err(format!("{url}: {}", response.status()));
    }
    let body = response.text().map_err(|_| "no text")?;
    JsFuture::from(body).await.map_err(|_| "no text")?.as_string().ok_or_else(|| "no text".into())
}

/// Where the user's own catalog is kept.
const CATALOG_KEY: &str = "clusterplan.catalog";

/// The user's own catalog as this browser keeps it (empty when there is none or it no longer
/// reads).
pub fn stored_catalog() -> UserCatalog {
    storage()
        .and_then(|s| s.get_item(CATALOG_KEY).ok().flatten())
        .and_then(|text| UserCatalog::parse(&text).ok())
        .unwrap_or_default()
}

/// Keeps the user's own catalog in this browser.
pub fn save_catalog(catalog: &UserCatalog) {
    if let Some(s) = storage() {
        s.set_item(CATALOG_KEY, &catalog.to_json()).ok();
    }
}

/// The width of the results column in CSS pixels (0 before the page is laid out).
pub fn column_width() -> u32 {
    let column = window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(".outputs").ok().flatten());
    column.map_or(0, |c| c.client_width().max(0) as u32)
}

/// Moves the keyboard's focus to the results, scrolling them into view.
pub fn focus_results() {
    focus_by_id("results");
}

/// Moves the focus to the form's control for the scenario `path` (`data-path`), else to the
/// first control under it (`calibration.0.measured` finds `calibration.0.measured.step_s`),
/// else to the nearest entry holding it (`calibration.0`), opening any folded section around
/// it and scrolling it into view.
pub fn focus_field(path: &str) {
    let Some(document) = window().and_then(|w| w.document()) else { return };
    let find = |selector: String| document.query_selector(&selector).ok().flatten();
    let quoted = |p: &str| p.replace('\\', "\\\\").replace('"', "\\\"");
    let mut found = find(format!("[data-path=\"{}\"]", quoted(path)))
        .or_else(|| find(format!("[data-path^=\"{}.\"]", quoted(path))));
    let mut at = path;
    while found.is_none() {
        let Some((parent, _)) = at.rsplit_once('.') else { break };
        at = parent;
        found = find(format!("[data-path=\"{}\"]", quoted(at)));
    }
    let Some(element) = found else { return };
    let mut up = element.parent_element();
    while let Some(e) = up {
        if e.tag_name().eq_ignore_ascii_case("details") {
            e.set_attribute("open", "").ok();
        }
        up = e.parent_element();
    }
    // The box the value is typed into before a slider or a button beside it.
    let first = |selector: &str| element.query_selector(selector).ok().flatten();
    let control = first("input[type=text], select, textarea")
        .or_else(|| first("input, button"))
        .unwrap_or_else(|| element.clone());
    if let Ok(control) = control.dyn_into::<web_sys::HtmlElement>() {
        control.focus().ok();
        control.scroll_into_view();
    }
}

/// Moves the focus to the element with `id` (one with `tabindex="-1"`) and scrolls it into
/// view.
pub fn focus_by_id(id: &str) {
    let found = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id));
    if let Some(element) = found.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        element.focus().ok();
        element.scroll_into_view();
    }
}
