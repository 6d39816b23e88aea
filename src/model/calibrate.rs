//! Calibration from the user's own measurements: the chip's GEMM efficiency that best explains
//! the step times measured on runs of the user's own.
//!
//! The catalog sets each chip's `matmul_efficiency` against published runs; a user who ran a
//! small job on their own chips and software (MindSpeed's auto-tuning profiles two nodes before
//! planning a large cluster the same way) sets it against theirs instead. One figure is fitted,
//! the one the catalog fits: communication, memory and the schedule stay as the model prices
//! them, so the fit transfers to another plan, size and fabric as the model's mechanisms do.

use super::{estimate, Estimate, Inputs};

/// Lowest GEMM efficiency the fit considers: below it no training stack runs.
pub const MIN_EFFICIENCY: f64 = 0.02;
/// Highest: the chip's peak.
pub const MAX_EFFICIENCY: f64 = 1.0;
/// Golden-section steps: the bracket shrinks to 0.618^60 of its width, far below any
/// measurement's precision.
const STEPS: usize = 60;

/// What the user measured on one run: one of a step's time, the run's throughput or its MFU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Measured {
    /// Seconds per optimizer step.
    StepS(f64),
    /// Tokens per second of the whole run.
    TokensPerS(f64),
    /// Model FLOPs utilisation, in this tool's convention (`Estimate::mfu`).
    Mfu(f64),
}

impl Measured {
    /// The measured step time, given the model's estimate of the same plan: a throughput or an
    /// MFU fixes the step time, since the tokens and FLOPs of a step do not depend on speed.
    pub fn step_s(self, e: &Estimate) -> f64 {
        match self {
            Measured::StepS(s) => s,
            Measured::TokensPerS(x) => e.step_s * e.tokens_per_s / x,
            Measured::Mfu(x) => e.step_s * e.mfu / x,
        }
    }

    /// The measured figure.
    pub fn value(self) -> f64 {
        match self {
            Measured::StepS(x) | Measured::TokensPerS(x) | Measured::Mfu(x) => x,
        }
    }
}

/// A run the user measured: its inputs (with the chip as the catalog describes it) and what
/// was measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// The run's plan.
    pub inputs: Inputs,
    /// What was measured.
    pub measured: Measured,
}

/// How one run compares with the model, before and after the fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Residual {
    /// Measured step time, seconds.
    pub measured_s: f64,
    /// The model's step time with the catalog's efficiency, seconds.
    pub before_s: f64,
    /// The model's step time with the fitted efficiency, seconds.
    pub after_s: f64,
    /// The MFU the measurement shows: the model's FLOPs of a step over the measured time.
    pub mfu: f64,
    /// Whether the run's GEMMs are BF16, as that MFU's peak is.
    pub bf16: bool,
}

impl Residual {
    /// Relative error of the fitted model's step time (positive: the model is slow).
    pub fn error(&self) -> f64 {
        self.after_s / self.measured_s - 1.0
    }

    /// Relative error of the catalog's model.
    pub fn error_before(&self) -> f64 {
        self.before_s / self.measured_s - 1.0
    }
}

/// The fitted efficiency and how well it explains the runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The catalog's GEMM efficiency of the chip.
    pub catalog: f64,
    /// The fitted GEMM efficiency.
    pub efficiency: f64,
    /// Each run, in the order given.
    pub residuals: Vec<Residual>,
    /// Root mean square of the fitted model's log errors: how far one efficiency is from
    /// explaining every run (0 for a single run the fit meets).
    pub rms: f64,
    /// The fit stopped at a bound: the runs ask for an efficiency below `MIN_EFFICIENCY` or
    /// above the chip's peak, so something besides the GEMM rate differs from the model.
    pub at_bound: bool,
    /// Chips of each run, for judging how far a plan is from what was measured.
    pub chips: Vec<u32>,
}

fn with_efficiency(inputs: &Inputs, efficiency: f64) -> Inputs {
    let mut inputs = *inputs;
    inputs.cluster.chip.matmul_efficiency = efficiency;
    inputs
}

/// Sum of squared log errors of the runs' step times at `efficiency`, given each run's
/// measured step time.
fn loss(runs: &[(Inputs, f64)], efficiency: f64) -> f64 {
    runs.iter()
        .map(|(inputs, measured)| {
            let predicted = estimate(&with_efficiency(inputs, efficiency)).step_s;
            (predicted / measured).ln().powi(2)
        })
        .sum()
}

/// The GEMM efficiency that best explains `runs` (least squares of the log step-time errors,
/// by golden-section search over log efficiency), or `None` when there is no run, or a run
/// whose measured or estimated step time is not a positive number (`timeable`).
pub fn fit(runs: &[Run]) -> Option<Fit> {
    let catalog = runs.first()?.inputs.cluster.chip.matmul_efficiency;
    let measured: Option<Vec<(Inputs, f64)>> =
        runs.iter().map(|run| timeable(run).map(|step| (run.inputs, step))).collect();
    let measured = measured?;
    let (mut lo, mut hi) = (MIN_EFFICIENCY.ln(), MAX_EFFICIENCY.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
    let (mut fa, mut fb) = (loss(&measured, a.exp()), loss(&measured, b.exp()));
    for _ in 0..STEPS {
        if fa <= fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - ratio * (hi - lo);
            fa = loss(&measured, a.exp());
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + ratio * (hi - lo);
            fb = loss(&measured, b.exp());
        }
    }
    let efficiency = (0.5 * (lo + hi)).exp().clamp(MIN_EFFICIENCY, MAX_EFFICIENCY);
    let residuals: Vec<Residual> = measured
        .iter()
        .map(|(inputs, measured_s)| {
            let before = estimate(inputs);
            let bf16 = matches!(
                inputs.training.recipe,
                crate::model::Recipe::MegatronBf16 | crate::model::Recipe::TorchAmp
            );
            Residual {
                measured_s: *measured_s,
                before_s: before.step_s,
                after_s: estimate(&with_efficiency(inputs, efficiency)).step_s,
                mfu: crate::model::finite(before.mfu * before.step_s / measured_s),
                bf16,
            }
        })
        .collect();
    let rms = (loss(&measured, efficiency) / measured.len() as f64).sqrt();
    // Within half a per cent of a bound, the optimum lies at or beyond it.
    let at_bound = !(MIN_EFFICIENCY * 1.005..=MAX_EFFICIENCY / 1.005).contains(&efficiency);
    Some(Fit {
        catalog,
        efficiency,
        residuals,
        rms,
        at_bound,
        chips: measured.iter().map(|(inputs, _)| inputs.cluster.n_chips).collect(),
    })
}

/// The run's measured step time, when it and the model's estimate are positive numbers.
pub fn timeable(run: &Run) -> Option<f64> {
    let e = estimate(&run.inputs);
    let step = run.measured.step_s(&e);
    (step.is_finite() && step > 0.0 && e.step_s.is_finite() && e.step_s > 0.0).then_some(step)
}

/// `inputs` with the chip's GEMM efficiency as `fit` found it.
pub fn apply(inputs: &Inputs, fit: &Fit) -> Inputs {
    with_efficiency(inputs, fit.efficiency)
}
