//! Everything the page does except its markup, as plain Rust under one name: the page's
//! state and what a user can do to it (`state`, `edits`), its words beside the results
//! (`words`), the bricks every result is built of (`bricks`), the answer's sections, each
//! worded and drawn in the worker (`sections`), the wire they travel on and the saved file
//! (`wire`), and the jobs the worker runs in slices (`jobs`). No Yew and no browser, so native
//! tests read every message and every word as the page shows them; `ui` adapts it to the
//! browser.

pub mod bricks;
pub mod edits;
pub mod jobs;
pub mod sections;
pub mod state;
pub mod wire;
pub mod words;

pub use bricks::{Apply, Block, Card, Line, List, Picture, Row, Source, Table, View};
pub use sections::Drawn;
pub use wire::{saved_file, Ask, Status, Task, Update, PLAN_META};
