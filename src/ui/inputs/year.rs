//! The year panel: off until the user starts a year from the plan, then the `year` section as
//! a form (the horizon, each delivery, each job with its own figures) and, for what the form
//! does not show (a job's own scenario, power caps, what a purchase may be of), as text to edit
//! (`docs/scenario.md` names its keys), applied when it reads as an object; text that does not
//! is reported and changes nothing. Its answer is the *Year* section's.

use yew::prelude::*;

use super::{chip_options, Form, PanelProps};
use crate::app::edits::{example_year, year_change, year_text};
use crate::app::state::{Action, Edit, Notice};
use crate::scenario::fields;
use crate::scenario::year::JobKind;
use crate::text::{fill, t};
use crate::ui::fields::SelectField;

pub fn year_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let scenario = &props.state.scenario;
    let text = year_text(scenario);
    let on = !text.is_empty();
    let start = {
        let example = example_year(scenario);
        props.on_set.reform(move |_: MouseEvent| vec![("year".to_string(), Some(example.clone()))])
    };
    let stop = props.on_set.reform(|_: MouseEvent| vec![("year".to_string(), None)]);
    let on_set = props.on_set.clone();
    let on_action = props.on_action.clone();
    let onchange = Callback::from(move |e: Event| {
        let typed = e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value();
        match year_change(&typed) {
            Ok(changes) => on_set.emit(changes),
            Err(why) => on_action.emit(Action::Notify(Notice::Text(why))),
        }
    });
    let rows = text.lines().count().clamp(6, 30).to_string();
    html! {
        <section class="panel" data-testid="year-panel">
            <h2>{ t("form.year") }</h2>
            <p class="hint">{ t("form.year-hint") }</p>
            if on {
                <div class="grid">
                    { f.render(f.number(&fields::YEAR_WEEKS, "year-weeks", Some(52.0))) }
                </div>
                { deliveries(&f) }
                { jobs(&f) }
                <details class="year-text">
                    <summary data-testid="year-as-text">{ t("form.year-as-text") }</summary>
                    <label class="field wide">
                        <span>{ t("form.year-text") }</span>
                        <textarea class="code" data-testid="year-json" spellcheck="false" rows={rows}
                            value={text} {onchange} />
                    </label>
                </details>
                <button type="button" class="link" data-testid="year-off" onclick={stop}>{ t("form.year-off") }</button>
            } else {
                <button type="button" data-testid="year-on" onclick={start}>{ t("form.year-on") }</button>
            }
        </section>
    }
}

/// The chips arriving, one row a delivery: which chip (the cluster's own or the catalog's), how
/// many, the week they arrive and the week they retire.
fn deliveries(f: &Form) -> Html {
    let count = f.len(crate::scenario::paths::YEAR_DELIVERIES);
    let mut chips = vec![("cluster".into(), t("form.year-chip-cluster").into())];
    chips.extend(chip_options());
    let row = |i: usize| {
        let at = |key: &str| format!("year.deliveries.{i}.{key}");
        let chip = match f.text_at(&at("chip")) {
            id if id.is_empty() => "cluster".to_string(),
            id => id,
        };
        let on_set = f.on_set.clone();
        let path = at("chip");
        let on_chip =
            Callback::from(move |v: String| on_set.emit(vec![(path.clone(), Some(v.into()))]));
        let remove = f.on_edit.reform(move |_: MouseEvent| Edit::RemoveDelivery { at: i });
        let number = |field: &'static fields::Field, key: &str, resolved: Option<f64>| {
            f.render(f.number_at(field, at(key), &format!("year-delivery-{key}-{i}"), resolved))
        };
        let n = (i + 1).to_string();
        html! {
            <fieldset class="measurement" data-testid="year-delivery" data-path={format!("year.deliveries.{i}")}>
                <legend>{ fill("form.year-delivery", &[("n", &n)]) }</legend>
                <div class="grid">
                    <SelectField testid={format!("year-delivery-chip-{i}")} label={t("form.year-delivery-chip")}
                        options={chips.clone()} value={chip} on_change={on_chip} errors={f.errors(&at("chip"))} />
                    { number(&fields::YEAR_DELIVERIES_CHIPS, "chips", None) }
                    { number(&fields::YEAR_DELIVERIES_WEEK, "week", Some(0.0)) }
                    { number(&fields::YEAR_DELIVERIES_RETIRE, "retire", None) }
                </div>
                <button type="button" class="link" data-testid={format!("year-delivery-remove-{i}")} onclick={remove}
                    aria-label={fill("form.year-delivery-remove-named", &[("n", &n)])}>{ t("form.year-delivery-remove") }</button>
            </fieldset>
        }
    };
    let add = f.on_edit.reform(|_: MouseEvent| Edit::AddDelivery);
    html! {
        <>
            <h3>{ t("form.year-deliveries") }</h3>
            if count == 0 {
                <p class="reading">{ t("form.year-deliveries-none") }</p>
            }
            { for (0..count).map(row) }
            if count < crate::scenario::year::MAX_DELIVERIES {
                <button type="button" data-testid="year-delivery-add" onclick={add}>{ t("form.year-delivery-add") }</button>
            }
        </>
    }
}

