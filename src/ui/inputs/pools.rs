//! The pools panel: further pools of other chips beside the cluster (`cluster.pools`), the link
//! between them and how one job spans them; and the job over all of them, by pool. The job is
//! `model::pools`' (`Scenario::pools`); this panel only edits the list and shows it.

use serde_json::{json, Value};
use yew::prelude::*;

use super::{Form, PanelProps};
use crate::format;
use crate::model::pools::{across, best_split, Across};
use crate::model::presets;
use crate::scenario::{fields, Scenario};
use crate::sizing::{add_to_fleet, Addition};
use crate::text::{fill, t};
use crate::ui::fields::SelectField;
use crate::ui::state::Action;

/// The pools panel.
pub fn pools_panel(props: &PanelProps) -> Html {
    let f = Form::new(props);
    let list: Vec<Value> =
        f.raw("cluster.pools").and_then(|v| v.as_array().cloned()).unwrap_or_default();
    let own_chip = f.raw("cluster.chip").and_then(|v| v.as_str().map(str::to_string));
    let add = {
        let (on_set, list) = (f.on_set.clone(), list.clone());
        let chips = f.good.map_or(1024, |g| g.inputs.cluster.n_chips);
        let chip = own_chip.unwrap_or_else(|| "h100-sxm".into());
        Callback::from(move |_: MouseEvent| {
            let mut next = list.clone();
            next.push(json!({ "chip": chip, "chips": chips }));
            let mut changes = vec![("cluster.pools".to_string(), Some(Value::Array(next)))];
            if list.is_empty() {
                changes.push(("cluster.between_pools".into(), Some(json!({ "gbit_per_s": 400 }))));
            }
            on_set.emit(changes);
        })
    };
    let chip_options: Vec<(AttrValue, AttrValue)> =
        presets::CHIPS.iter().map(|p| (AttrValue::from(p.id), AttrValue::from(p.name))).collect();
    let pool = |(i, item): (usize, &Value)| {
        let chip = item.get("chip").and_then(Value::as_str).unwrap_or_default().to_string();
        let on_set = f.on_set.clone();
        let on_chip = Callback::from(move |v: String| {
            on_set.emit(vec![(format!("cluster.pools.{i}.chip"), Some(Value::String(v)))]);
        });
        let remove = {
            let (on_set, list) = (f.on_set.clone(), list.clone());
            Callback::from(move |_: MouseEvent| {
                let mut next = list.clone();
                next.remove(i);
                let value = (!next.is_empty()).then_some(Value::Array(next));
                let mut changes = vec![("cluster.pools".to_string(), value.clone())];
                if value.is_none() {
                    changes.push(("cluster.between_pools".into(), None));
                    changes.push(("parallelism.across_pools".into(), None));
                }
                on_set.emit(changes);
            })
        };
        let chips = f.number_at(
            &fields::CLUSTER_CHIPS,
            format!("cluster.pools.{i}.chips"),
            &format!("pool-chips-{i}"),
            None,
        );
        html! {
            <div class="measurement" data-testid="pool">
                <SelectField testid={format!("pool-chip-{i}")} label={fill("form.pool", &[("n", &(i + 2).to_string())])}
                    options={chip_options.clone()} value={chip} on_change={on_chip} />
                { f.render(chips) }
                <button type="button" class="link" data-testid={format!("pool-remove-{i}")} onclick={remove}
                    aria-label={fill("form.pool-remove-named", &[("n", &(i + 2).to_string())])}>{ t("form.pool-remove") }</button>
            </div>
        }
    };
    // Each pool's chip by name: the cluster's own first, then the list's.
    let mut names = vec![f
        .state
        .scenario
        .chip_preset()
        .map_or_else(|| t("title.custom-chip").to_string(), |p| p.name.to_string())];
    names.extend(list.iter().map(|item| {
        let id = item.get("chip").and_then(Value::as_str).unwrap_or_default();
        presets::chip(id).map_or_else(|| t("title.custom-chip").to_string(), |p| p.name.to_string())
    }));
    let job = pool_job(&f, &names);
    html! {
        <section class="panel" data-testid="pools-panel">
            <h2>{ t("form.pools") }</h2>
            <p class="reading">{ t("form.pools-hint") }</p>
            { for list.iter().enumerate().map(pool) }
            if !list.is_empty() {
                <div class="grid">
                    { f.render(f.number(&fields::CLUSTER_BETWEEN_POOLS_GBIT_PER_S, "between-pools", None)) }
                </div>
                { f.choice(&fields::PARALLELISM_ACROSS_POOLS, "across-pools", Across::Data) }
            }
            <button type="button" data-testid="pool-add" onclick={add}>{ t("form.pool-add") }</button>
            { job }
            <FleetAdd scenario={f.state.scenario.clone()} on_action={props.on_action.clone()} lang={crate::text::lang()} />
            { sites_section(&f, list.len()) }
        </section>
    }
}

