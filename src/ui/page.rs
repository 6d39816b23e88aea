//! `App`: owns the state and lays out the page; `hooks` keeps it in step with the browser.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::file::callbacks::FileReader;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::browser::{self, ShareLink};
use super::catalog::{my_catalog, CatalogProps};
use super::fields::Change;
use super::hooks::{
    use_compare_plots, use_file_import, use_language, use_launch, use_measure, use_page_events,
    use_plots, use_url_sync,
};
use super::inputs::{
    chip_id, cluster_panel, facility_panel, measurements_panel, model_panel, parallelism_panel,
    pools_panel, serving_panel, training_panel, year_panel, PanelProps,
};
use super::results::results;
use super::sections::accuracy::accuracy;
use super::sections::compare::compare;
use super::sections::plots::plot;
use super::sections::search::SearchPanel;
use super::sketch::SketchView;
use super::state::{Action, Notice, State};
use crate::app::words;
use crate::charts::Kind;
use crate::format;
use crate::scenario::Scenario;
use crate::text::Lang;

/// The form's panels, in the order they stand.
const PANELS: [fn(&PanelProps) -> Html; 9] = [
    model_panel,
    training_panel,
    cluster_panel,
    pools_panel,
    parallelism_panel,
    measurements_panel,
    facility_panel,
    serving_panel,
    year_panel,
];

/// What the estimate assumes and leaves out, as docs/model.md's Assumptions and Limitations say:
/// the catalogue's `about.1` to `about.7`.
const ABOUT: [&str; 7] =
    ["about.1", "about.2", "about.3", "about.4", "about.5", "about.6", "about.7"];

/// The exported file's name: model, chip and size, so a folder of them reads like a list.
fn export_name(scenario: &Scenario) -> String {
    let model = scenario
        .raw(crate::scenario::paths::MODEL_PRESET)
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "custom-model".into());
    let chip = chip_id(scenario);
    let chips = scenario
        .raw(&crate::scenario::fields::CLUSTER_CHIPS)
        .map(|v| format::raw(&v))
        .unwrap_or_default();
    let clean = |s: &str| -> String {
        s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '-' }).collect()
    };
    format!("clusterplan-{}-{}-{}.json", clean(&model), clean(&chip), clean(&chips))
}

