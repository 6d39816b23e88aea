//! Calibration from the user's own measurements: the chip's GEMM efficiency, and where the
//! runs tell them apart the stack's launch time per layer, that best explain the step times
//! measured on runs of the user's own.
//!
//! The catalog sets each chip's `matmul_efficiency` and each stack's `layer_host_s` against
//! published runs; a user who ran a small job on their own chips and software (MindSpeed's
//! auto-tuning profiles two nodes before planning a large cluster the same way) sets them
//! against theirs instead. Communication, memory and the schedule stay as the model prices
//! them, so the fit transfers to another plan, size and fabric as the model's mechanisms do.
//!
//! The efficiency is always fitted. Launch time is fitted with it only when the runs separate
//! the two: a launch costs the same whatever a GEMM's size, so runs whose layers do different
//! amounts of work per micro-batch (another micro-batch, sequence or tensor-parallel size) weigh
//! launches differently against GEMMs. Runs of one shape cannot tell a slow GEMM from a slow
//! launch, and keep the catalog's launch time.

use super::{estimate, Estimate, Inputs};

/// Lowest GEMM efficiency the fit considers: below it no training stack runs.
pub const MIN_EFFICIENCY: f64 = 0.02;
/// Highest: the chip's peak.
pub const MAX_EFFICIENCY: f64 = 1.0;
/// Golden-section steps: the bracket shrinks to 0.618^60 of its width, far below any
/// measurement's precision.
const STEPS: usize = 60;
/// Most a layer may lose to launches per micro-batch, forward and backward together: 10 ms,
/// about ninety times the Megatron-Core figure fitted to published runs
/// (`presets::fitted::LAYER_HOST_S`). Runs that ask for more lose time to something else.
pub const MAX_LAYER_HOST_S: f64 = 0.01;
/// The scale launch time is fitted and judged at: 100 µs a layer, about the fitted
/// Megatron-Core figure.
const HOST_UNIT_S: f64 = 1e-4;
/// Runs separate launches from GEMMs when the weight of one against the other differs between
/// them by at least this factor.
const SEPARATES: f64 = 1.25;
/// Damped Gauss-Newton steps of the two-figure fit; each halves the error or better near the
/// optimum, so a few suffice and the bound keeps the fit's cost fixed.
const NEWTON_STEPS: usize = 40;

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
}

/// What the fit did with the stack's launch time per layer (`Software::layer_host_s`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Launches {
    /// Fitted with the efficiency: the runs separate the two.
    Fitted,
    /// Kept: every run weighs launches against GEMMs alike (one shape of layer), so the runs
    /// cannot tell a slow launch from a slow GEMM. Runs at another micro-batch, sequence or
    /// tensor-parallel size would.
    OneShape,
    /// Kept: no run launches kernels one at a time (whole-iteration CUDA graphs, a compiled
    /// stack).
    Unseen,
    /// Kept: the runs ask for more than `MAX_LAYER_HOST_S` a layer, which no launching
    /// explains; something else differs between them and the model.
    Beyond,
}

impl Launches {
    /// The name reports give it.
    pub fn id(self) -> &'static str {
        match self {
            Launches::Fitted => "fitted",
            Launches::OneShape => "one-shape",
            Launches::Unseen => "unseen",
            Launches::Beyond => "beyond",
        }
    }
}

/// The fitted efficiency and how well it explains the runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The catalog's GEMM efficiency of the chip.
    pub catalog: f64,
    /// The fitted GEMM efficiency.
    pub efficiency: f64,
    /// The catalog's launch time per layer and micro-batch of the stack, seconds.
    pub host_catalog: f64,
    /// The launch time the fit applies: fitted, or the catalog's (`launches` says which).
    pub host_s: f64,
    /// Whether the runs set the launch time, and why not.
    pub launches: Launches,
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

