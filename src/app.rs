//! Everything the page does except its markup, as plain Rust under one name: the page's
//! state and what a user can do to it (`state`, `edits`), its words beside the results
//! (`words`), the views of every worker result, typed (`view`), the wire they travel on and
//! the saved file (`wire`), and the jobs the worker runs in slices (`jobs`). No Yew and no
//! browser, so native tests read every message and every word as the page shows them; `ui`
//! adapts it to the browser.

pub mod edits;
pub mod jobs;
pub mod state;
pub mod view;
pub mod wire;
pub mod words;

pub use view::{
    Apply, BestSplit, Block, Card, Failures, Fleet, Line, List, Picture, Plots, PoolCard, Row,
    Source, Table, Total, View,
};
pub use wire::{saved_file, Ask, Status, Task, Update, PLAN_META};
