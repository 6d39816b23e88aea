//! What is wrong with a field, typed: `resolve` says which problem and with which values, and
//! `text::input_error` words it in the language spoken (the page's, or English on the command
//! line), so no sentence is made below the page.

use crate::fabric::FabricError;
use crate::numbers::NumberError;

/// A kind of catalog entry, for an id that names none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Catalog {
    Model,
    Chip,
    ScaleUp,
    ScaleOut,
    System,
    Switch,
    Site,
    Job,
}

/// One thing wrong with one field.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// A key the format does not have.
    UnknownKey,
    /// A written number that does not read (`1,5`, empty).
    Number(NumberError),
    /// A value that is no number at all (`true`, `"fast"`), as written.
    NotANumber { got: String },
    /// Below the field's range, which starts at 0.
    Negative,
    /// Below 1 for a count.
    BelowOne,
    /// Zero or less where more than zero is needed.
    NotPositive,
    /// Below the field's plausible range.
    TooSmall { min: f64 },
    /// Above the field's plausible range.
    TooLarge { max: f64 },
    /// Missing.
    Required,
    /// Not in (0, 1].
    NotFraction,
    /// Not a whole number.
    NotWhole { got: f64 },
    /// Not `true` or `false`, as written.
    NotFlag { got: String },
    /// Not one of the names, as written.
    NotOneOf { names: Vec<&'static str>, got: String },
    /// Not a date written `YYYY-MM-DD` (on or after the year's start), as written.
    NotDate { got: String },
    /// Not a text id, as written.
    NotText { got: String },
    /// Neither a preset id nor an object, as written.
    NotPresetOrObject { got: String },
    /// Not an object, as written (`or_null`: null is allowed too).
    NotObject { got: String, or_null: bool },
    /// Set by another field instead.
    SetBy { other: &'static str },
    /// A catalog id that names nothing, with the known ones.
    Unknown { catalog: Catalog, id: String, known: String },
    /// A format version newer than this build reads.
    NewerVersion { version: u64, reads: u64 },
    /// KV heads that do not divide the attention heads.
    KvHeads { heads: u32, got: u32 },
    /// A sequence longer than any model is trained on.
    SequenceTooLong { tokens: u32 },
    /// More experts per token than experts.
    TopKExceedsExperts { experts: u32, got: u32 },
    /// As many leading dense layers as layers, or more.
    DenseLayers { layers: u32 },
    /// A fabric a custom chip needs named.
    RequiredForCustomChip,
    /// A ZeRO stage other than 0 to 3, as written.
    ZeroStage { got: String },
    /// A fabric that cannot be built as asked.
    Fabric(FabricError),
    /// Not a list, as written.
    NotList { got: String },
    /// A list longer than a page holds (`MAX_POOLS`, `MAX_SITES`).
    TooMany { most: usize, got: usize },
    /// More kinds of chip, or sites, than a year schedules (`year::MAX_CHIPS`, `MAX_SITES`).
    TooManyOf { catalog: Catalog, most: usize, got: usize },
    /// A list that should hold one entry per pool, and how many it holds.
    OnePerPool { pools: usize, got: usize },
    /// Not exactly one of these keys.
    OneOf { names: Vec<&'static str> },
    /// Measurements that put the chip's GEMM efficiency at a bound of what a chip can reach
    /// (`high`: its ceiling), `bound` of its peak: they or their plan are wrong.
    FitAtBound { high: bool, bound: f64 },
    /// A measured run the model cannot time.
    NotTimeable,
    /// A chip count the plan's degrees do not divide, with the usable counts around it.
    ChipsDoNotDivide { chips: u64, tp: u32, pp: u32, cp: u32, options: Vec<u64> },
}

/// What a one-click fix does, typed as the problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FixLabel {
    /// Use this many chips.
    Chips(u64),
    /// Keep the chips, leaving this many idle.
    KeepIdle { chips: u64, idle: u64 },
    /// Use a global batch of this many sequences.
    GlobalBatch(u64),
}
