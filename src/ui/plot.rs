//! One of `charts`' SVG plots inline, drawn as wide as the page's column (so its text is never
//! scaled down) with buttons that save it as the same SVG or as a PNG image of it. A plain
//! function: the page redraws every plot with each result, so a component's memo would only
//! add weight.

use yew::prelude::*;

use super::browser;
use super::state::Good;
use super::text;
use crate::charts::{self, DARK, LIGHT};

pub use crate::charts::Kind as PlotKind;

/// How a plot is shown: which, in which scheme, how wide and tall (CSS pixels; 0 wide before
/// the column is measured), and the `data-testid` of the drawing.
pub struct PlotSpec {
    pub kind: PlotKind,
    pub dark: bool,
    pub width: u32,
    pub height: u32,
    pub testid: &'static str,
}

/// One plot with its save buttons.
pub fn plot(good: &Good, spec: PlotSpec) -> Html {
    let theme = if spec.dark { DARK } else { LIGHT };
    // The drawing sits inside a one-pixel border.
    let size = (if spec.width > 2 { spec.width - 2 } else { 720 }, spec.height);
    let chips = good.inputs.cluster.n_chips;
    let svg = charts::draw(spec.kind, &good.estimate, &good.scaling, chips, &theme, size);
    let name = |ext: &str| format!("clusterplan-{}.{ext}", spec.testid);
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
        <figure class="plot-box">
            <div class="plot" role="img" aria-label={text::t(&format!("plot.{}.aria", spec.kind.id()))} data-testid={spec.testid}>
                { Html::from_html_unchecked(AttrValue::from(svg)) }
            </div>
            <span class="save-as">
                <button type="button" class="save" data-testid={format!("{}-png", spec.testid)} onclick={save_png}
                    title={text::t("save.png")}>{ "PNG" }</button>
                <button type="button" class="save" data-testid={format!("{}-svg", spec.testid)} onclick={save_svg}
                    title={text::t("save.svg")}>{ "SVG" }</button>
            </span>
        </figure>
    }
}
