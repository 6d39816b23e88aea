//! Serving's kernel shares fitted to the published serving measurements, and every row
//! predicted with its whole source left out of the fit.
//!
//! Training's fit sets what a chip's GEMMs reach under a training stack; serving runs other
//! kernels under other schedulers (decode's skinny GEMMs, paged attention, an engine's own
//! fused MoE), and the published serving tables show it reaching a different share of that
//! speed on each chip family and engine: vLLM on MI300X, Optimum Habana on Gaudi and JetStream
//! on TPU v5e run well below what their chips' training runs reach. So serving takes a share
//! of the chip's fitted speed and memory bandwidth (`Serving::kernel_share`), the product of
//! its chip family's and its engine's.
//!
//! The shares are fitted by least squares of the log errors (Levenberg-Marquardt), each
//! source's rows on one chip family weighing as one row, every share drawn toward 1 as if
//! `PRIOR` such cells said so, so that a family or an engine seen in one source only does not
//! take that source's error whole. Every row is predicted with the shares fitted to the other
//! sources (leave one source out); a family or engine no other source measured keeps 1. The
//! shares fitted to every source are written to `src/model/presets/serving_fitted.rs`, which
//! scenarios read; `tests/it/validation.rs` fails when it is stale.

use std::collections::BTreeMap;

use super::fit::{Damping, Fitted};
use crate::model::serving::{self, Engine, Prices, Serving, ServingEstimate, SHARE_RANGE};
use crate::model::{Cluster, Transformer};

/// Cells' worth of weight drawing each share toward 1 (each at one log unit of error).
const PRIOR: f64 = 0.5;
/// Iterations of a fit.
const ITERATIONS: usize = 16;
/// The step in the log share the slope of a row's error is measured over.
const STEP: f64 = 0.05;

/// A figure of the serving estimate a measurement is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Output tokens per second per chip at the targets, at full load.
    Decode,
    /// The same at the planned load (a server scenario's sustained rate).
    DecodeAtLoad,
    /// Output tokens per second per chip of a decode instance alone.
    DecodePool,
    /// Prompt tokens per second per chip of a prefill instance alone.
    PrefillPool,
    /// Median time per output token at the row's concurrency, milliseconds.
    Tpot,
    /// Median time to the first token at the row's concurrency, milliseconds.
    Ttft,
    /// Mean time to the first token at the row's concurrency, milliseconds.
    TtftMean,
}

impl Metric {
    pub fn parse(name: &str) -> Option<Metric> {
        Some(match name {
            "decode_tokens_per_s_per_chip" => Metric::Decode,
            "decode_tokens_per_s_per_chip_at_load" => Metric::DecodeAtLoad,
            "decode_pool_tokens_per_s_per_chip" => Metric::DecodePool,
            "prefill_pool_tokens_per_s_per_chip" => Metric::PrefillPool,
            "tpot_ms" => Metric::Tpot,
            "ttft_ms" => Metric::Ttft,
            "ttft_mean_ms" => Metric::TtftMean,
            _ => return None,
        })
    }

    /// The key of the figure, as `predict` prints it.
    pub fn key(self) -> &'static str {
        match self {
            Metric::Decode => "decode_tokens_per_s_per_chip",
            Metric::DecodeAtLoad => "decode_tokens_per_s_per_chip_at_load",
            Metric::DecodePool => "decode_pool_tokens_per_s_per_chip",
            Metric::PrefillPool => "prefill_pool_tokens_per_s_per_chip",
            Metric::Tpot => "tpot_ms",
            Metric::Ttft => "ttft_ms",
            Metric::TtftMean => "ttft_mean_ms",
        }
    }

    /// A time, where less is faster, rather than a throughput.
    pub fn is_time(self) -> bool {
        matches!(self, Metric::Tpot | Metric::Ttft | Metric::TtftMean)
    }

    fn of(self, e: &ServingEstimate) -> f64 {
        match self {
            Metric::Decode => e.decode_tokens_per_s_per_chip,
            Metric::DecodeAtLoad => e.decode_tokens_per_s_per_chip_at_load,
            Metric::DecodePool => e.decode_pool_tokens_per_s_per_chip,
            Metric::PrefillPool => e.prefill_pool_tokens_per_s_per_chip,
            Metric::Tpot => e.tpot_s * 1e3,
            Metric::Ttft => e.ttft_p50_s * 1e3,
            Metric::TtftMean => e.ttft_s * 1e3,
        }
    }
}

