//! `<Plot>`: a canvas redrawn by `charts` whenever the estimate or colour scheme changes.
//! The only code that knows about `<canvas>`.

use std::rc::Rc;

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::state::Good;
use crate::charts::{self, DARK, LIGHT};
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
    /// Canvas height in pixels.
    #[prop_or(260)]
    pub height: u32,
}

/// A canvas showing one plot.
#[function_component(Plot)]
pub fn plot(props: &PlotProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        let kind = props.kind;
        let good = props.good.clone();
        use_effect_with((good, kind, props.dark), move |(good, kind, dark)| {
            if let Some(element) = canvas.cast::<HtmlCanvasElement>() {
                draw(&element, *kind, good, if *dark { &DARK } else { &LIGHT });
            }
        });
    }
    html! {
        <canvas ref={canvas} width="720" height={props.height.to_string()} class="plot"
            role="img" aria-label={props.label.clone()} data-testid={props.testid.clone()} />
    }
}

fn draw(canvas: &HtmlCanvasElement, kind: PlotKind, good: &Good, theme: &charts::Theme) {
    let Some(backend) = CanvasBackend::with_canvas_object(canvas.clone()) else { return };
    let root = backend.into_drawing_area();
    let result = match kind {
        PlotKind::Step => charts::draw_step(&root, &good.estimate, theme),
        PlotKind::Memory => charts::draw_memory(&root, &good.estimate, theme),
        PlotKind::Scaling => {
            let e = &good.estimate;
            let current = ScalingPoint {
                chips: good.inputs.cluster.n_chips,
                train_days: e.train_days,
                mfu: e.mfu,
                fits: e.memory.fits,
            };
            charts::draw_scaling(&root, &good.scaling, Some(&current), theme)
        }
    };
    if let Err(message) = result {
        web_sys::console::warn_1(&format!("plot could not be drawn: {message}").into());
    }
}
