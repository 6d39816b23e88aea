//! "My measurements": runs the user measured on their own chips, each a chip count, degrees,
//! batch and one measured figure (`calibration` in the scenario). The fit itself is the
//! scenario's (`scenario::Calibration`); this panel only edits the list and shows the fit.

use yew::prelude::*;

use super::{Form, PanelProps};
use crate::app::state::Edit;
use crate::format;
use crate::model::presets;
use crate::scenario::fields::{self, Field};
use crate::scenario::MEASURES;
use crate::text::{fill, t};
use crate::ui::fields::SelectField;

/// The measurements panel.
pub fn measurements_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let measurements = f.len(crate::scenario::paths::CALIBRATION);
    let calibration = f.good.and_then(|g| g.calibration.as_ref());
    let elsewhere = f.state.scenario.measured_elsewhere();
    let edit = f.on_edit.clone();
    let entries = (0..measurements).map(|i| {
        let at = format!("calibration.{i}");
        let at_path = |path: &str| f.raw_at(&format!("{at}.{path}"));
        let metric =
            MEASURES.into_iter().find(|k| at_path(&format!("measured.{k}")).is_some()).unwrap_or(MEASURES[0]);
        let measured = fields::measured(metric);
        let on_metric = edit.reform(move |key| Edit::MeasurementMetric { at: i, key });
        // The measured model: a preset, or the plan's dimensions as they were when added.
        let model = f.text_at(&format!("{at}.scenario.model.preset"));
        let on_model = edit.reform(move |preset| Edit::MeasurementModel { at: i, preset });
        let mut models: Vec<(AttrValue, AttrValue)> = presets::TRANSFORMERS
            .iter()
            .map(|p| (AttrValue::from(p.id), AttrValue::from(crate::app::words::preset_name("model", p.id, p.name))))
            .collect();
        if model.is_empty() {
            models.insert(0, (AttrValue::default(), AttrValue::from(t("form.custom-model"))));
        }
        let on_remove = edit.reform(move |_: MouseEvent| Edit::RemoveMeasurement { at: i });
        let options: Vec<(AttrValue, AttrValue)> = MEASURES
            .iter()
            .map(|k| (AttrValue::from(*k), AttrValue::from(t(&format!("label.measured.{k}")))))
            .collect();
        let fitted = calibration.and_then(|c| {
            let k = c.places.iter().position(|p| *p == i)?;
            Some(c.fit.residuals[k])
        });
        let p = f.good.map(|g| g.inputs.parallelism);
        let field = |field: &'static Field, testid: &str, resolved: Option<u32>| {
            let path = format!("{at}.scenario.{}", field.path);
            f.render(f.number_at(field, path, &format!("measurement-{testid}-{i}"), resolved.map(f64::from)))
        };
        let other = elsewhere.iter().find(|(at, _)| *at == i).map(|(_, said)| said.clone());
        html! {
            // A group named by its number, so each row's controls are told apart when read out.
            <fieldset class="measurement" data-testid={format!("measurement-{i}")} data-path={at.clone()}>
                <legend>{ fill("label.measurement", &[("n", &(i + 1).to_string())]) }</legend>
                if let Some(said) = other {
                    <p class="reading" data-testid={format!("measurement-elsewhere-{i}")}>
                        { fill("form.measurement-elsewhere", &[("on", &said)]) }
                    </p>
                }
                <SelectField testid={format!("measurement-model-{i}")} label={t("form.model")} options={models}
                    value={model} errors={f.errors(&format!("{at}.scenario.model.preset"))} on_change={on_model} />
                <div class="degrees">
                    { field(&fields::CLUSTER_CHIPS, "chips", None) }
                    { field(&fields::PARALLELISM_TP, "tp", p.map(|p| p.tensor)) }
                    { field(&fields::PARALLELISM_PP, "pp", p.map(|p| p.pipeline)) }
                    { field(&fields::TRAINING_GLOBAL_BATCH, "batch", f.good.map(|g| g.inputs.training.global_batch)) }
                    { field(&fields::PARALLELISM_MICRO_BATCH, "micro-batch", p.map(|p| p.micro_batch)) }
                </div>
                <SelectField testid={format!("measurement-metric-{i}")} label={t("label.measured")} options={options}
                    value={metric} errors={f.errors(&format!("{at}.measured"))} on_change={on_metric} />
                { f.render(f.number_at(measured, format!("{at}.measured.{metric}"), &format!("measurement-value-{i}"), None)) }
                <p class="reading" data-testid={format!("measurement-result-{i}")}>{ match fitted {
                    Some(r) => fill("form.measurement-result", &[
                        ("measured", &format::seconds(r.measured_s)),
                        ("before", &format::seconds(r.before_s)),
                        ("after", &format::seconds(r.after_s)),
                    ]),
                    None => t("form.measurement-pending").to_string(),
                } }</p>
                <button class="link" onclick={on_remove} data-testid={format!("measurement-remove-{i}")}
                    aria-label={fill("form.measurement-remove-n", &[("n", &(i + 1).to_string())])}>
                    { t("form.measurement-remove") }
                </button>
            </fieldset>
        }
    });
    html! {
        <section class="panel" data-testid="my-measurements">
            <h2>{ t("form.measurements") }</h2>
            <p class="reading">{ t("form.measurements-hint") }</p>
            { for entries }
            if let Some(c) = calibration {
                <p class="fit" data-testid="measurement-fit">
                    { fill("form.measurement-fit", &[
                        ("efficiency", &format::percent(c.fit.efficiency)),
                        ("catalog", &format::percent(c.fit.catalog)),
                        ("rms", &format::percent(c.fit.rms)),
                    ]) }
                </p>
                <p class="fit" data-testid="measurement-launches">
                    { fill(&format!("form.measurement-launches.{}", c.fit.launches.id()), &[
                        ("host", &format::seconds(c.fit.host_s)),
                        ("catalog", &format::seconds(c.fit.host_catalog)),
                        ("max", &format::seconds(crate::model::calibrate::MAX_LAYER_HOST_S)),
                    ]) }
                </p>
                if let Some(c) = f.good.and_then(|g| g.range.basis.calibrated).filter(|c| c.conflicting) {
                    <p class="bad" data-testid="measurement-conflict">
                        { fill("form.measurement-conflict", &[
                            ("rms", &format::percent(c.rms)), ("within", &format::percent(c.within)),
                        ]) }
                    </p>
                }
                if let Some(g) = f.good {
                    // From the largest run measured to the plan's size, with the range that
                    // now rests on the measurements.
                    <p class="fit" data-testid="measurement-scale">
                        { fill("form.measurement-scale", &[
                            ("measured", &crate::numbers::format(f64::from(c.fit.chips.iter().copied().max().unwrap_or(0)))),
                            ("chips", &crate::numbers::format(f64::from(g.inputs.cluster.n_chips))),
                            ("low", &format::days(g.range.train_days.0)),
                            ("high", &format::days(g.range.train_days.1)),
                        ]) }
                    </p>
                }
            }
            <button onclick={edit.reform(|_: MouseEvent| Edit::AddMeasurement)} data-testid="measurement-add">
                { t("form.measurement-add") }
            </button>
            { logs(props) }
        </section>
    }
}

