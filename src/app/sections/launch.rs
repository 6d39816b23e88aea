//! "Run this plan" and logs dropped on the page, worded in the worker: a launch's files to
//! copy with where its ranks sit and what the framework cannot say; what each log gave, and
//! the scenario with the logs' measurements added.

use crate::app::{Apply, Block, Line, View};
use crate::format;
use crate::launch::{Cannot, Framework, Launch};
use crate::measure::{Measured as Figure, Why};
use crate::numbers;
use crate::scenario::fields;
use crate::text::{fill, t};

/// A launch written, or why the plan could not be launched.
pub type Launched = Result<crate::launch::Launch, Vec<String>>;
/// Logs read, or why the scenario would not take them.
pub type Measured = Result<crate::evaluation::Measuring, Vec<String>>;

/// A framework's name as the page shows it.
pub fn framework_name(f: Framework) -> String {
    t(&format!("launch.framework.{}", f.id())).to_string()
}

/// Why a framework's files leave part of the plan out.
fn cannot(framework: Framework, c: Cannot) -> String {
    let name = framework_name(framework);
    let key = format!("launch.cannot.{}", c.id());
    match c {
        Cannot::Recipe(r) => {
            let recipe = t(&format!("option.training.recipe.{}", fields::TRAINING_RECIPE.code(r)));
            fill(&key, &[("framework", &name), ("recipe", recipe)])
        }
        Cannot::Zero(stage) => fill(&key, &[("framework", &name), ("stage", &stage.to_string())]),
        Cannot::KvCache(p) | Cannot::Checkpoint(p) => {
            let code = match p {
                crate::model::serving::Precision::Bf16 => "bf16",
                crate::model::serving::Precision::Fp8 => "fp8",
                crate::model::serving::Precision::Fp4 => "fp4",
            };
            let precision = t(&format!("option.serving.kv_cache.{code}"));
            fill(&key, &[("framework", &name), ("precision", precision)])
        }
        _ => fill(&key, &[("framework", &name)]),
    }
}

/// A launch as the page shows it: the release its names follow, where the ranks sit, what it
/// cannot say, and each file to copy.
pub fn launch(launched: &Launched) -> View {
    let l: &Launch = match launched {
        Ok(l) => l,
        Err(errors) => {
            return View::said(
                errors.iter().map(|e| Line::new("launch-error", e.clone(), true)).collect(),
            )
        }
    };
    let mut lines = vec![Line::new(
        "launch-release",
        fill("launch.release", &[("release", l.framework.release())]),
        false,
    )];
    if !l.files.is_empty() {
        let groups: Vec<String> = l
            .layout
            .groups
            .iter()
            .filter(|g| g.size > 1)
            .map(|g| {
                let key = if g.in_node { "launch.group.in-node" } else { "launch.group.across" };
                fill(
                    key,
                    &[("kind", &g.kind.to_uppercase()), ("size", &format::count(g.size as f64))],
                )
            })
            .collect();
        // A full-width separator takes no space after it.
        let separator = t("launch.group.and").to_string();
        let separator = if separator.is_ascii() { format!("{separator} ") } else { separator };
        lines.push(Line::new(
            "launch-layout",
            fill(
                "launch.layout",
                &[
                    ("nodes", &numbers::format(l.layout.nodes as f64)),
                    ("per_node", &l.layout.per_node.to_string()),
                    ("groups", &groups.join(&separator)),
                ],
            ),
            false,
        ));
    }
    lines
        .extend(l.cannot.iter().map(|c| Line::new("launch-cannot", cannot(l.framework, *c), true)));
    let blocks = l
        .files
        .iter()
        .map(|f| Block {
            testid: format!("launch-file-{}", f.name.replace('.', "-")),
            name: f.name.to_string(),
            text: f.text.clone(),
        })
        .collect();
    View { lines, blocks, ..View::default() }
}

