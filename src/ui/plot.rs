//! `<Plot>`: a canvas redrawn by `charts` whenever the estimate or colour scheme changes.
//! The only code that knows about `<canvas>`.

use std::rc::Rc;

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

use super::browser;
use super::state::Good;
use crate::charts::{self, OwnText, DARK, LIGHT};
use crate::model::sweep::ScalingPoint;

/// Which plot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotKind {
    /// Step-time breakdown.
    Step,
    /// Memory breakdown against capacity.
    Memory,
    /// Days and MFU against chip count.
    Scaling,
    /// Site power breakdown.
    Power,
    /// The run's cost breakdown.
    Cost,
    /// Site power and run cost against chip count.
    PlantScaling,
    /// Effective compute against chip count.
    Effective,
}

/// Properties of a plot.
#[derive(Properties, PartialEq)]
pub struct PlotProps {
    /// Which plot.
    pub kind: PlotKind,
    /// The result to draw.
    pub good: Rc<Good>,
    /// Draw in the dark colour scheme.
    pub dark: bool,
    /// `data-testid` of the canvas.
    pub testid: AttrValue,
    /// Accessible description.
    pub label: AttrValue,
    /// Canvas height in CSS pixels.
    #[prop_or(260)]
    pub height: u32,
    /// Changes whenever the window is resized, so the plot is redrawn at its new width.
    #[prop_or_default]
    pub width: u32,
}

/// A canvas showing one plot.
#[function_component(Plot)]
pub fn plot(props: &PlotProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        let kind = props.kind;
        let good = props.good.clone();
        let height = props.height;
        use_effect_with((good, kind, props.dark, props.width), move |(good, kind, dark, _)| {
            if let Some(element) = canvas.cast::<HtmlCanvasElement>() {
                // Drawn at the screen's density and as wide as its column, so text is sharp
                // and never stretched.
                let ratio = browser::pixel_ratio();
                let css_width = match element.client_width() {
                    w if w > 0 => w as f64,
                    _ => 720.0,
                };
                // Resizing a canvas clears it and invalidates the page's layout, which the next
                // plot's width read would then recompute: only resize when the size changed.
                let (w, h) =
                    ((css_width * ratio).round() as u32, (height as f64 * ratio).round() as u32);
                if element.width() != w {
                    element.set_width(w);
                }
                if element.height() != h {
                    element.set_height(h);
                }
                let theme = if *dark { DARK } else { LIGHT }.at_scale(ratio);
                draw(&element, *kind, good, &theme);
            }
        });
    }
    // Saves the plot as drawn, at the screen's density.
    let save = {
        let (canvas, name) = (canvas.clone(), format!("clusterplan-{}.png", props.testid));
        Callback::from(move |_| {
            let url = canvas.cast::<HtmlCanvasElement>().and_then(|c| c.to_data_url().ok());
            if let Some(url) = url {
                browser::download_url(&name, &url).ok();
            }
        })
    };
    html! {
        <figure class="plot-box">
            <canvas ref={canvas} width="720" height={props.height.to_string()} class="plot"
                style={format!("height: {}px", props.height)}
                role="img" aria-label={props.label.clone()} data-testid={props.testid.clone()} />
            <button type="button" class="save" data-testid={format!("{}-png", props.testid)} onclick={save}
                title="Save this plot as a PNG image">{ "PNG" }</button>
        </figure>
    }
}

fn draw(canvas: &HtmlCanvasElement, kind: PlotKind, good: &Good, theme: &charts::Theme) {
    let Some(inner) = CanvasBackend::with_canvas_object(canvas.clone()) else { return };
    let context = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok());
    let Some(context) = context else { return };
    // Text is measured with the canvas's own `measureText`, not plotters' page spans.
    let measure = move |text: &str, size: f64, font: &str| {
        context.set_font(font);
        let width = context.measure_text(text).map_or(0.0, |m| m.width());
        // A line box is about 1.15 font sizes tall, as the browser lays out a span.
        (width.ceil() as u32, (size * 1.15).ceil() as u32)
    };
    let backend = OwnText { backend: inner, measure };
    let root = backend.into_drawing_area();
    let result = match kind {
        PlotKind::Step => charts::draw_step(&root, &good.estimate, theme),
        PlotKind::Memory => charts::draw_memory(&root, &good.estimate, theme),
        PlotKind::Scaling => {
            let e = &good.estimate;
            let current = ScalingPoint::of(good.inputs.cluster.n_chips, e);
            charts::draw_scaling(&root, &good.scaling, Some(&current), theme)
        }
        PlotKind::Power => charts::draw_power(&root, &good.estimate, theme),
        PlotKind::Cost => charts::draw_cost(&root, &good.estimate, theme),
        PlotKind::PlantScaling => {
            let current = ScalingPoint::of(good.inputs.cluster.n_chips, &good.estimate);
            charts::draw_plant_scaling(&root, &good.scaling, Some(&current), theme)
        }
        PlotKind::Effective => {
            let current = ScalingPoint::of(good.inputs.cluster.n_chips, &good.estimate);
            charts::draw_effective(&root, &good.scaling, Some(&current), theme)
        }
    };
    if let Err(message) = result {
        web_sys::console::warn_1(&format!("plot could not be drawn: {message}").into());
    }
}
