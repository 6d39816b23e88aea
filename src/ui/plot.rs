//! `<Plot>`: a canvas redrawn by `charts` whenever the estimate or colour scheme changes.
//! The only code that knows about `<canvas>`.

use std::rc::Rc;

use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

use super::browser;
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
    /// Site power breakdown.
    Power,
    /// The run's cost breakdown.
    Cost,
    /// Site power and run cost against chip count.
    PlantScaling,
    /// Effective compute against chip count.
    Effective,
    /// Days against chip count for each chip sized (`PlotProps::curves`).
    Sizing,
}

/// What a sizing plot draws: one curve per chip, and the deadline.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SizingCurves {
    /// One per chip.
    pub curves: Vec<charts::Curve>,
    /// The deadline, days.
    pub deadline_days: f64,
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
    /// The curves of a sizing plot.
    #[prop_or_default]
    pub curves: Option<Rc<SizingCurves>>,
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
        let curves = props.curves.clone();
        use_effect_with(
            (good, kind, props.dark, props.width, curves),
            move |(good, kind, dark, _, curves)| {
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
                    let (w, h) = (
                        (css_width * ratio).round() as u32,
                        (height as f64 * ratio).round() as u32,
                    );
                    if element.width() != w {
                        element.set_width(w);
                    }
                    if element.height() != h {
                        element.set_height(h);
                    }
                    let theme = if *dark { DARK } else { LIGHT }.at_scale(ratio);
                    draw(&element, *kind, good, curves.as_deref(), &theme);
                }
            },
        );
    }
    html! {
        <canvas ref={canvas} width="720" height={props.height.to_string()} class="plot"
            style={format!("height: {}px", props.height)}
            role="img" aria-label={props.label.clone()} data-testid={props.testid.clone()} />
    }
}

/// The canvas backend, measuring text with the canvas's own `measureText`. Plotters' browser
/// font support measures every label with a span in the page, forcing a layout of the whole
/// page each time; that cost more than drawing the plots.
struct Measured {
    canvas: CanvasBackend,
    context: CanvasRenderingContext2d,
}

type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;
type Drawn = Result<(), DrawingErrorKind<CanvasError>>;

impl DrawingBackend for Measured {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.canvas.get_size()
    }
    fn ensure_prepared(&mut self) -> Drawn {
        self.canvas.ensure_prepared()
    }
    fn present(&mut self) -> Drawn {
        self.canvas.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn {
        self.canvas.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn {
        self.canvas.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        self.canvas.draw_rect(a, b, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        self.canvas.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn {
        self.canvas.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn {
        self.canvas.fill_polygon(vert, style)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Drawn {
        self.canvas.draw_text(text, style, pos)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        let size = style.size();
        self.context.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            size,
            style.family().as_str()
        ));
        let width = self.context.measure_text(text).map_or(0.0, |m| m.width());
        // A line box is about 1.15 font sizes tall, as the browser lays out a span.
        Ok((width.ceil() as u32, (size * 1.15).ceil() as u32))
    }
}

fn draw(
    canvas: &HtmlCanvasElement,
    kind: PlotKind,
    good: &Good,
    curves: Option<&SizingCurves>,
    theme: &charts::Theme,
) {
    let Some(inner) = CanvasBackend::with_canvas_object(canvas.clone()) else { return };
    let context = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok());
    let Some(context) = context else { return };
    let backend = Measured { canvas: inner, context };
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
        PlotKind::Sizing => {
            let c = curves.cloned().unwrap_or_default();
            charts::draw_sizing(&root, &c.curves, c.deadline_days, theme)
        }
    };
    if let Err(message) = result {
        web_sys::console::warn_1(&format!("plot could not be drawn: {message}").into());
    }
}