/// One measurement with what the model needs to predict it at any share.
#[derive(Clone, Debug)]
pub struct Case {
    pub metric: Metric,
    pub measured: f64,
    /// Its source's index and id.
    pub source: usize,
    pub source_id: String,
    pub family: Option<&'static str>,
    pub engine: Engine,
    /// A mixture of experts.
    pub moe: bool,
    /// Latent attention (MLA).
    pub latent: bool,
    transformer: Transformer,
    cluster: Cluster,
    serving: Serving,
    prices: Prices,
    kernel: f64,
}

impl Case {
    /// The case of serving as `inputs` resolve it, on `serving`'s engine; the measurement and
    /// its source are the caller's to set.
    pub fn new(inputs: &crate::model::Inputs, serving: Serving, prices: Prices) -> Case {
        Case {
            metric: Metric::Decode,
            measured: 0.0,
            source: 0,
            source_id: String::new(),
            family: None,
            engine: serving.engine,
            moe: inputs.transformer.moe.is_some(),
            latent: inputs.transformer.mla.is_some(),
            transformer: inputs.transformer,
            cluster: inputs.cluster,
            serving,
            prices,
            kernel: inputs.cluster.chip.matmul_efficiency,
        }
    }

    /// The model's figure for the row with serving's kernels, experts and host as `knobs` say.
    pub fn predict(&self, knobs: Knobs) -> f64 {
        let s = Serving {
            kernel_share: knobs.share.clamp(SHARE_RANGE.0, SHARE_RANGE.1),
            expert_share: knobs.expert.clamp(SHARE_RANGE.0, SHARE_RANGE.1),
            latent_share: knobs.latent.clamp(SHARE_RANGE.0, SHARE_RANGE.1),
            ..self.serving
        };
        let e = serving::estimate(&self.transformer, &self.cluster, &s, self.kernel, &self.prices);
        self.metric.of(&e)
    }

    /// The log of the model's speed over the measured at `knobs`.
    fn residual(&self, knobs: Knobs) -> f64 {
        let p = self.predict(knobs).max(f64::MIN_POSITIVE);
        let m = self.measured.max(f64::MIN_POSITIVE);
        let ratio = if self.metric.is_time() { m / p } else { p / m };
        let r = ratio.ln();
        if r.is_finite() {
            r
        } else {
            0.0
        }
    }
}

/// What the fit sets for one row: its kernels' share of the chip's fitted speed, and its routed
/// experts' and its latent attention's shares of that.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Knobs {
    pub share: f64,
    pub expert: f64,
    pub latent: f64,
}

/// The fitted figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shares {
    pub families: Vec<Fitted<&'static str>>,
    pub engines: Vec<Fitted<Engine>>,
    pub experts: Vec<Fitted<&'static str>>,
    pub latents: Vec<Fitted<&'static str>>,
}

impl Shares {
    /// The knobs of a row on `family` and `engine`: each fitted share, or 1.
    pub fn of(&self, family: Option<&str>, engine: Engine) -> Knobs {
        let find = |of: &[Fitted<&'static str>]| {
            of.iter().find(|f| Some(f.of) == family).map_or(1.0, |f| f.value)
        };
        let engine = self.engines.iter().find(|f| f.of == engine).map_or(1.0, |f| f.value);
        Knobs {
            share: find(&self.families) * engine,
            expert: find(&self.experts),
            latent: find(&self.latents),
        }
    }
}