/// The job over every pool, by pool, or why it cannot be estimated.
fn pool_job(f: &Form, names: &[String]) -> Html {
    let pools = match f.state.scenario.pools() {
        Ok(Some(p)) => p,
        Ok(None) => return html! {},
        Err(errors) => {
            let words: Vec<String> = errors.iter().map(ToString::to_string).collect();
            return html! { <p class="bad" data-testid="pool-errors">{ words.join("; ") }</p> };
        }
    };
    let job = across(&pools.pools, pools.across, pools.between);
    // The search over splits: how much the best beats the fastest pool alone, and how far it
    // stays below the pools apart.
    let best = best_split(&pools.pools, pools.between);
    let found = best.how.map(|how| {
        let shares: Vec<String> = best.job.parts.iter().map(|p| format::percent(p.share)).collect();
        fill(
            "form.pool-best",
            &[
                (
                    "how",
                    t(&format!(
                        "option.parallelism.across_pools.{}",
                        fields::PARALLELISM_ACROSS_POOLS.code(how)
                    )),
                ),
                ("shares", &shares.join(" / ")),
                ("days", &format::days(best.job.train_days)),
                ("gain", &format::percent(best.gain_over_alone())),
                ("short", &format::percent(best.short_of_apart())),
            ],
        )
    });
    let rows = names.iter().zip(&job.parts).map(|(name, p)| {
        html! {
            <tr data-testid="pool-row">
                <td>{ fill("form.pool-chips", &[("chip", name), ("n", &crate::numbers::format(p.chips as f64))]) }</td>
                <td>{ format::percent(p.share) }</td>
                <td>{ format::seconds(p.busy_s) }</td>
                <td>{ format::seconds(p.waits_s) }</td>
                <td class={classes!((!p.fits).then_some("bad"))}>{ t(if p.fits { "fit.fits" } else { "fit.does-not-fit" }) }</td>
            </tr>
        }
    });
    let head = [
        "form.pool-head.pool",
        "form.pool-head.share",
        "form.pool-head.busy",
        "form.pool-head.waits",
        "form.pool-head.fits",
    ];
    html! {
        <div data-testid="pool-cards">
            <p class="fit" data-testid="pool-job">{ fill("form.pool-job", &[
                ("days", &format::days(job.train_days)),
                ("tps", &format::count(job.tokens_per_s)),
                ("link", &format::seconds(job.link_s)),
            ]) }</p>
            <table class="job-results">
                <thead><tr>{ for head.iter().map(|k| html! { <th>{ t(k) }</th> }) }</tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            if let Some(found) = found { <p class="reading" data-testid="pool-best">{ found }</p> }
        </div>
    }
}

/// Properties of the fleet-sizing question.
#[derive(Properties, PartialEq)]
pub struct AddProps {
    pub scenario: Scenario,
    pub on_action: Callback<Action>,
    /// The language spoken, so the words follow a switch.
    pub lang: crate::text::Lang,
}