/// The files of a drop or a pick, in order.
fn files(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    let Some(list) = list else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}

/// Where logs are dropped or chosen, and what reading them said.
fn logs(props: &PanelProps) -> Html {
    let on_drop = props.on_logs.reform(|e: DragEvent| {
        e.prevent_default();
        files(e.data_transfer().and_then(|d| d.files()))
    });
    let on_over = Callback::from(|e: DragEvent| e.prevent_default());
    let on_pick = {
        let on_logs = props.on_logs.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else { return };
            on_logs.emit(files(input.files()));
            input.set_value("");
        })
    };
    let status = &props.measured;
    html! {
        <div class="drop" data-testid="measure-log" ondrop={on_drop} ondragover={on_over}>
            <p class="reading">{ t("measure.drop") }</p>
            <label class="button">{ t("measure.pick") }
                <input type="file" multiple=true class="visually-hidden" data-testid="measure-log-file" onchange={on_pick} />
            </label>
            if status.running {
                <p role="status">{ t("measure.reading") }</p>
            }
            { for status.errors.iter().map(|e| html! { <p class="bad" role="alert">{ e.clone() }</p> }) }
            if let Some(view) = &status.result {
                <div data-testid="measure-report">{ crate::ui::job::lines(&view.lines) }</div>
            }
        </div>
    }
}