/// What a share stands for in the fit (each fitted as its log).
#[derive(Clone, Copy, PartialEq)]
enum Of {
    Family(&'static str),
    Engine(Engine),
    Expert(&'static str),
    Latent(&'static str),
}

/// The shares a row depends on, as indices into the fitted logs: its kernels' (its family's
/// and its engine's) and its experts'.
struct Depends {
    kernel: Vec<usize>,
    expert: Option<usize>,
    latent: Option<usize>,
}

impl Depends {
    fn knobs(&self, theta: &[f64]) -> Knobs {
        Knobs {
            share: self.kernel.iter().map(|&k| theta[k]).sum::<f64>().exp(),
            expert: self.expert.map_or(1.0, |k| theta[k].exp()),
            latent: self.latent.map_or(1.0, |k| theta[k].exp()),
        }
    }
}

/// The figures fitted to `cases`.
pub fn fit(cases: &[&Case]) -> Shares {
    let mut params: Vec<Of> = Vec::new();
    let mut add = |of: Of| {
        if !params.contains(&of) {
            params.push(of);
        }
    };
    for c in cases {
        if let Some(f) = c.family {
            add(Of::Family(f));
            if c.moe {
                add(Of::Expert(f));
            }
            if c.latent {
                add(Of::Latent(f));
            }
        }
        if c.engine != Engine::Any {
            add(Of::Engine(c.engine));
        }
    }
    // Each source's rows on one family weigh as one row.
    let mut cells: BTreeMap<(usize, Option<&str>), f64> = BTreeMap::new();
    for c in cases {
        *cells.entry((c.source, c.family)).or_default() += 1.0;
    }
    let weight: Vec<f64> = cases.iter().map(|c| 1.0 / cells[&(c.source, c.family)]).collect();
    let depends: Vec<Depends> = cases
        .iter()
        .map(|c| {
            let at = |of: Of| params.iter().position(|p| *p == of);
            Depends {
                kernel: [c.family.and_then(|f| at(Of::Family(f))), at(Of::Engine(c.engine))]
                    .into_iter()
                    .flatten()
                    .collect(),
                expert: c.family.filter(|_| c.moe).and_then(|f| at(Of::Expert(f))),
                latent: c.family.filter(|_| c.latent).and_then(|f| at(Of::Latent(f))),
            }
        })
        .collect();
    let objective = |theta: &[f64], residuals: &[f64]| -> f64 {
        residuals.iter().zip(&weight).map(|(r, w)| w * r * r).sum::<f64>()
            + PRIOR * theta.iter().map(|t| t * t).sum::<f64>()
    };
    let (lo, hi) = (SHARE_RANGE.0.ln(), SHARE_RANGE.1.ln());
    let n = params.len();
    let mut theta = vec![0.0; n];
    let mut residuals: Vec<f64> =
        cases.iter().zip(&depends).map(|(c, d)| c.residual(d.knobs(&theta))).collect();
    let mut cost = objective(&theta, &residuals);
    let mut damping = 1e-2;
    for _ in 0..ITERATIONS {
        let mut a = vec![vec![0.0; n]; n];
        let mut b = vec![0.0; n];
        for (i, (c, d)) in cases.iter().zip(&depends).enumerate() {
            let k = d.knobs(&theta);
            // The slope of the row's error in each figure it depends on.
            let slope = |moved: Knobs, by: f64| (c.residual(moved) - residuals[i]) / by;
            let mut slopes: Vec<(usize, f64)> = Vec::new();
            let kernel = slope(Knobs { share: k.share * STEP.exp(), ..k }, STEP);
            slopes.extend(d.kernel.iter().map(|&j| (j, kernel)));
            if let Some(j) = d.expert {
                slopes.push((j, slope(Knobs { expert: k.expert * STEP.exp(), ..k }, STEP)));
            }
            if let Some(j) = d.latent {
                slopes.push((j, slope(Knobs { latent: k.latent * STEP.exp(), ..k }, STEP)));
            }
            for &(j, gj) in &slopes {
                b[j] += weight[i] * gj * residuals[i];
                for &(k, gk) in &slopes {
                    a[j][k] += weight[i] * gj * gk;
                }
            }
        }
        for j in 0..n {
            a[j][j] += PRIOR;
            b[j] += PRIOR * theta[j];
        }
        let damp = Damping { tries: 6, grow: 4.0, least: 1e-6 };
        let improved = damp.step(&a, &b, &mut damping, |step| {
            let trial: Vec<f64> =
                theta.iter().zip(step).map(|(t, d)| (t + d).clamp(lo, hi)).collect();
            let trial_residuals: Vec<f64> =
                cases.iter().zip(&depends).map(|(c, d)| c.residual(d.knobs(&trial))).collect();
            let trial_cost = objective(&trial, &trial_residuals);
            let better = trial_cost < cost;
            if better {
                (theta, residuals, cost) = (trial, trial_residuals, trial_cost);
            }
            better
        });
        if !improved {
            break;
        }
    }
    let mut shares = Shares::default();
    for (p, t) in params.iter().zip(&theta) {
        let on = |c: &&&Case| match p {
            Of::Family(f) => c.family == Some(*f),
            Of::Engine(e) => c.engine == *e,
            Of::Expert(f) => c.family == Some(*f) && c.moe,
            Of::Latent(f) => c.family == Some(*f) && c.latent,
        };
        let rows = cases.iter().filter(on).count() as u32;
        let mut sources: Vec<String> =
            cases.iter().filter(on).map(|c| c.source_id.clone()).collect();
        sources.sort();
        sources.dedup();
        let value = (t.exp() * 1e4).round() / 1e4;
        match *p {
            Of::Family(of) => shares.families.push(Fitted { of, value, rows, sources }),
            Of::Engine(of) => shares.engines.push(Fitted { of, value, rows, sources }),
            Of::Expert(of) => shares.experts.push(Fitted { of, value, rows, sources }),
            Of::Latent(of) => shares.latents.push(Fitted { of, value, rows, sources }),
        }
    }
    shares.experts.sort_by(|a, b| a.of.cmp(b.of));
    shares.latents.sort_by(|a, b| a.of.cmp(b.of));
    shares.families.sort_by(|a, b| a.of.cmp(b.of));
    shares.engines.sort_by_key(|f| f.of);
    shares
}

/// Every row predicted with the shares fitted to the sources other than its own.
pub fn left_out(cases: &[Case]) -> Vec<f64> {
    let mut sources: Vec<usize> = cases.iter().map(|c| c.source).collect();
    sources.sort_unstable();
    sources.dedup();
    let mut predicted = vec![0.0; cases.len()];
    for s in sources {
        let others: Vec<&Case> = cases.iter().filter(|c| c.source != s).collect();
        let shares = fit(&others);
        for (i, c) in cases.iter().enumerate().filter(|(_, c)| c.source == s) {
            predicted[i] = c.predict(shares.of(c.family, c.engine));
        }
    }
    predicted
}

/// The source of `src/model/presets/serving_fitted.rs` for these shares.
pub fn source(shares: &Shares) -> String {
    let list = |sources: &[String]| {
        sources.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(", ")
    };
    let table = |out: &mut String, doc: &str, decl: &str, rows: Vec<String>| {
        out.push_str(&format!("/// {doc}\npub const {decl} = &[\n"));
        for row in rows {
            out.push_str(&format!("    {row},\n"));
        }
        out.push_str("];\n");
    };
    let row = |of: String, f: (f64, u32, &[String])| {
        format!("({of}, {:.4}, {}, &[{}])", f.0, f.1, list(f.2))
    };
    let named = |of: &[Fitted<&'static str>]| {
        of.iter().map(|f| row(format!("{:?}", f.of), (f.value, f.rows, &f.sources))).collect()
    };
    let mut out = String::from(
        "//! Shares of the chips' fitted speed serving reaches, fitted to the published serving\n\
         //! measurements (`data/serving.json`) by `validation::serving_fit`; generated, and\n\
         //! `tests/it/validation.rs` fails when it is stale\n\
         //! (`UPDATE_ACCURACY=1 cargo test --release --test it validation::` rewrites it).\n\n\
         use crate::model::serving::Engine;\n\n",
    );
    table(
        &mut out,
        "Each chip family's share, with the rows and sources it was fitted to.",
        "FAMILY_SERVING_SHARE: &[(&str, f64, u32, &[&str])]",
        named(&shares.families),
    );
    out.push('\n');
    table(
        &mut out,
        "Each engine's share, with the rows and sources it was fitted to.",
        "ENGINE_SERVING_SHARE: &[(Engine, f64, u32, &[&str])]",
        shares
            .engines
            .iter()
            .map(|f| row(format!("Engine::{:?}", f.of), (f.value, f.rows, &f.sources)))
            .collect(),
    );
    out.push('\n');
    table(
        &mut out,
        "Each chip family's share of that share in the routed experts' kernels.",
        "FAMILY_EXPERT_SHARE: &[(&str, f64, u32, &[&str])]",
        named(&shares.experts),
    );
    out.push('\n');
    table(
        &mut out,
        "Each chip family's share of that share in latent attention's kernels.",
        "FAMILY_LATENT_SHARE: &[(&str, f64, u32, &[&str])]",
        named(&shares.latents),
    );
    out
}
