//! "My catalog": the user's own chips, systems, switches and models
//! (`scenario::user_catalog`), kept in the browser. Save what the plan now holds under a name,
//! use an entry again (one undoable change, as a found plan is applied), delete it, and save or
//! read the whole catalog as JSON for another browser or `clusterplan predict --catalog`.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::file::callbacks::FileReader;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::browser;
use super::state::{Action, Notice, State};
use crate::scenario::user_catalog::{Entry, Kind, UserCatalog};
use crate::text::{fill, t};

/// What the catalog section works with.
pub struct CatalogProps<'a> {
    pub state: &'a State,
    pub catalog: &'a UseStateHandle<UserCatalog>,
    pub on_action: &'a Callback<Action>,
    /// The name box and the hidden file picker.
    pub name: &'a NodeRef,
    pub file: &'a NodeRef,
    /// The file being read, kept alive until it is.
    pub reader: &'a Rc<RefCell<Option<FileReader>>>,
}

/// Keeps `next` on the page and in the browser.
fn keep(catalog: &UseStateHandle<UserCatalog>, next: UserCatalog) {
    browser::save_catalog(&next);
    catalog.set(next);
}

/// The catalog section: a plain function, as the panels are.
pub fn my_catalog(p: CatalogProps) -> Html {
    let save = |kind: Kind| {
        let (catalog, name, on_action) = (p.catalog.clone(), p.name.clone(), p.on_action.clone());
        let scenario = p.state.scenario.clone();
        Callback::from(move |_| {
            let typed = name.cast::<HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
            let notice = match Entry::capture(kind, &typed, &scenario) {
                Some(entry) => {
                    let mut next = (*catalog).clone();
                    let saved = entry.name.clone();
                    // The plan now uses the entry as saved, under its name.
                    on_action.emit(Action::Set(
                        kind.paths()
                            .iter()
                            .map(|p| (p.to_string(), entry.fields.get(*p).cloned()))
                            .collect(),
                    ));
                    next.put(entry);
                    keep(&catalog, next);
                    fill("catalog.saved", &[("name", &saved)])
                }
                None if typed.trim().is_empty() => t("catalog.name-first").into(),
                None => t(&format!("catalog.nothing.{}", kind.id())).into(),
            };
            on_action.emit(Action::Notify(Notice::Text(notice)));
        })
    };
    let export = {
        let catalog = p.catalog.clone();
        Callback::from(move |_| {
            browser::download("clusterplan-catalog.json", &catalog.to_json(), "application/json")
                .ok();
        })
    };
    let pick = {
        let file = p.file.clone();
        Callback::from(move |_| {
            if let Some(input) = file.cast::<HtmlInputElement>() {
                input.click();
            }
        })
    };
    let import = {
        let (catalog, on_action, reader) =
            (p.catalog.clone(), p.on_action.clone(), p.reader.clone());
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<HtmlInputElement>() else { return };
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            input.set_value("");
            let (catalog, on_action) = (catalog.clone(), on_action.clone());
            let file = gloo::file::File::from(file);
            let task = gloo::file::callbacks::read_as_text(&file, move |text| {
                let notice = match UserCatalog::parse(&text.unwrap_or_default()) {
                    Ok(read) => {
                        let mut next = (*catalog).clone();
                        let count = read.entries.len();
                        read.entries.into_iter().for_each(|e| next.put(e));
                        keep(&catalog, next);
                        fill("catalog.imported", &[("n", &count.to_string())])
                    }
                    Err(why) => fill("catalog.refused", &[("why", &why.to_string())]),
                };
                on_action.emit(Action::Notify(Notice::Text(notice)));
            });
            *reader.borrow_mut() = Some(task);
        })
    };
    let rows = p.catalog.entries.iter().map(|entry| {
        let in_use = entry.in_use(&p.state.scenario);
        let (on_action, scenario, e) = (p.on_action.clone(), p.state.scenario.clone(), entry.clone());
        let apply = Callback::from(move |_| {
            let scenario = Box::new(e.apply(&scenario));
            on_action.emit(Action::Apply { label: e.name.clone(), scenario });
        });
        let (catalog, kind, name) = (p.catalog.clone(), entry.kind, entry.name.clone());
        let delete = Callback::from(move |_| {
            let mut next = (*catalog).clone();
            next.remove(kind, &name);
            keep(&catalog, next);
        });
        html! {
            <tr data-testid="catalog-entry">
                <td>{ t(&format!("catalog.kind.{}", entry.kind.id())) }</td>
                <td>{ entry.name.clone() }</td>
                <td>
                    <button type="button" data-testid="catalog-use" onclick={apply} disabled={in_use}
                        aria-label={fill("catalog.use-named", &[("name", &entry.name)])}>
                        { t(if in_use { "catalog.in-use" } else { "catalog.use" }) }</button>
                    <button type="button" data-testid="catalog-delete" onclick={delete}
                        aria-label={fill("catalog.delete-named", &[("name", &entry.name)])}>{ t("catalog.delete") }</button>
                </td>
            </tr>
        }
    });
    html! {
        <details class="panel my-catalog" data-testid="my-catalog">
            <summary>{ fill("catalog.title", &[("n", &p.catalog.entries.len().to_string())]) }</summary>
            <p class="job-hint">{ t("catalog.hint") }</p>
            <label>{ t("catalog.name") }{ " " }
                <input type="text" ref={p.name.clone()} data-testid="catalog-name" size="16" /></label>
            <div class="catalog-save">
                { for Kind::ALL.into_iter().map(|kind| html! {
                    <button type="button" data-testid={format!("catalog-save-{}", kind.id())} onclick={save(kind)}>
                        { t(&format!("catalog.save.{}", kind.id())) }</button>
                }) }
            </div>
            if !p.catalog.entries.is_empty() {
                <table class="job-results"><tbody>{ for rows }</tbody></table>
            }
            <button type="button" data-testid="catalog-export" onclick={export}>{ t("catalog.export") }</button>
            <button type="button" onclick={pick}>{ t("catalog.import") }</button>
            <input ref={p.file.clone()} type="file" accept=".json,application/json" data-testid="catalog-import"
                onchange={import} hidden=true aria-label={t("catalog.import")} />
        </details>
    }
}
