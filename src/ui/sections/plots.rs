//! One of `charts`' SVG plots inline, drawn by the worker as wide as the page's column (so its
//! text is never scaled down), with buttons that save it as the same SVG or as a PNG image of
//! it. A plain function: the page redraws every plot with each drawing, so a component's memo
//! would only add weight.

use yew::prelude::*;

use crate::app::words;
use crate::ui::browser;

pub use crate::charts::Kind;

/// One plot with its save buttons (`data-testid` `plot-<kind id>`): `svg`, the drawing the
/// worker made (`app::Task::Plots`), or an empty frame of the plot's height while it comes.
pub fn plot(svg: Option<&str>, kind: Kind) -> Html {
    let testid = format!("plot-{}", kind.id());
    let Some(svg) = svg.map(str::to_string) else {
        let height = format!("min-height: {}px", kind.height());
        return html! { <figure class="plot-box"><div class="plot" style={height} data-testid={testid}></div></figure> };
    };
    let name = |ext: &str| format!("clusterplan-{testid}.{ext}");
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
            <div class="plot" role="img" aria-label={words::t(&format!("plot.{}.aria", kind.id()))} data-testid={testid.clone()}>
                { Html::from_html_unchecked(AttrValue::from(svg)) }
            </div>
            <span class="save-as">
                <button type="button" class="save" data-testid={format!("{testid}-png")} onclick={save_png}
                    title={words::t("save.png")}>{ "PNG" }</button>
                <button type="button" class="save" data-testid={format!("{testid}-svg")} onclick={save_svg}
                    title={words::t("save.svg")}>{ "SVG" }</button>
            </span>
        </figure>
    }
}
