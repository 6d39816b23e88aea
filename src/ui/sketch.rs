//! `<SketchView>`: the cluster drawing as a way to edit. The picture is the worker's
//! (`charts::draw_sketch`, with the plots); over it lie the parts, which tell their counts,
//! power and price below the drawing on hover and focus, and the knobs' − and + buttons, which
//! set the values they carry. Both are placed from `sketch::layout`, in the drawing's units.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use super::browser;
use super::state::Evaluation;
use crate::app::state::Change;
use crate::app::words;
use crate::sketch::{self, Place, HEIGHT, WIDTH};

/// Properties of the drawing.
#[derive(Properties, PartialEq)]
pub struct SketchProps {
    /// The result drawn.
    pub good: Rc<Evaluation>,
    /// The picture the worker drew, once it has.
    pub svg: Option<AttrValue>,
    /// The language spoken (the drawing's words are in it).
    pub lang: crate::text::Lang,
    /// Sets fields, as the form does.
    pub on_set: Callback<Vec<Change>>,
}

/// Where a place of the drawing lies over it, as shares of its size.
fn over(p: &Place) -> String {
    let pct = |x: f64, of: f64| 100.0 * x / of;
    format!(
        "left:{:.2}%;top:{:.2}%;width:{:.2}%;height:{:.2}%",
        pct(p.x, WIDTH),
        pct(p.y, HEIGHT),
        pct(p.w, WIDTH),
        pct(p.h, HEIGHT)
    )
}

/// The drawing with its save buttons and the line that tells the part under the pointer. Each
/// list sits in an element of its own: Yew matches unkeyed children from the end, so a list
/// that grows beside other children would replace them (and lose the focus).
#[function_component(SketchView)]
pub fn sketch_view(props: &SketchProps) -> Html {
    let info = use_state(String::new);
    let layout = use_memo((props.good.clone(), props.lang), |(good, _)| {
        sketch::sketch(&good.inputs, &good.estimate)
            .map(|s| sketch::layout(&s, &words::sketch_words()))
    });
    let Some(layout) = layout.as_ref() else {
        return html! {};
    };
    let tell = {
        let info = info.clone();
        move |e: &Event| {
            let target = e.target().and_then(|t| t.dyn_into::<Element>().ok());
            let part = target.and_then(|t| t.closest("[data-info]").ok().flatten());
            if let Some(part) = part {
                info.set(part.get_attribute("data-info").unwrap_or_default());
            }
        }
    };
    let onmouseover = {
        let tell = tell.clone();
        Callback::from(move |e: MouseEvent| tell(&e))
    };
    let onfocusin = Callback::from(move |e: FocusEvent| tell(&e));
    let spot = |s: &sketch::Spot| {
        html! {
            <div class={classes!("sk-part", s.boxed.then_some("sk-box"))} tabindex="0"
                data-info={s.info.clone()} title={s.info.clone()} style={over(&s.place)}>
                <span>{ s.info.clone() }</span>
            </div>
        }
    };
    let button = |b: &sketch::Button| {
        let key = format!("{}{}", b.path, b.sign);
        let onclick = b.to.map(|to| {
            let change = (b.path.to_string(), Some(to.into()));
            props.on_set.reform(move |_: MouseEvent| vec![change.clone()])
        });
        html! {
            <button type="button" class="sk-btn" {key} data-edit={b.path} data-to={b.to.map(|v| v.to_string())}
                aria-label={b.label.clone()} disabled={b.to.is_none()} style={over(&b.place)} {onclick}>
                { b.sign }
            </button>
        }
    };
    let saves = props.svg.clone().map(|svg| {
        let save_svg = {
            let svg = svg.clone();
            Callback::from(move |_| {
                browser::download("clusterplan-sketch.svg", &svg, "image/svg+xml").ok();
            })
        };
        let save_png =
            Callback::from(move |_| browser::download_png("clusterplan-sketch.png", &svg));
        html! {
            <span class="save-as">
                <button type="button" class="save" data-testid="sketch-png" onclick={save_png}
                    title={words::t("save.png")}>{ "PNG" }</button>
                <button type="button" class="save" data-testid="sketch-svg" onclick={save_svg}
                    title={words::t("save.svg")}>{ "SVG" }</button>
            </span>
        }
    });
    let picture = props.svg.clone().map(Html::from_html_unchecked);
    // A phone's form of the drawing: its parts as lines, its knobs as rows of large buttons.
    let row = |r: &sketch::KnobRow| {
        let step = |sign: &'static str, to: Option<f64>| {
            let onclick = to.map(|to| {
                let change = (r.knob.path.to_string(), Some(to.into()));
                props.on_set.reform(move |_: MouseEvent| vec![change.clone()])
            });
            html! {
                <button type="button" class="knob" disabled={to.is_none()} {onclick}
                    aria-label={format!("{}: {sign}", r.label)}>{ sign }</button>
            }
        };
        html! {
            <li key={r.knob.path}>
                <span class="knob-label">{ r.label.clone() }</span>
                { step("−", r.knob.down) }<strong>{ r.value.clone() }</strong>{ step("+", r.knob.up) }
            </li>
        }
    };
    html! {
        <section class="sketch-box">
            <h2>{ words::t("sketch.title") }</h2>
            <div class="sketch" data-testid="sketch" role="group" aria-label={layout.title.clone()}
                style={format!("aspect-ratio:{WIDTH}/{HEIGHT}")} {onmouseover} {onfocusin}>
                <div class="sk-picture" aria-hidden="true">{ for picture }</div>
                <div class="sk-layer">{ for layout.spots.iter().map(spot) }</div>
                <div class="sk-layer">{ for layout.buttons.iter().map(button) }</div>
            </div>
            <div class="sketch-phone" data-testid="sketch-list">
                <ul class="sketch-parts">{ for layout.spots.iter().map(|s| html! { <li>{ s.info.clone() }</li> }) }</ul>
                <ul class="sketch-knobs">{ for layout.rows.iter().map(row) }</ul>
            </div>
            <p class="sketch-info" data-testid="sketch-info" aria-live="polite">{ (*info).clone() }</p>
            if let Some(saves) = saves { { saves } }
        </section>
    }
}
