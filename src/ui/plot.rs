//! `<Plot>`: one of `charts`' SVG plots inline, drawn as wide as its column (so its text is
//! never scaled down) and redrawn whenever the estimate, the colour scheme or the window's
//! width changes; it saves as the same SVG or as a PNG image of it.

use std::rc::Rc;

use web_sys::Element;
use yew::prelude::*;

use super::browser;
use super::state::Good;
use super::text;
use crate::charts::{self, DARK, LIGHT};
use crate::text::Lang;

pub use crate::charts::Kind as PlotKind;

/// Properties of a plot.
#[derive(Properties, PartialEq)]
pub struct PlotProps {
    /// Which plot.
    pub kind: PlotKind,
    /// The result to draw.
    pub good: Rc<Good>,
    /// Draw in the dark colour scheme.
    pub dark: bool,
    /// `data-testid` of the drawing.
    pub testid: AttrValue,
    /// The language spoken (the plot is redrawn in it).
    pub lang: Lang,
    /// Height in CSS pixels.
    #[prop_or(260)]
    pub height: u32,
    /// Changes whenever the window is resized, so the plot is redrawn at its new width.
    #[prop_or_default]
    pub width: u32,
}

/// One plot with its save buttons.
#[function_component(Plot)]
pub fn plot(props: &PlotProps) -> Html {
    let figure = use_node_ref();
    let column = use_state_eq(|| 0u32);
    {
        let (figure, column) = (figure.clone(), column.clone());
        use_effect_with(props.width, move |_| {
            if let Some(width) = figure.cast::<Element>().map(|f| f.client_width()) {
                if width > 0 {
                    column.set(width as u32);
                }
            }
        });
    }
    let size = (if *column > 0 { *column } else { 720 }, props.height);
    let svg = use_memo(
        (props.good.clone(), props.kind, props.dark, size, props.lang),
        |(good, kind, dark, size, _)| {
            let theme = if *dark { DARK } else { LIGHT };
            charts::draw(
                *kind,
                &good.estimate,
                &good.scaling,
                good.inputs.cluster.n_chips,
                &theme,
                *size,
            )
        },
    );
    let name = |ext: &str| format!("clusterplan-{}.{ext}", props.testid);
    let save_png = {
        let (svg, name) = (svg.clone(), name("png"));
        Callback::from(move |_| browser::download_png(&name, &svg))
    };
    let save_svg = {
        let (svg, name) = (svg.clone(), name("svg"));
        Callback::from(move |_| {
            browser::download(&name, &svg, "image/svg+xml").ok();
        })
    };
    html! {
        <figure class="plot-box" ref={figure}>
            <div class="plot" role="img" aria-label={text::t(&format!("plot.{}.aria", props.kind.id()))} data-testid={props.testid.clone()}>
                { Html::from_html_unchecked(AttrValue::from((*svg).clone())) }
            </div>
            <span class="save-as">
                <button type="button" class="save" data-testid={format!("{}-png", props.testid)} onclick={save_png}
                    title={text::t("save.png")}>{ "PNG" }</button>
                <button type="button" class="save" data-testid={format!("{}-svg", props.testid)} onclick={save_svg}
                    title={text::t("save.svg")}>{ "SVG" }</button>
            </span>
        </figure>
    }
}
