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
use super::worker::Runner;
use crate::charts::{self, OwnText, DARK, LIGHT};
use crate::jobs::Task;
use crate::scenario::Scenario;

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
    /// The scenario drawn, which the worker draws again as SVG for saving.
    pub scenario: Rc<Scenario>,
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
    // Saves the plot as SVG, drawn by the search worker (the page carries no SVG drawing).
    let worker = use_mut_ref(|| None::<Runner>);
    let save_svg = {
        let (scenario, kind, dark) = (props.scenario.clone(), props.kind, props.dark);
        let name = format!("clusterplan-{}.svg", props.testid);
        Callback::from(move |_| {
            let task = Task::Plot { scenario: (*scenario).clone(), kind, dark };
            let (name, done) = (name.clone(), worker.clone());
            let on_update = Callback::from(move |text: String| {
                let update: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
                if let Some(svg) = update["result"]["svg"].as_str() {
                    browser::download(&name, svg, "image/svg+xml").ok();
                }
                if update["done"] != false {
                    let done = done.clone();
                    gloo::timers::callback::Timeout::new(0, move || drop(done.borrow_mut().take()))
                        .forget();
                }
            });
            *worker.borrow_mut() = Runner::start(&task, on_update).ok();
        })
    };
    html! {
        <figure class="plot-box">
            <canvas ref={canvas} width="720" height={props.height.to_string()} class="plot"
                style={format!("height: {}px", props.height)}
                role="img" aria-label={props.label.clone()} data-testid={props.testid.clone()} />
            <span class="save-as">
                <button type="button" class="save" data-testid={format!("{}-png", props.testid)} onclick={save}
                    title="Save this plot as a PNG image">{ "PNG" }</button>
                <button type="button" class="save" data-testid={format!("{}-svg", props.testid)} onclick={save_svg}
                    title="Save this plot as an SVG drawing">{ "SVG" }</button>
            </span>
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
    let result = charts::draw(
        &root,
        kind,
        &good.estimate,
        &good.scaling,
        good.inputs.cluster.n_chips,
        theme,
    );
    if let Err(message) = result {
        web_sys::console::warn_1(&format!("plot could not be drawn: {message}").into());
    }
}
