//! The year panel: off until the user starts a year from the plan, then the `year` section as
//! a form (its first day and horizon, each delivery, each site's power cap over time, each job
//! with its own figures) and, for what the form does not show (a job's own scenario, what a
//! purchase may be of), as text to edit
//! (`docs/scenario.md` names its keys), applied when it reads as an object; text that does not
//! is reported and changes nothing. Its answer is the *Year* section's.

use yew::prelude::*;

use super::{chip_options, Form, PanelProps};
use crate::app::edits::{example_year, year_change, year_text};
use crate::app::state::{Action, Edit, Notice};
use crate::scenario::year::JobKind;
use crate::scenario::{fields, paths};
use crate::text::{fill, t};
use crate::ui::fields::SelectField;

pub fn year_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let scenario = &props.state.scenario;
    let text = year_text(scenario);
    let on = !text.is_empty();
    let start = {
        let example = example_year(scenario);
        let year = paths::YEAR.as_str().to_string();
        props.on_set.reform(move |_: MouseEvent| vec![(year.clone(), Some(example.clone()))])
    };
    let stop = props.on_set.reform(|_: MouseEvent| vec![(paths::YEAR.as_str().to_string(), None)]);
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
                    { start_date(&f) }
                    { f.render(f.number(&fields::YEAR_WEEKS, "year-weeks", fields::YEAR_WEEKS.fixed_default())) }
                </div>
                { deliveries(&f) }
                { caps(&f) }
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
/// many, the week they arrive and retire, and the site.
fn deliveries(f: &Form) -> Html {
    let mut chips = vec![("cluster".into(), t("form.year-chip-cluster").into())];
    chips.extend(chip_options());
    let fields = |i: usize, at: &dyn Fn(&str) -> String| {
        let chip = match f.text_at(&at("chip")) {
            id if id.is_empty() => "cluster".to_string(),
            id => id,
        };
        let (on_set, path) = (f.on_set.clone(), at("chip"));
        let on_chip =
            Callback::from(move |v: String| on_set.emit(vec![(path.clone(), Some(v.into()))]));
        let number = |field: &'static fields::Field, key: &str| {
            let testid = format!("year-delivery-{key}-{i}");
            f.render(f.number_at(field, at(key), &testid, field.fixed_default()))
        };
        let fields = html! {
            <>
                <SelectField testid={format!("year-delivery-chip-{i}")} label={t("form.year-delivery-chip")}
                    options={chips.clone()} value={chip} on_change={on_chip} errors={f.errors(&at("chip"))} />
                { number(&fields::YEAR_DELIVERIES_CHIPS, "chips") }
                { number(&fields::YEAR_DELIVERIES_WEEK, "week") }
                { number(&fields::YEAR_DELIVERIES_RETIRE, "retire") }
                { site_select(f, at("site"), format!("year-delivery-site-{i}")) }
            </>
        };
        (fill("form.year-delivery", &[("n", &(i + 1).to_string())]), fields, Html::default())
    };
    let add =
        Add { testid: "year-delivery-add", key: "form.year-delivery-add", edit: Edit::AddDelivery };
    DELIVERIES.show(
        f,
        "form.year-deliveries-none",
        &fields,
        |at| Edit::RemoveDelivery { at },
        vec![add],
    )
}

/// The year's first day, as a date (`YYYY-MM-DD`); emptied, the default's.
fn start_date(f: &Form) -> Html {
    let on_set = f.on_set.clone();
    let onchange = Callback::from(move |e: Event| {
        let typed = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
        let value = (!typed.trim().is_empty()).then(|| typed.trim().to_string().into());
        on_set.emit(vec![(paths::YEAR_START.as_str().to_string(), value)]);
    });
    let value = match f.text_at(paths::YEAR_START.as_str()) {
        d if d.is_empty() => crate::scenario::year::DEFAULT_START.to_string(),
        d => d,
    };
    html! {
        <div class="field">
            <label>
                <span class="label">{ t("form.year-start") }</span>
                <input type="date" class="name" data-testid="year-start" value={value} {onchange} />
            </label>
            { crate::ui::fields::messages(&crate::ui::fields::MessagesProps {
                testid: "year-start".into(), errors: f.errors(paths::YEAR_START.as_str()), ..Default::default() }) }
        </div>
    }
}

/// A select of the scenario's sites for an entry's `site` at `path` (blank: the cluster's
/// own), or nothing for a scenario of one site.
fn site_select(f: &Form, path: String, testid: String) -> Html {
    let sites = f.len(paths::SITES);
    if sites == 0 {
        return Html::default();
    }
    let mut options = vec![("".into(), t("form.year-site-cluster").into())];
    options.extend(
        (0..sites)
            .map(|k| f.text_at(&format!("sites.{k}.name")))
            .filter(|n| !n.is_empty())
            .map(|n| (AttrValue::from(n.clone()), AttrValue::from(n))),
    );
    let value = f.text_at(&path);
    let errors = f.errors(&path);
    let on_set = f.on_set.clone();
    let on_change = Callback::from(move |v: String| {
        on_set.emit(vec![(path.clone(), (!v.is_empty()).then(|| v.into()))]);
    });
    html! {
        <SelectField {testid} label={t("form.year-site")} {options} {value} {on_change} {errors} />
    }
}

