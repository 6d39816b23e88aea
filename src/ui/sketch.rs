//! `<SketchView>`: the cluster drawing (`crate::sketch`) inline, as a way to edit: its − and +
//! buttons carry the values they set, so this only dispatches them; hovering or focusing a
//! part shows its counts, power and price below the drawing.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use super::browser;
use super::state::Evaluation;
use super::text;
use crate::editor::Change;
use crate::sketch;

/// Properties of the drawing.
#[derive(Properties, PartialEq)]
pub struct SketchProps {
    /// The result drawn.
    pub good: Rc<Evaluation>,
    /// Draw in the dark colour scheme.
    pub dark: bool,
    /// The language spoken (the drawing's words are in it).
    pub lang: crate::text::Lang,
    /// Sets fields, as the form does.
    pub on_set: Callback<Vec<Change>>,
}

/// The element an event happened in, or its nearest ancestor, carrying `attribute`.
fn carrying(event: &Event, attribute: &str) -> Option<Element> {
    let target = event.target()?.dyn_into::<Element>().ok()?;
    target.closest(&format!("[{attribute}]")).ok().flatten()
}

/// The drawing with its save buttons and the line that tells the part under the pointer.
#[function_component(SketchView)]
pub fn sketch_view(props: &SketchProps) -> Html {
    let info = use_state(String::new);
    let root = use_node_ref();
    // The button last pressed, focused again once the drawing is redrawn around it.
    let pressed = use_mut_ref(|| None::<String>);
    let svg = use_memo((props.good.clone(), props.dark, props.lang), |(good, dark, _)| {
        sketch::sketch(&good.inputs, &good.estimate)
            .map(|s| sketch::svg(&s, &text::sketch_words(), *dark))
    });
    {
        let (root, pressed) = (root.clone(), pressed.clone());
        use_effect_with(svg.clone(), move |_| {
            let Some(label) = pressed.borrow_mut().take() else { return };
            let selector = format!("[aria-label=\"{label}\"][data-edit]");
            let found =
                root.cast::<Element>().and_then(|r| r.query_selector(&selector).ok().flatten());
            if let Some(button) = found.and_then(|b| b.dyn_into::<web_sys::SvgElement>().ok()) {
                button.focus().ok();
            }
        });
    }
    let press = {
        let (on_set, pressed) = (props.on_set.clone(), pressed.clone());
        move |event: &Event| {
            let Some(button) = carrying(event, "data-edit") else { return };
            let (Some(path), Some(to)) =
                (button.get_attribute("data-edit"), button.get_attribute("data-to"))
            else {
                return;
            };
            let Ok(value) = to.parse::<f64>() else { return };
            *pressed.borrow_mut() = button.get_attribute("aria-label");
            on_set.emit(vec![(path, Some(serde_json::json!(value)))]);
        }
    };
    let onclick = {
        let press = press.clone();
        Callback::from(move |e: MouseEvent| press(&e))
    };
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if matches!(e.key().as_str(), "Enter" | " ") && carrying(&e, "data-edit").is_some() {
            e.prevent_default();
            press(&e);
        }
    });
    let tell = {
        let info = info.clone();
        move |e: &Event| {
            if let Some(part) = carrying(e, "data-info") {
                info.set(part.get_attribute("data-info").unwrap_or_default());
            }
        }
    };
    let onmouseover = {
        let tell = tell.clone();
        Callback::from(move |e: MouseEvent| tell(&e))
    };
    let onfocusin = Callback::from(move |e: FocusEvent| tell(&e));
    let Some(svg) = (*svg).clone() else {
        return html! {};
    };
    let save_svg = {
        let svg = svg.clone();
        Callback::from(move |_| {
            browser::download("clusterplan-sketch.svg", &svg, "image/svg+xml").ok();
        })
    };
    let save_png = {
        let svg = svg.clone();
        Callback::from(move |_| browser::download_png("clusterplan-sketch.png", &svg))
    };
    let inline = svg.replacen("<svg ", "<svg data-testid=\"sketch\" ", 1);
    html! {
        <section class="sketch-box">
            <h2>{ text::t("sketch.title") }</h2>
            <div class="sketch" ref={root} {onclick} {onkeydown} {onmouseover} {onfocusin}>
                { Html::from_html_unchecked(AttrValue::from(inline)) }
            </div>
            <p class="sketch-info" data-testid="sketch-info" aria-live="polite">{ (*info).clone() }</p>
            <span class="save-as">
                <button type="button" class="save" data-testid="sketch-png" onclick={save_png}
                    title={text::t("save.png")}>{ "PNG" }</button>
                <button type="button" class="save" data-testid="sketch-svg" onclick={save_svg}
                    title={text::t("save.svg")}>{ "SVG" }</button>
            </span>
        </section>
    }
}
