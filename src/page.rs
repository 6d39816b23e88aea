//! What the page says, as plain Rust: its words beside the results (`words`), the views of
//! every worker result, typed (`view`), and the wire they travel on (`wire`: `Task` and `Ask`
//! in, `Update` out, `Status` as the page keeps it). No Yew and no browser, so native tests
//! read every message and every word as the page shows them.

pub mod view;
pub mod wire;
pub mod words;

pub use view::{
    Apply, BestSplit, Card, Failures, Fleet, Line, List, Picture, Plots, PoolCard, Row, Source,
    Table, Total, View,
};
pub use wire::{Ask, Status, Task, Update};