/// Each site's power cap over time, one row a cap: the megawatts (every chip's draw with PUE),
/// the week it starts, until the site's next, and the site.
fn caps(f: &Form) -> Html {
    let fields = |i: usize, at: &dyn Fn(&str) -> String| {
        let number = |field: &'static fields::Field, key: &str| {
            let testid = format!("year-cap-{key}-{i}");
            f.render(f.number_at(field, at(key), &testid, field.fixed_default()))
        };
        let fields = html! {
            <>
                { number(&fields::YEAR_POWER_MW, "mw") }
                { number(&fields::YEAR_POWER_WEEK, "week") }
                { site_select(f, at("site"), format!("year-cap-site-{i}")) }
            </>
        };
        (fill("form.year-cap", &[("n", &(i + 1).to_string())]), fields, Html::default())
    };
    let add = Add { testid: "year-cap-add", key: "form.year-cap-add", edit: Edit::AddPowerCap };
    CAPS.show(f, "form.year-caps-none", &fields, |at| Edit::RemovePowerCap { at }, vec![add])
}

/// The jobs, one block a job: its name, kind and model, the job it runs after, its weeks and
/// priority; a training job's tokens, chip bounds and whether it is elastic, a serving job's
/// load.
fn jobs(f: &Form) -> Html {
    let count = f.len(JOBS.path);
    let names: Vec<String> =
        (0..count).map(|i| f.text_at(&format!("year.jobs.{i}.name"))).collect();
    let mut models = vec![(AttrValue::default(), AttrValue::from(t("form.year-job-model-plan")))];
    models.extend(crate::model::presets::TRANSFORMERS.iter().map(|p| {
        let name = crate::app::words::preset_name("model", p.id, p.name);
        (AttrValue::from(p.id), AttrValue::from(name))
    }));
    let fields = |i: usize, at: &dyn Fn(&str) -> String| {
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
        // A number of the job, its placeholder the field's default or else `resolved`.
        let number = |field: &'static fields::Field, key: &str, resolved: Option<f64>| {
            let testid = format!("year-job-{}-{i}", key.replace('.', "-"));
            let shown = field.fixed_default().or(resolved);
            f.render(f.number_at(field, at(key), &testid, shown))
        };
        let serve = kind == fields::YEAR_JOBS_KIND.code(JobKind::Serve);
        // The model the job trains or serves: the plan's, or one of the catalog's.
        let model = f.text_at(&at("scenario.model.preset"));
        let on_model = f.on_edit.reform(move |preset: String| Edit::YearJobModel {
            at: i,
            preset: (!preset.is_empty()).then_some(preset),
        });
        let plan_tokens = f.good.map(|g| g.inputs.training.tokens);
        let elastic = {
            let path = at("elastic");
            let checked = f.raw_at(&path).and_then(|v| v.as_bool()).unwrap_or(false);
            crate::ui::fields::toggle_field(crate::ui::fields::ToggleFieldProps {
                path: path.clone().into(),
                testid: format!("year-job-elastic-{i}").into(),
                label: crate::app::words::label(&path).into(),
                checked,
                help: crate::app::words::help(&path).into(),
                notes: f.notes(&path),
                on_set: f.on_set.clone(),
            })
        };
        let fields = html! {
            <>
                <div class="field">
                    <label>
                        <span class="label">{ t("form.year-job-name") }</span>
                        <input type="text" class="name" data-testid={format!("year-job-name-{i}")} value={name.clone()}
                            spellcheck="false" onchange={on_name} />
                    </label>
                </div>
                <SelectField testid={format!("year-job-kind-{i}")} label={crate::app::words::label("year.jobs.kind")}
                    options={kinds} value={kind.clone()} on_change={on_kind} errors={f.errors(&at("kind"))} />
                <SelectField testid={format!("year-job-model-{i}")} label={t("form.year-job-model")}
                    options={models.clone()} value={model} on_change={on_model}
                    errors={f.errors(&at("scenario.model.preset"))} />
                <SelectField testid={format!("year-job-after-{i}")} label={t("form.year-after")}
                    options={afters} value={f.text_at(&at("after"))} on_change={on_after} errors={f.errors(&at("after"))} />
                { number(&fields::YEAR_JOBS_EARLIEST, "earliest", None) }
                { number(&fields::YEAR_JOBS_DEADLINE, "deadline", None) }
                { number(&fields::YEAR_JOBS_PRIORITY, "priority", None) }
                if serve {
                    { number(&fields::YEAR_JOBS_TOKENS_PER_DAY, "tokens_per_day", None) }
                    { number(&fields::YEAR_JOBS_GROWTH_PER_MONTH, "growth_per_month", None) }
                    { number(&fields::YEAR_JOBS_PEAK_OVER_MEAN, "peak_over_mean", None) }
                } else {
                    { number(&fields::TRAINING_TOKENS, "scenario.training.tokens", plan_tokens) }
                    { number(&fields::YEAR_JOBS_CHIPS_MIN, "chips.min", None) }
                    { number(&fields::YEAR_JOBS_CHIPS_MAX, "chips.max", None) }
                }
            </>
        };
        let below = if serve { Html::default() } else { elastic };
        let legend = fill("form.year-job", &[("n", &(i + 1).to_string()), ("name", &name)]);
        (legend, fields, below)
    };
    let adds = vec![
        Add {
            testid: "year-job-add",
            key: "form.year-job-add",
            edit: Edit::AddYearJob { serve: false },
        },
        Add {
            testid: "year-serve-add",
            key: "form.year-serve-add",
            edit: Edit::AddYearJob { serve: true },
        },
    ];
    // Without a list the year runs the plan's own training once; with an empty one, nothing.
    let none = match f.raw(JOBS.path) {
        None => "form.year-jobs-plan",
        Some(_) => "form.year-jobs-none",
    };
    JOBS.show(f, none, &fields, |at| Edit::RemoveYearJob { at }, adds)
}

