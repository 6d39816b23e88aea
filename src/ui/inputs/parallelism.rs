//! The parallelism panel: degrees, schedule, sharding, recomputation and overlaps.

use crate::app::edits::Value;
use yew::prelude::*;

use crate::text::t;

use super::{Form, PanelProps};
use crate::app::words;
use crate::model::{
    CpKind, CrossEntropy, CudaGraphs, Dispatcher, Parallelism, Recompute, Sharding, Stack,
};
use crate::scenario::fields::{self, Field};
use crate::ui::fields::{SelectField, Slider};

/// Parallel degrees and schedule.
pub fn parallelism_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let p = f.good.map(|g| g.inputs.parallelism);
    let n = |x: Option<u32>| x.map(|v| v as f64);
    // A degree with a slider over powers of two up to `2^max`.
    let degree = |field: &'static Field, testid: &str, of: fn(&Parallelism) -> u32, max: u32| {
        f.number(field, testid, p.as_ref().map(|p| of(p) as f64))
            .slider(Slider::Pow2 { min: 0, max })
    };
    // The token dispatcher matters only to a mixture of experts.
    let moe = f.good.is_some_and(|g| g.inputs.transformer.moe.is_some());
    let zero = match p.map(|p| p.sharding) {
        Some(Sharding::None) => "0",
        Some(Sharding::Gradients) => "2",
        Some(Sharding::Full) => "3",
        _ => "1",
    };
    let on_zero = {
        let on_set = f.on_set.clone();
        Callback::from(move |v: String| {
            on_set.emit(vec![(
                "parallelism.zero".into(),
                Some(Value::from(v.parse::<u64>().unwrap_or(1))),
            )])
        })
    };
    let zero_options: Vec<(AttrValue, AttrValue)> = ["0", "1", "2", "3"]
        .iter()
        .map(|v| (AttrValue::from(*v), AttrValue::from(t(&format!("option.parallelism.zero.{v}")))))
        .collect();
    // DP follows the chips unless set by hand; its slider then only shows the value.
    let dp_auto = f.raw(&crate::scenario::fields::PARALLELISM_DP).is_none();
    let mut dp = f
        .number(&fields::PARALLELISM_DP, "dp", n(p.map(|p| p.data)))
        .slider(Slider::Pow2 { min: 0, max: 20 });
    dp.reading = if dp_auto { t("form.dp-auto").into() } else { t("form.dp-set").into() };
    let moe_without_ep = f
        .good
        .is_some_and(|g| g.inputs.transformer.moe.is_some() && g.inputs.parallelism.expert <= 1);
    let mut ep = f
        .number(&fields::PARALLELISM_EP, "ep", n(p.map(|p| p.expert)))
        .slider(Slider::Pow2 { min: 0, max: 8 });
    if moe_without_ep {
        ep.extra_note = Some(t("form.moe-without-ep").into());
    }
    dp.locked = dp_auto;
    html! {
        <section class="panel">
            <h2>{ t("form.parallelism") }</h2>
            <div class="degrees">
                { f.render(degree(&fields::PARALLELISM_TP, "tp", |p| p.tensor, 6)) }
                { f.render(degree(&fields::PARALLELISM_PP, "pp", |p| p.pipeline, 7)) }
                { f.render(dp) }
                { f.render(degree(&fields::PARALLELISM_CP, "cp", |p| p.context, 5)) }
                { f.render(ep) }
                { f.render(degree(&fields::PARALLELISM_ETP, "etp", |p| p.expert_tensor, 6)) }
                { f.render(degree(&fields::PARALLELISM_MICRO_BATCH, "micro-batch", |p| p.micro_batch, 5)) }
                { f.render(degree(&fields::PARALLELISM_VIRTUAL_STAGES, "virtual-stages", |p| p.virtual_stages, 4)) }
                { f.render(f.number(&fields::PARALLELISM_FIRST_STAGE_LAYERS, "first-stage-layers", None)) }
                { f.render(f.number(&fields::PARALLELISM_OFFLOAD_LAYERS, "offload-layers", None)) }
            </div>
            <SelectField testid="zero" label={words::label("parallelism.zero")} help={words::help("parallelism.zero")}
                options={zero_options} value={zero} errors={f.errors("parallelism.zero")}
                notes={f.notes("parallelism.zero")} on_change={on_zero} />
            { f.choice(&fields::PARALLELISM_RECOMPUTE, "recompute", p.map_or(Recompute::None, |p| p.recompute)) }
            { f.toggle(&fields::PARALLELISM_RECOMPUTE_ELEMENTWISE, "recompute-elementwise", p.is_some_and(|p| p.recompute_elementwise)) }
            { f.toggle(&fields::PARALLELISM_RECOMPUTE_MLP_UP, "recompute-mlp-up", p.is_some_and(|p| p.recompute_mlp_up)) }
            { f.toggle(&fields::PARALLELISM_SEQUENCE_PARALLEL, "sp", p.is_some_and(|p| p.sequence_parallel)) }
            { f.choice(&fields::PARALLELISM_STACK, "stack", p.map_or(Stack::MegatronCore, |p| p.stack)) }
            { f.choice(&fields::PARALLELISM_CUDA_GRAPHS, "cuda-graphs", p.map_or(CudaGraphs::None, |p| p.cuda_graphs)) }
            { f.choice(&fields::PARALLELISM_CROSS_ENTROPY, "cross-entropy", p.map_or(CrossEntropy::Fp32, |p| p.cross_entropy)) }
            if moe {
                { f.choice(&fields::PARALLELISM_DISPATCHER, "dispatcher", p.map_or(Dispatcher::AllToAll, |p| p.dispatcher)) }
            }
            { f.toggle(&fields::PARALLELISM_DP_OVERLAP, "dp-overlap", p.is_none_or(|p| p.dp_overlap)) }
            { f.toggle(&fields::PARALLELISM_TP_OVERLAP, "tp-overlap", p.is_none_or(|p| p.tp_overlap)) }
            { f.toggle(&fields::PARALLELISM_PP_OVERLAP, "pp-overlap", p.is_none_or(|p| p.pp_overlap)) }
            { f.toggle(&fields::PARALLELISM_EP_OVERLAP, "ep-overlap", p.is_some_and(|p| p.ep_overlap)) }
            { f.toggle(&fields::PARALLELISM_CP_OVERLAP, "cp-overlap", p.is_some_and(|p| p.cp_overlap)) }
            if p.is_some_and(|p| p.context > 1) {
                { f.choice(&fields::PARALLELISM_CP_KIND, "cp-kind", p.map_or(CpKind::AllGather, |p| p.cp_kind)) }
            }
        </section>
    }
}
