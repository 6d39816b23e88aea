//! What the page says, as plain Rust: its words beside the results (`words`), the views of
//! every worker result, typed (`view`), and the wire they travel on (`wire`: `Task` and `Ask`
//! in, `Update` out, `Status` as the page keeps it). No Yew and no browser, so native tests
//! read every message and every word as the page shows them.

pub mod view;
pub mod wire;
pub mod words;

pub use view::{
    Apply, BestSplit, Block, Card, Failures, Fleet, Line, List, Picture, Plots, PoolCard, Row,
    Source, Table, Total, View,
};
pub use wire::{Ask, Status, Task, Update};

/// The `<meta name>` under which a page saved as a file (*Save as file*) carries its plan: the
/// fragment of its link (`s=1.…`, with plan B of a comparison), which the page opens with when
/// its address has none.
pub const PLAN_META: &str = "clusterplan-plan";

/// The single-file page `html` (`standalone.html`, or the page as its head holds it) carrying
/// the plan `fragment`: any plan it carried replaced, the new one first in its head.
pub fn saved_file(html: &str, fragment: &str) -> String {
    let mark = format!("<meta name=\"{PLAN_META}\"");
    let mut html = html.to_string();
    while let Some(at) = html.find(&mark) {
        let end = html[at..].find('>').map_or(html.len(), |e| at + e + 1);
        html.replace_range(at..end, "");
    }
    let content = fragment.trim_start_matches('#').replace('&', "&amp;").replace('"', "&quot;");
    let meta = format!("{mark} content=\"{content}\">");
    match html.find("<head").and_then(|at| html[at..].find('>').map(|e| at + e + 1)) {
        Some(after) => html.insert_str(after, &meta),
        None => html.insert_str(0, &meta),
    }
    html
}