/// The planner page.
#[function_component(App)]
pub fn app() -> Html {
    let opening = use_memo((), |_| browser::initial_scenario());
    let state = use_reducer({
        let opening = opening.clone();
        move || {
            let notice = opening.1.clone().map(Notice::Text);
            match opening.0.clone() {
                (a, Some(b)) => State::pair(a, b, notice),
                (scenario, None) => State::new(scenario, notice),
            }
        }
    });
    let reader: Rc<RefCell<Option<FileReader>>> = use_mut_ref(|| None);
    // The user's own chips, systems, switches and models, kept in this browser.
    let user_catalog = use_state(browser::stored_catalog);
    let (catalog_name, catalog_file) = (use_node_ref(), use_node_ref());
    // A link that could not be read stays in the address bar until the first edit, so the
    // user can still copy or fix it.
    let keep_link = use_mut_ref(|| opening.2 == browser::Origin::BrokenLink);
    let language = use_language();
    let lang = language.lang;
    let seen = use_page_events(&state);
    let dark = seen.dark;
    use_url_sync(&state, keep_link);
    let plots = use_plots(&state.scenario, seen, lang);
    // The accuracy table, made in the search worker when first opened.
    let validation = super::job::use_job();
    let compare_plots = use_compare_plots(&state, dark);
    let launching = use_launch(&state.scenario);
    let (measure_job, on_logs) = use_measure(&state);
    let on_import = use_file_import(&state, reader.clone());

    // One callback for the whole life of the page, so fields whose values did not change skip
    // re-rendering.
    let on_set = use_callback(state.dispatcher(), |changes: Vec<Change>, dispatcher| {
        dispatcher.dispatch(Action::Set(changes))
    });
    let on_action =
        use_callback(state.dispatcher(), |action: Action, dispatcher| dispatcher.dispatch(action));
    let on_copy = {
        let state = state.clone();
        Callback::from(move |_| {
            let pinned = state.pinned.as_ref().map(|p| &p.scenario);
            let (link, local) = match browser::share_link(&state.scenario, pinned) {
                ShareLink::Web(link) => (link, false),
                ShareLink::Fragment(fragment) => (fragment, true),
            };
            // A file's own link opens nowhere else: the notice points to Save as file rather
            // than print a fragment of a thousand characters.
            let (done, refused) = if local {
                (
                    words::t("copy.local-done").to_string(),
                    words::t("copy.local-refused").to_string(),
                )
            } else {
                (words::t("copy.done").to_string(), words::fill("copy.refused", &[("link", &link)]))
            };
            copy_then_notify(&state, &link, done, refused);
        })
    };
    let on_save_file = {
        let state = state.clone();
        Callback::from(move |_| {
            let state = state.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let pinned = state.pinned.as_ref().map(|p| &p.scenario);
                let text = match browser::save_file(&state.scenario, pinned).await {
                    Ok(()) => words::t("save-file.done").to_string(),
                    Err(why) => words::fill("save-file.failed", &[("why", &why)]),
                };
                state.dispatch(Action::Notify(Notice::Text(text)));
            });
        })
    };
    let on_export = {
        let state = state.clone();
        Callback::from(move |_| {
            let json = state.scenario.to_pretty_json();
            if let Err(e) =
                browser::download(&export_name(&state.scenario), &json, "application/json")
            {
                let text = words::fill("export.failed", &[("why", &e)]);
                state.dispatch(Action::Notify(Notice::Text(text)));
            }
        })
    };
    // A real button opens the hidden file picker, so the keyboard reaches it too.
    let file_input = use_node_ref();
    let on_pick = {
        let file_input = file_input.clone();
        Callback::from(move |_| {
            if let Some(input) = file_input.cast::<HtmlInputElement>() {
                input.click();
            }
        })
    };
    let on_copy_text = {
        let state = state.clone();
        Callback::from(move |copied: String| {
            let (done, refused) =
                (words::t("copy.bom").into(), words::t("copy.not-allowed").into());
            copy_then_notify(&state, &copied, done, refused);
        })
    };
    let on_trace = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(good) = state.good.as_ref() else { return };
            let trace = crate::report::step_trace(good).to_string();
            if let Err(why) =
                browser::download("clusterplan-step.trace.json", &trace, "application/json")
            {
                state.dispatch(Action::Notify(Notice::Text(why)));
            }
        })
    };
    let on_copy_file = {
        let state = state.clone();
        Callback::from(move |(name, copied): (String, String)| {
            let done = words::fill("launch.copied", &[("name", &name)]);
            copy_then_notify(&state, &copied, done, words::t("copy.not-allowed").into());
        })
    };
    let on_reset = on_action.reform(|_| Action::Reset);
    let on_undo = on_action.reform(|_| Action::Undo);

    let panels = PanelProps {
        state: state.clone(),
        on_set: on_set.clone(),
        on_action: on_action.clone(),
        catalog: (*user_catalog).clone(),
        on_logs,
        measured: (*measure_job.status).clone(),
    };
    let good = state.good.clone();
    let notice = state.notice.as_ref();
    let summary = super::summary::summary(&state);
    // What the worker drew is shown as the plan's only while it is this scenario's; until the
    // drawing of an edit arrives, its sections are dimmed and say they are updating.
    let updating = plots.as_ref().is_some_and(|p| p.scenario.as_deref() != Some(&state.scenario));
    let drawn = |html: Html| drawn(updating, html);
    html! {
        <>
            // The first Tab stop: past the form to the results (the link's address would replace
            // the plan's, so it moves the focus itself).
            <a class="skip" href="#results" data-testid="skip-to-results" onclick={Callback::from(|e: MouseEvent| {
                e.prevent_default();
                browser::focus_results();
            })}>{ words::t("action.skip-to-results") }</a>
            // The second: to the plan search, past the inputs and the results.
            <a class="skip" href="#search" data-testid="skip-to-search" onclick={Callback::from(|e: MouseEvent| {
                e.prevent_default();
                browser::focus_by_id("search");
            })}>{ words::t("action.skip-to-search") }</a>
            <header class="top">
                <div class="title">
                    <h1>{ "clusterplan" }</h1>
                    <span class="tagline">{ words::t("page.tagline") }</span>
                </div>
                <nav class="actions">
                    <button onclick={on_copy} data-testid="copy-link">{ words::t("action.copy-link") }</button>
                    <button onclick={on_save_file} data-testid="save-file" title={words::t("action.save-file-title")}>{ words::t("action.save-file") }</button>
                    <button onclick={on_export} data-testid="export">{ words::t("action.export") }</button>
                    <button onclick={on_pick}>{ words::t("action.import") }</button>
                    <input ref={file_input} type="file" accept=".json,application/json" onchange={on_import}
                        data-testid="import" aria-label={words::t("action.import-file")} hidden=true />
                    if state.pinned.is_none() {
                        <button onclick={on_action.reform(|_| Action::Compare)} data-testid="compare"
                            title={words::t("action.compare-title")}>{ words::t("action.compare") }</button>
                    }
                    <button onclick={|_| { browser::unfold_all(); browser::print(); }} data-testid="report"
                        title={words::t("action.report-title")}>{ words::t("action.report") }</button>
                    <button onclick={on_reset} data-testid="reset">{ words::t("action.reset") }</button>
                    <button onclick={on_undo.clone()} data-testid="undo" disabled={state.undo.is_empty()}
                        title={words::t("action.undo-title")}>{ words::t("action.undo") }</button>
                    <select data-testid="lang" aria-label={words::t("action.language")} onchange={language.on_change}>
                        { for Lang::ALL.into_iter().map(|l| html! {
                            <option value={l.code()} selected={l == lang}>{ l.name() }</option>
                        }) }
                    </select>
                </nav>
            </header>
            { summary }
            { super::report::report_head(&state) }
            <div class="notice" data-testid="notice" role="status" aria-live="polite">
                if let Some(n) = notice {
                    { words::notice(n) }
                    if n.undoable() && !state.undo.is_empty() {
                        { " " }<button class="link" data-testid="notice-undo" onclick={on_undo}>{ words::t("action.undo") }</button>
                    }
                    if !state.redo.is_empty() {
                        { " " }<button class="link" data-testid="redo" onclick={on_action.reform(|_| Action::Redo)}>
                            { words::t("action.redo") }
                        </button>
                    }
                }
            </div>
            <main class="layout" data-drawn={plots.as_ref().is_some_and(|_| !updating).to_string()}>
                <div class="inputs">
                    { for PANELS.iter().map(|panel| panel(&panels)) }
                    { my_catalog(CatalogProps { state: &state, catalog: &user_catalog, on_action: &on_action,
                        name: &catalog_name, file: &catalog_file, reader: &reader }) }
                </div>
                <div class="outputs">
                    { compare(&state, &on_action, &compare_plots.status) }
                    { drawn(super::sections::fleet::headline(plots.as_ref().and_then(|p| p.fleet.as_ref()))) }
                    { results(&state, &on_copy_text) }
                    { drawn(super::sections::serving::serving(plots.as_ref().and_then(|p| p.served.as_ref()), &on_action)) }
                    { drawn(super::sections::failures::failures(plots.as_ref().and_then(|p| p.failures.as_ref()))) }
                    { drawn(super::sections::fleet::fleet(plots.as_ref().and_then(|p| p.fleet.as_ref()), &on_action)) }
                    { drawn(super::sections::year::year(plots.as_ref().and_then(|p| p.year.as_ref()), &on_action)) }
                    if let Some(good) = good.clone() {
                        { drawn(html! { <SketchView {good} lang={lang} on_set={on_set.clone()}
                            svg={plots.as_ref().and_then(|p| p.sketch.as_ref().map(|s| AttrValue::from(s.clone())))} /> }) }
                    }
                    <SearchPanel state={state.clone()} on_action={on_action} dark={dark} width={seen.width} lang={lang} />
                    { super::sections::launch::launch(super::sections::launch::LaunchProps {
                        job: &launching.job, framework: &launching.framework, open: &launching.open, on_copy: &on_copy_file }) }
                    if let Some(good) = good {
                        <div class={classes!("plots", (!good.estimate.feasible).then_some("stale"), updating.then_some("updating"))}
                            data-updating={updating.to_string()} aria-busy={updating.to_string()}>
                            if updating { <p class="updating-note" data-testid="updating">{ words::t("results.updating") }</p> }
                            { for Kind::ALL.into_iter().map(|kind| {
                                plot(plots.as_ref().and_then(|p| p.plots.get(kind)), kind)
                            }) }
                            { super::sections::timeline::timeline(plots.as_ref().map(|p| &p.timeline), on_trace) }
                            { super::sections::insight::insight(plots.as_ref().map(|p| &p.insights)) }
                        </div>
                    }
                    <footer class="about">
                        { accuracy(&validation) }
                        <details>
                            <summary>{ words::t("about.title") }</summary>
                            <ul>
                                { for ABOUT.iter().map(|key| html! { <li>{ words::t(key) }</li> }) }
                            </ul>
                        </details>
                        { words::t("about.private") }
                    </footer>
                </div>
            </main>
        </>
    }
}

/// A section the worker draws, dimmed and marked as updating while its drawing is of an
/// earlier scenario than the page's (`data-updating`, read by the page's tests).
/// Always wrapped, so a component inside keeps its state as the mark comes and goes.
fn drawn(updating: bool, html: Html) -> Html {
    let empty = html == Html::default();
    html! {
        <div class={classes!("drawn", updating.then_some("updating"))} data-updating={updating.to_string()}
            aria-busy={updating.to_string()}>
            if updating && !empty {
                <p class="updating-note" data-testid="updating">{ words::t("results.updating") }</p>
            }
            { html }
        </div>
    }
}

/// Copies `text` to the clipboard, then says `done`, or `refused` when the browser will not.
fn copy_then_notify(state: &UseReducerHandle<State>, text: &str, done: String, refused: String) {
    let Some(promise) = browser::copy(text) else {
        state.dispatch(Action::Notify(Notice::Text(refused)));
        return;
    };
    let state = state.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let message = match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => done,
            Err(_) => refused,
        };
        state.dispatch(Action::Notify(Notice::Text(message)));
    });
}