/// "Add which chip, how many, to meet the deadline": the fewest chips of a kind to add beside
/// the fleet (`sizing::add_to_fleet`), with days, MW and capex, and Apply.
#[function_component(FleetAdd)]
pub fn fleet_add(props: &AddProps) -> Html {
    let chip = use_state(|| "ascend-910b".to_string());
    let deadline = use_state(|| "90".to_string());
    let answer = use_state(|| None::<Result<Option<Addition>, String>>);
    let ask = {
        let (chip, deadline, answer, scenario) =
            (chip.clone(), deadline.clone(), answer.clone(), props.scenario.clone());
        Callback::from(move |_: MouseEvent| {
            let days = crate::numbers::parse(&deadline).unwrap_or(0.0);
            let found = add_to_fleet(&scenario, &chip, days)
                .map_err(|e| e.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "));
            answer.set(Some(found));
        })
    };
    let options: Vec<(AttrValue, AttrValue)> =
        presets::CHIPS.iter().map(|p| (AttrValue::from(p.id), AttrValue::from(p.name))).collect();
    let on_chip = {
        let chip = chip.clone();
        Callback::from(move |v: String| chip.set(v))
    };
    let on_deadline = {
        let deadline = deadline.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                deadline.set(input.value());
            }
        })
    };
    let name = presets::chip(&chip).map_or(chip.to_string(), |p| p.name.to_string());
    let said = match &*answer {
        None => html! {},
        Some(Err(why)) => {
            html! { <p class="bad" data-testid="fleet-add-answer">{ why.clone() }</p> }
        }
        Some(Ok(None)) => {
            html! { <p class="bad" data-testid="fleet-add-answer">{ t("form.fleet-none") }</p> }
        }
        Some(Ok(Some(a))) => {
            let apply = {
                let (on_action, next) = (props.on_action.clone(), a.scenario.clone());
                let label = fill(
                    "form.pool-chips",
                    &[("chip", &name), ("n", &crate::numbers::format(a.chips as f64))],
                );
                Callback::from(move |_: MouseEvent| {
                    on_action.emit(Action::Apply {
                        label: label.clone(),
                        scenario: Box::new(next.clone()),
                    })
                })
            };
            html! {
                <p data-testid="fleet-add-answer">
                    { fill("form.fleet-answer", &[
                        ("n", &crate::numbers::format(a.chips as f64)),
                        ("chip", &name),
                        ("days", &format::days(a.job.job.train_days)),
                        ("mw", &format::sig3(a.power_w / 1e6)),
                        ("usd", &format::count(a.capex_usd)),
                    ]) }
                    { " " }<button type="button" data-testid="fleet-add-apply" onclick={apply}>{ t("job.apply") }</button>
                </p>
            }
        }
    };
    html! {
        <div class="fleet-add">
            <SelectField testid="fleet-add-chip" label={t("form.fleet-chip")} options={options}
                value={(*chip).clone()} on_change={on_chip} />
            <label>{ t("form.fleet-deadline") }{ " " }
                <input type="text" inputmode="decimal" size="6" value={(*deadline).clone()} oninput={on_deadline}
                    data-testid="fleet-deadline" /></label>
            { " " }<button type="button" data-testid="fleet-add" onclick={ask}>{ t("form.fleet-ask") }</button>
            { said }
        </div>
    }
}