/// A list of the year as the form shows it: a heading, an entry a fieldset with its remove
/// link, and the buttons adding to it that would change anything (none at the list's bound,
/// nor one whose entry would fall past the horizon).
struct List {
    /// Its place (`year.deliveries`) and an entry's `data-testid` (`year-delivery`).
    path: crate::scenario::Path,
    testid: &'static str,
    /// The key of the heading, and of an entry's remove link (`…-remove`, and
    /// `…-remove-named` its label for screen readers).
    heading: &'static str,
    entry: &'static str,
}

const DELIVERIES: List = List {
    path: paths::YEAR_DELIVERIES,
    testid: "year-delivery",
    heading: "form.year-deliveries",
    entry: "form.year-delivery",
};

const CAPS: List = List {
    path: paths::YEAR_POWER,
    testid: "year-cap",
    heading: "form.year-caps",
    entry: "form.year-cap",
};

const JOBS: List = List {
    path: paths::YEAR_JOBS,
    testid: "year-job",
    heading: "form.year-jobs",
    entry: "form.year-job",
};

/// What makes entry `i` of a list, given where its keys are (`at("chip")`): its legend, the
/// fields of its grid and what goes under them. One shape for every list, not one copy each.
type Entry<'a> = &'a dyn Fn(usize, &dyn Fn(&str) -> String) -> (String, Html, Html);

/// A button adding to a list: its `data-testid`, the key of its words and its edit.
struct Add {
    testid: &'static str,
    key: &'static str,
    edit: Edit,
}

impl List {
    /// The list, each entry `i` from `fields(i, at)` (`at` a key's place in the entry): its
    /// legend, the fields of its grid and what goes under them.
    fn show(
        &self,
        f: &Form,
        none: &'static str,
        fields: Entry,
        remove: fn(usize) -> Edit,
        adds: Vec<Add>,
    ) -> Html {
        let count = f.len(self.path);
        let adds: Vec<Add> = adds
            .into_iter()
            .filter(|a| a.edit.changes_anything(&f.state.scenario, f.good))
            .collect();
        let entry = |i: usize| {
            let base = format!("{}.{i}", self.path.as_str());
            let at = |key: &str| format!("{base}.{key}");
            let (legend, grid, below) = fields(i, &at);
            let onclick = f.on_edit.reform(move |_: MouseEvent| remove(i));
            let label =
                fill(&format!("{}-remove-named", self.entry), &[("n", &(i + 1).to_string())]);
            html! {
                <fieldset class="measurement" data-testid={self.testid} data-path={base.clone()}>
                    <legend>{ legend }</legend>
                    <div class="grid">{ grid }</div>
                    { below }
                    <button type="button" class="link" data-testid={format!("{}-remove-{i}", self.testid)} {onclick}
                        aria-label={label}>{ t(&format!("{}-remove", self.entry)) }</button>
                </fieldset>
            }
        };
        let add = |a: Add| {
            let edit = a.edit;
            let onclick = f.on_edit.reform(move |_: MouseEvent| edit.clone());
            html! { <button type="button" data-testid={a.testid} {onclick}>{ t(a.key) }</button> }
        };
        html! {
            <>
                <h3>{ t(self.heading) }</h3>
                if count == 0 {
                    <p class="reading">{ t(none) }</p>
                }
                { for (0..count).map(entry) }
                if !adds.is_empty() {
                    <div class="adds">{ for adds.into_iter().map(add) }</div>
                }
            </>
        }
    }
}
