//! The model's errors by regime and over every row, as plain figures: what `range` builds a
//! headline's range from and what the generated `digest` carries to the page.

/// The model's errors in one regime.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Sources (papers' tables, repositories' benchmark files) with a row in the regime.
    pub sources: u32,
    /// Published runs with a row in the regime.
    pub runs: u32,
    /// Runs with a row within its tolerance.
    pub runs_within: u32,
    /// Rows.
    pub rows: u32,
    /// Mean time error, each row predicted with its source left out of the fit.
    pub mean: f64,
    /// Standard deviation of that error (0 with one row).
    pub sd: f64,
    /// The most chips a row used.
    pub max_chips: u32,
}

/// One regime's statistics as the digest keeps them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Digested {
    /// The chip family.
    pub family: &'static str,
    /// The software stack's id.
    pub stack: &'static str,
    /// A mixture of experts.
    pub moe: bool,
    /// The errors.
    pub stats: Stats,
}

/// Over every row: their count, mean and spread; the spread of the families' means; and how
/// much the error drifts per doubling of the cluster.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pooled {
    /// Rows.
    pub rows: u32,
    /// Mean time error.
    pub mean: f64,
    /// Standard deviation of the time error.
    pub sd: f64,
    /// Standard deviation of the families' mean errors.
    pub between_families: f64,
    /// Least-squares slope of the time error against log2 of the chips, absolute.
    pub drift_per_doubling: f64,
    /// Standard deviation of the time error around its run's mean, over runs with several
    /// rows: what is left of the error once a measurement of the same chip and software has
    /// removed its bias.
    pub within_run: f64,
    /// How many spreads a range spans on each side of its centre: the 80th percentile of the
    /// rows' errors from their centres in spreads, each row's centre and spread made without
    /// its source (`width`), so that four in five published values fall inside; 0 until
    /// worked out, which stands for a normal distribution's 1.28.
    pub width: f64,
}
