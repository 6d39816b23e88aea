//! The answer's sections laid out, one component file for each of `app::sections` under the
//! same name: plain functions of what the worker worded and drew, with no rules of their own.

pub mod accuracy;
pub mod compare;
pub mod failures;
pub mod fleet;
pub mod insight;
pub mod launch;
pub mod plots;
pub mod search;
pub mod serving;
pub mod sizing;
pub mod timeline;
pub mod year;
