//! The page state is `app::state::State`; this file only adapts its reducer to Yew's `use_reducer`.

use std::rc::Rc;

use yew::Reducible;

pub use crate::app::state::{Action, Evaluation, Notice, State};

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        next.apply(action);
        Rc::new(next)
    }
}
