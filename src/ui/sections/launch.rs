//! "Run this plan": the plan as a framework's launch files, written and worded in the worker
//! (`app::sections::launch`) while the section is open, each file with a button that copies it. A plain
//! function, as the accuracy table is: a component would cost the page's download.

use yew::prelude::*;

use crate::launch::Framework;
use crate::text::t;
use crate::ui::job::{lines, Running};

/// What the section needs from the app: its job, the framework chosen, whether it is open,
/// and the copy of a file (its name and text).
pub struct LaunchProps<'a> {
    pub job: &'a Running,
    pub framework: &'a UseStateHandle<Framework>,
    pub open: &'a UseStateHandle<bool>,
    pub on_copy: &'a Callback<(String, String)>,
}

/// The section, folded until opened.
pub fn launch(p: LaunchProps) -> Html {
    let status = (*p.job.status).clone();
    let on_toggle = {
        let open = p.open.clone();
        // The section opens by the page's state alone: the browser's own toggle would undo
        // the state's when both act on one click.
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            open.set(!*open);
        })
    };
    let on_for = {
        let framework = p.framework.clone();
        Callback::from(move |e: Event| {
            let chosen = e.target_dyn_into::<web_sys::HtmlSelectElement>().map(|s| s.value());
            if let Some(f) = chosen.as_deref().and_then(Framework::of) {
                framework.set(f);
            }
        })
    };
    let chosen = **p.framework;
    html! {
        <details class="launch" data-testid="launch" open={**p.open}>
            <summary onclick={on_toggle}>{ t("launch.title") }</summary>
            <p class="reading">{ t("launch.hint") }</p>
            <label>{ t("launch.for") }{ " " }
                <select data-testid="launch-for" onchange={on_for}>
                    { for Framework::ALL.into_iter().map(|f| html! {
                        <option value={f.id()} selected={f == chosen}>{ t(&format!("launch.framework.{}", f.id())) }</option>
                    }) }
                </select>
            </label>
            { for status.errors.iter().map(|e| html! { <p class="bad" role="alert">{ e.clone() }</p> }) }
            if let Some(view) = &status.result {
                { lines(&view.lines) }
                { for view.blocks.iter().map(|b| {
                    let copied = (b.name.clone(), b.text.clone());
                    let onclick = p.on_copy.reform(move |_: MouseEvent| copied.clone());
                    html! {
                        <figure class="launch-file" data-testid={b.testid.clone()}>
                            <figcaption>
                                <code>{ b.name.clone() }</code>{ " " }
                                <button type="button" data-testid={format!("{}-copy", b.testid)} {onclick}>
                                    { t("launch.copy") }
                                </button>
                            </figcaption>
                            <pre><code>{ b.text.clone() }</code></pre>
                        </figure>
                    }
                }) }
            }
        </details>
    }
}
