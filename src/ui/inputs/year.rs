//! The year panel: off until the user starts a year from the plan, then the `year` section as
//! text to edit (`docs/scenario.md` names its keys), applied when it reads as an object; text
//! that does not is reported and changes nothing. Its answer is the *Year* section's.

use yew::prelude::*;

use super::PanelProps;
use crate::app::edits::{example_year, year_change, year_text};
use crate::app::state::{Action, Notice};
use crate::text::t;

pub fn year_panel(props: &PanelProps) -> Html {
    let scenario = &props.state.scenario;
    let text = year_text(scenario);
    let on = !text.is_empty();
    let start = {
        let example = example_year(scenario);
        props.on_set.reform(move |_: MouseEvent| vec![("year".to_string(), Some(example.clone()))])
    };
    let stop = props.on_set.reform(|_: MouseEvent| vec![("year".to_string(), None)]);
    let on_set = props.on_set.clone();
    let on_action = props.on_action.clone();
    let onchange = Callback::from(move |e: Event| {
        let typed = e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value();
        match year_change(&typed) {
            Ok(changes) => on_set.emit(changes),
            Err(why) => on_action.emit(Action::Notify(Notice::Text(why))),
        }
    });
    let rows = text.lines().count().clamp(6, 30).to_string();
    html! {
        <section class="panel" data-testid="year-panel">
            <h2>{ t("form.year") }</h2>
            <p class="hint">{ t("form.year-hint") }</p>
            if on {
                <label class="field wide">
                    <span>{ t("form.year-text") }</span>
                    <textarea class="code" data-testid="year-json" spellcheck="false" rows={rows}
                        value={text} {onchange} />
                </label>
                <button type="button" class="link" data-testid="year-off" onclick={stop}>{ t("form.year-off") }</button>
            } else {
                <button type="button" data-testid="year-on" onclick={start}>{ t("form.year-on") }</button>
            }
        </section>
    }
}