fn with(inputs: &Inputs, efficiency: f64, host_s: f64) -> Inputs {
    let mut inputs = *inputs;
    inputs.cluster.chip.matmul_efficiency = efficiency;
    inputs.parallelism.software.layer_host_s = host_s;
    inputs
}

/// Each run's log step-time error at `efficiency` and `host_s`, given its measured step time.
fn errors(runs: &[(Inputs, f64)], efficiency: f64, host_s: f64) -> Vec<f64> {
    runs.iter()
        .map(|(inputs, measured)| {
            (estimate(&with(inputs, efficiency, host_s)).step_s / measured).ln()
        })
        .collect()
}

/// Sum of squared log errors of the runs' step times at `efficiency` and `host_s`.
fn loss(runs: &[(Inputs, f64)], efficiency: f64, host_s: f64) -> f64 {
    errors(runs, efficiency, host_s).iter().map(|e| e.powi(2)).sum()
}

/// The efficiency that best explains `runs` with launches at `host_s` (least squares of the
/// log step-time errors, by golden-section search over log efficiency).
fn efficiency_at(runs: &[(Inputs, f64)], host_s: f64) -> f64 {
    let (mut lo, mut hi) = (MIN_EFFICIENCY.ln(), MAX_EFFICIENCY.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
    let (mut fa, mut fb) = (loss(runs, a.exp(), host_s), loss(runs, b.exp(), host_s));
    for _ in 0..STEPS {
        if fa <= fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - ratio * (hi - lo);
            fa = loss(runs, a.exp(), host_s);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + ratio * (hi - lo);
            fb = loss(runs, b.exp(), host_s);
        }
    }
    (0.5 * (lo + hi)).exp().clamp(MIN_EFFICIENCY, MAX_EFFICIENCY)
}

/// Whether `runs` can set the launch time beside the efficiency, judged at the catalog's
/// `efficiency` and `host_s` (so by the runs' shapes, not by what was measured): each run's step moves with launch time (per `HOST_UNIT_S`) and with log
/// efficiency; the runs separate the two when the ratio of those moves differs between them by
/// `SEPARATES`. Where launches weigh little, a noisy launch time moves the plan little too, as
/// the calibration is the model's own (`measure` pins it to the model measured).
fn separated(runs: &[(Inputs, f64)], efficiency: f64, host_s: f64) -> Launches {
    let at = errors(runs, efficiency, host_s);
    let gemm = errors(runs, efficiency * 1.01, host_s);
    let launch = errors(runs, efficiency, host_s + HOST_UNIT_S);
    let mut weights = Vec::with_capacity(runs.len());
    for ((at, gemm), launch) in at.iter().zip(&gemm).zip(&launch) {
        let by_gemm = (at - gemm) / 1.01f64.ln();
        let by_launch = launch - at;
        if !(by_gemm > 0.0) || !(by_launch >= 0.0) {
            return Launches::OneShape;
        }
        weights.push(by_launch / by_gemm);
    }
    if !weights.iter().any(|w| *w > 0.0) {
        return Launches::Unseen;
    }
    let (lo, hi) =
        weights.iter().fold((f64::INFINITY, 0f64), |(lo, hi), r| (lo.min(*r), hi.max(*r)));
    if hi >= SEPARATES * lo {
        Launches::Fitted
    } else {
        Launches::OneShape
    }
}