/// What a log's figure is, in words.
fn figure(m: &Figure) -> String {
    match m {
        Figure::StepS(s) => fill("measure.step", &[("step", &format::seconds(*s))]),
        Figure::TokensPerChipS(t) => fill("measure.tokens", &[("tokens", &format::count(*t))]),
        Figure::Fabric(table) => fill(
            "measure.fabric",
            &[
                ("bus", &format!("{:.0}", table.bus_gb_per_s)),
                ("latency", &format!("{:.1}", table.smallest_us)),
            ],
        ),
        Figure::Serving { output_tokens_per_s, ttft_p99_ms, tpot_p50_ms, .. } => {
            // A figure the result does not give reads as a dash.
            let given =
                |x: &Option<f64>, shown: &dyn Fn(f64) -> String| x.map_or("—".into(), shown);
            fill(
                "measure.serving",
                &[
                    ("output", &given(output_tokens_per_s, &format::count)),
                    ("ttft", &given(ttft_p99_ms, &|x| format!("{x:.0}"))),
                    ("tpot", &given(tpot_p50_ms, &|x| format!("{x:.1}"))),
                ],
            )
        }
    }
}

/// Logs read: a line a log (what it gave, or why nothing), and the scenario with their
/// measurements added, which the page applies.
pub fn measure(measured: &Measured) -> View {
    let m = match measured {
        Ok(m) => m,
        Err(errors) => {
            return View::said(
                errors.iter().map(|e| Line::new("measure-error", e.clone(), true)).collect(),
            )
        }
    };
    let mut lines: Vec<Line> = m
        .readings
        .iter()
        .map(|r| {
            let key = if r.ranks > 1 { "measure.read-ranks" } else { "measure.read" };
            let text = fill(
                key,
                &[
                    ("file", &r.name),
                    ("format", t(&format!("measure.format.{}", r.format.id()))),
                    ("samples", &r.samples.to_string()),
                    ("warmup", &r.warmup.to_string()),
                    ("ranks", &r.ranks.to_string()),
                    ("what", &figure(&r.measured)),
                ],
            );
            Line::new("measure-read", text, false)
        })
        .collect();
    lines.extend(m.unread.iter().map(|(file, why)| {
        let text = match why {
            Why::NoLines { lines } => fill(
                "measure.why.no-lines",
                &[("file", file), ("lines", &format::count(*lines as f64))],
            ),
            Why::NotCalibrated(f) => fill(
                "measure.why.not-calibrated",
                &[("file", file), ("format", t(&format!("measure.format.{}", f.id())))],
            ),
            Why::OtherModel(shape) => fill(
                if shape.experts > 0 { "measure.why.other-moe" } else { "measure.why.other-model" },
                &[
                    ("file", file),
                    ("layers", &shape.layers.to_string()),
                    ("hidden", &numbers::format(shape.hidden as f64)),
                    ("experts", &shape.experts.to_string()),
                ],
            ),
            other => fill(&format!("measure.why.{}", other.id()), &[("file", file)]),
        };
        Line::new("measure-skipped", text, true)
    }));
    lines.extend(m.fabric.iter().map(|(file, f)| {
        let text = fill(
            &format!("measure.fabric-fit.{}", f.links),
            &[
                ("file", file),
                ("efficiency", &format::percent(f.efficiency)),
                ("latency", &format!("{:.1}", f.latency_us)),
            ],
        );
        Line::new("measure-fabric", text, false)
    }));
    lines.extend(m.serving.iter().map(|(file, f)| {
        let text = fill(
            "measure.serving-fit",
            &[
                ("file", file),
                ("concurrency", &f.concurrency.to_string()),
                ("share", &format::percent(f.kernel_share)),
                ("catalog", &format::percent(f.catalog_share)),
            ],
        );
        Line::new("measure-serving", text, false)
    }));
    let changed = m.entries.len() + m.fabric.len() + m.serving.len();
    let apply = m.measured.as_ref().filter(|_| changed > 0).map(|with| {
        let label = fill("measure.added", &[("n", &changed.to_string())]);
        Apply::new("measure-apply", label, with.clone())
    });
    View { lines, apply, ..View::default() }
}