/// The jobs, one block a job: its name and kind, the job it runs after, its weeks and
/// priority; a training job's chip bounds and whether it is elastic, a serving job's load.
fn jobs(f: &Form) -> Html {
    let count = f.len(crate::scenario::paths::YEAR_JOBS);
    let names: Vec<String> =
        (0..count).map(|i| f.text_at(&format!("year.jobs.{i}.name"))).collect();
    let row = |i: usize| {
        let at = |key: &str| format!("year.jobs.{i}.{key}");
        let name = names[i].clone();
        let on_name = f.on_edit.reform(move |e: Event| {
            let typed = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            Edit::RenameYearJob { at: i, name: typed }
        });
        let kind = match f.text_at(&at("kind")) {
            k if k.is_empty() => fields::YEAR_JOBS_KIND.code(JobKind::Pretrain).to_string(),
            k => k,
        };
        let kinds: Vec<(AttrValue, AttrValue)> = fields::YEAR_JOBS_KIND
            .offered()
            .into_iter()
            .map(|k| (k.into(), t(&format!("option.year.jobs.kind.{k}")).into()))
            .collect();
        let on_kind = {
            let (on_set, path) = (f.on_set.clone(), at("kind"));
            Callback::from(move |v: String| on_set.emit(vec![(path.clone(), Some(v.into()))]))
        };
        // Any other job may be the one this job waits for.
        let mut afters = vec![("".into(), t("form.year-after-none").into())];
        afters.extend(
            names
                .iter()
                .enumerate()
                .filter(|&(j, n)| j != i && !n.is_empty())
                .map(|(_, n)| (AttrValue::from(n.clone()), AttrValue::from(n.clone()))),
        );
        let on_after = {
            let (on_set, path) = (f.on_set.clone(), at("after"));
            Callback::from(move |v: String| {
                let value = (!v.is_empty()).then(|| v.into());
                on_set.emit(vec![(path.clone(), value)]);
            })
        };
        let number = |field: &'static fields::Field, key: &str, resolved: Option<f64>| {
            let testid = format!("year-job-{}-{i}", key.replace('.', "-"));
            f.render(f.number_at(field, at(key), &testid, resolved))
        };
        let serve = kind == "serve";
        let elastic = {
            let path = at("elastic");
            let checked = f.raw_at(&path).and_then(|v| v.as_bool()).unwrap_or(false);
            crate::ui::fields::toggle_field(crate::ui::fields::ToggleFieldProps {
                path: path.clone().into(),
                testid: format!("year-job-elastic-{i}").into(),
                label: crate::app::words::label(&path).into(),
                checked,
                help: crate::app::words::help(&path).into(),
                notes: Vec::new(),
                on_set: f.on_set.clone(),
            })
        };
        let remove = f.on_edit.reform(move |_: MouseEvent| Edit::RemoveYearJob { at: i });
        let n = (i + 1).to_string();
        html! {
            <fieldset class="measurement" data-testid="year-job" data-path={format!("year.jobs.{i}")}>
                <legend>{ fill("form.year-job", &[("n", &n), ("name", &name)]) }</legend>
                <div class="grid">
                    <div class="field">
                        <label>
                            <span class="label">{ t("form.year-job-name") }</span>
                            <input type="text" class="name" data-testid={format!("year-job-name-{i}")} value={name.clone()}
                                spellcheck="false" onchange={on_name} />
                        </label>
                    </div>
                    <SelectField testid={format!("year-job-kind-{i}")} label={crate::app::words::label("year.jobs.kind")}
                        options={kinds} value={kind.clone()} on_change={on_kind} errors={f.errors(&at("kind"))} />
                    <SelectField testid={format!("year-job-after-{i}")} label={t("form.year-after")}
                        options={afters} value={f.text_at(&at("after"))} on_change={on_after} errors={f.errors(&at("after"))} />
                    { number(&fields::YEAR_JOBS_EARLIEST, "earliest", Some(0.0)) }
                    { number(&fields::YEAR_JOBS_DEADLINE, "deadline", None) }
                    { number(&fields::YEAR_JOBS_PRIORITY, "priority", Some(if serve { 0.0 } else { 2.0 })) }
                    if serve {
                        { number(&fields::YEAR_JOBS_TOKENS_PER_DAY, "tokens_per_day", None) }
                        { number(&fields::YEAR_JOBS_GROWTH_PER_MONTH, "growth_per_month", Some(0.0)) }
                        { number(&fields::YEAR_JOBS_PEAK_OVER_MEAN, "peak_over_mean", None) }
                    } else {
                        { number(&fields::YEAR_JOBS_CHIPS_MIN, "chips.min", None) }
                        { number(&fields::YEAR_JOBS_CHIPS_MAX, "chips.max", None) }
                    }
                </div>
                if !serve { { elastic } }
                <button type="button" class="link" data-testid={format!("year-job-remove-{i}")} onclick={remove}
                    aria-label={fill("form.year-job-remove-named", &[("n", &n)])}>{ t("form.year-job-remove") }</button>
            </fieldset>
        }
    };
    let add_train = f.on_edit.reform(|_: MouseEvent| Edit::AddYearJob { serve: false });
    let add_serve = f.on_edit.reform(|_: MouseEvent| Edit::AddYearJob { serve: true });
    html! {
        <>
            <h3>{ t("form.year-jobs") }</h3>
            { for (0..count).map(row) }
            if count < crate::scenario::year::MAX_JOBS {
                <button type="button" data-testid="year-job-add" onclick={add_train}>{ t("form.year-job-add") }</button>
                { " " }
                <button type="button" data-testid="year-serve-add" onclick={add_serve}>{ t("form.year-serve-add") }</button>
            }
        </>
    }
}