/// The sites section: sites far apart (`sites`), which site each pool stands in, how they
/// synchronise, and the job over every site with its wide-area traffic and each site's power
/// and cost.
pub fn sites_section(f: &Form, pools: usize) -> Html {
    let sites: Vec<Value> = f.raw("sites").and_then(|v| v.as_array().cloned()).unwrap_or_default();
    let names: Vec<String> = sites
        .iter()
        .filter_map(|s| s.get("name").and_then(Value::as_str).map(str::to_string))
        .collect();
    let add = {
        let (on_set, sites) = (f.on_set.clone(), sites.clone());
        Callback::from(move |_: MouseEvent| {
            let letter = |i: usize| char::from(b'A' + (i % 26) as u8).to_string();
            let mut next = sites.clone();
            let mut changes = Vec::new();
            if next.is_empty() {
                next.push(json!({ "name": letter(0), "wan_gbit_per_s": 100 }));
                changes.push(("cluster.site".to_string(), Some(json!(letter(0)))));
            }
            next.push(json!({ "name": letter(next.len()), "wan_gbit_per_s": 100 }));
            changes.push(("sites".to_string(), Some(Value::Array(next))));
            on_set.emit(changes);
        })
    };
    let options: Vec<(AttrValue, AttrValue)> =
        names.iter().map(|n| (AttrValue::from(n.clone()), AttrValue::from(n.clone()))).collect();
    let site_of = |path: String, testid: String, label: String| {
        let value = f
            .raw(&path)
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| names.first().cloned().unwrap_or_default());
        let on_set = f.on_set.clone();
        let on_change = Callback::from(move |v: String| {
            on_set.emit(vec![(path.clone(), Some(Value::String(v)))])
        });
        html! { <SelectField {testid} {label} options={options.clone()} {value} {on_change} /> }
    };
    let job = match f.state.scenario.sites() {
        Ok(Some(s)) => f.good.map(|g| {
            let e = s.job(&g.inputs);
            let rows = s.names().into_iter().zip(&e.sites).map(|(name, p)| html! {
                <tr data-testid="site-row">
                    <td>{ name }</td>
                    <td>{ format::percent(p.share) }</td>
                    <td>{ fill("unit.mw", &[("n", &format::sig3(p.power_w / 1e6))]) }</td>
                    <td>{ fill("unit.usd", &[("n", &format::count(p.run_cost_usd))]) }</td>
                </tr>
            });
            let head = ["form.site-head.site", "form.pool-head.share", "form.site-head.power", "form.site-head.cost"];
            html! {
                <div data-testid="sites-cards">
                    <p class="fit" data-testid="sites-job">{ fill("form.sites-job", &[
                        ("days", &format::days(e.train_days)),
                        ("exposed", &format::seconds(e.wan.exposed_s)),
                        ("needed", &format::sig3(e.wan.gbit_per_s_needed)),
                    ]) }</p>
                    <table class="job-results">
                        <thead><tr>{ for head.iter().map(|k| html! { <th>{ t(k) }</th> }) }</tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
            }
        }).unwrap_or_default(),
        Ok(None) => html! {},
        Err(errors) => {
            let words: Vec<String> = errors.iter().map(ToString::to_string).collect();
            html! { <p class="bad" data-testid="site-errors">{ words.join("; ") }</p> }
        }
    };
    html! {
        <>
            <h2>{ t("form.sites") }</h2>
            <p class="reading">{ t("form.sites-hint") }</p>
            if !names.is_empty() {
                <div class="grid">
                    { for (0..sites.len()).map(|i| f.render(f.number_at(&fields::SITES_WAN_GBIT_PER_S,
                        format!("sites.{i}.wan_gbit_per_s"), &format!("site-wan-{i}"), None))) }
                </div>
                { site_of("cluster.site".into(), "cluster-site".into(), fill("form.pool-site", &[("n", "1")])) }
                { for (0..pools).map(|i| site_of(format!("cluster.pools.{i}.site"), format!("pool-site-{i}"),
                    fill("form.pool-site", &[("n", &(i + 2).to_string())]))) }
                { f.choice(&fields::PARALLELISM_ACROSS_SITES, "across-sites", crate::model::sites::Exchange::Sync) }
                <div class="grid">
                    { f.render(f.number(&fields::PARALLELISM_DILOCO_INNER_STEPS, "diloco-inner-steps", None)) }
                </div>
                { f.toggle(&fields::PARALLELISM_DILOCO_STREAMING, "diloco-streaming", false) }
            }
            <button type="button" data-testid="site-add" onclick={add}>{ t("form.site-add") }</button>
            { job }
        </>
    }
}