/// Log efficiency and launch time, in `HOST_UNIT_S`, that best explain `runs`, from `start`:
/// damped Gauss-Newton within the bounds, taking only steps that lower the loss.
fn both(runs: &[(Inputs, f64)], start: (f64, f64)) -> (f64, f64) {
    let clamp = |(x, u): (f64, f64)| {
        (
            x.clamp(MIN_EFFICIENCY.ln(), MAX_EFFICIENCY.ln()),
            u.clamp(0.0, MAX_LAYER_HOST_S / HOST_UNIT_S),
        )
    };
    let errs = |(x, u): (f64, f64)| errors(runs, x.exp(), u * HOST_UNIT_S);
    let sum = |e: &[f64]| -> f64 { e.iter().map(|e| e * e).sum() };
    let (mut p, mut damping) = (clamp(start), 1e-3);
    let mut e = errs(p);
    let mut l = sum(&e);
    for _ in 0..NEWTON_STEPS {
        // Forward differences, stepped inward at an upper bound.
        let dx = if p.0 > -1e-3 { -1e-3 } else { 1e-3 };
        let du = if p.1 > MAX_LAYER_HOST_S / HOST_UNIT_S - 0.01 { -0.01 } else { 0.01 };
        let ex = errs((p.0 + dx, p.1));
        let eu = errs((p.0, p.1 + du));
        let (mut a, mut b, mut c, mut gx, mut gu) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for i in 0..e.len() {
            let (jx, ju) = ((ex[i] - e[i]) / dx, (eu[i] - e[i]) / du);
            a += jx * jx;
            b += jx * ju;
            c += ju * ju;
            gx += jx * e[i];
            gu += ju * e[i];
        }
        let mut moved = false;
        while damping < 1e12 {
            let (a, c) = (a * (1.0 + damping), c * (1.0 + damping));
            let det = a * c - b * b;
            if !(det > 0.0) {
                damping *= 4.0;
                continue;
            }
            let step = ((-gx * c + gu * b) / det, (-gu * a + gx * b) / det);
            let next = clamp((p.0 + step.0, p.1 + step.1));
            let next_e = errs(next);
            let next_l = sum(&next_e);
            if next_l < l {
                let small = (next.0 - p.0).abs() < 1e-9 && (next.1 - p.1).abs() < 1e-7;
                (p, e, l, damping) = (next, next_e, next_l, damping / 3.0);
                moved = !small;
                break;
            }
            damping *= 4.0;
        }
        if !moved {
            break;
        }
    }
    p
}

/// The GEMM efficiency, and where the runs separate them the launch time per layer, that best
/// explain `runs` (least squares of the log step-time errors), or `None` when there is no run,
/// or a run whose measured or estimated step time is not a positive number (`timeable`).
pub fn fit(runs: &[Run]) -> Option<Fit> {
    let first = runs.first()?.inputs;
    let catalog = first.cluster.chip.matmul_efficiency;
    let host_catalog = first.parallelism.software.layer_host_s;
    let measured: Option<Vec<(Inputs, f64)>> =
        runs.iter().map(|run| timeable(run).map(|step| (run.inputs, step))).collect();
    let measured = measured?;
    let mut efficiency = efficiency_at(&measured, host_catalog);
    let mut host_s = host_catalog;
    let mut launches = separated(&measured, catalog, host_catalog);
    if launches == Launches::Fitted {
        let (x, u) = both(&measured, (efficiency.ln(), host_catalog / HOST_UNIT_S));
        if u * HOST_UNIT_S >= MAX_LAYER_HOST_S * 0.995 {
            launches = Launches::Beyond;
        } else {
            (efficiency, host_s) = (x.exp().clamp(MIN_EFFICIENCY, MAX_EFFICIENCY), u * HOST_UNIT_S);
        }
    }
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
                after_s: estimate(&with(inputs, efficiency, host_s)).step_s,
                mfu: crate::model::finite(before.mfu * before.step_s / measured_s),
                bf16,
            }
        })
        .collect();
    let rms = (loss(&measured, efficiency, host_s) / measured.len() as f64).sqrt();
    // Within half a per cent of a bound, the optimum lies at or beyond it.
    let at_bound = !(MIN_EFFICIENCY * 1.005..=MAX_EFFICIENCY / 1.005).contains(&efficiency);
    Some(Fit {
        catalog,
        efficiency,
        host_catalog,
        host_s,
        launches,
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

/// `inputs` with the chip's GEMM efficiency and the stack's launch time as `fit` found them.
pub fn apply(inputs: &Inputs, fit: &Fit) -> Inputs {
    with(inputs, fit.efficiency, fit.host_s)
}
