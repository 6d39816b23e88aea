//! The command-line tool: the same model as the app, for scripting.
//!
//! A thin edge: it reads files, calls `Scenario::resolve` and `model::estimate`, and prints
//! JSON or Markdown. It holds no formulas. Exit status 2 means the input was invalid.

use std::io::{Read, Write};
use std::process::ExitCode;

use clusterplan::model::search;
use clusterplan::scenario::user_catalog::UserCatalog;
use clusterplan::scenario::{fields, Scenario};
use clusterplan::{catalog, evaluation, report, sizing, text, validation};

const USAGE: &str = "usage: clusterplan <command>

commands:
  predict FILE [--catalog CATALOG]
                 estimate each scenario in FILE (one object or an array; '-' reads stdin)
                 and print the estimates as JSON; with a catalog of your own chips, systems,
                 switches and models (the page's Export), a scenario may name its entries
  search FILE [--objective days|effective-days|cost|energy|serving-cost] [--top N]
                 search every plan for the scenario's workload and cluster and print the
                 best, the front of days against cost and the counts as JSON; exits 1
                 when no plan runs and fits, and says why
  size FILE --deadline-days D [--chip ID ...]
                 the smallest cluster of each chip (the scenario's when none is given)
                 that trains the workload in D days, with its plan, as JSON
  size FILE --tokens-per-day T [--chip ID ...]
                 the chips and megawatts each chip needs to serve T tokens a day at the
                 scenario's serving targets, at its cheapest deployment, as JSON
  size FILE --power-mw P [--chip ID ...]
                 the largest cluster of each chip whose site is provisioned within P MW,
                 with its racks, capex and the days its best plan takes, as JSON
  timeline FILE  the scenario's step as Chrome trace JSON (a thread a pipeline stage, its
                 passes, exposed communication, fill and drain, optimizer), for Perfetto
  sensitivity FILE
                 each uncertain input (efficiency, network, failure rates, checkpoints, PUE,
                 prices, the model's error) moved each way, and the days with failures and
                 the cost at each end, largest effect first, as JSON
  launch FILE --for FRAMEWORK [--file NAME]
                 the scenario's plan as the launch configuration of FRAMEWORK (megatron,
                 mindspeed, nemo, torchtitan, maxtext; sglang, vllm, trtllm, mindie for its
                 serving): its files, where the ranks sit and what the framework cannot
                 express, as JSON; with --file, that file's text alone
  measure LOG... [--scenario FILE]
                 read training logs (Megatron/MindSpeed, torchtitan, MaxText, MLPerf
                 :::MLLOG), nccl-tests tables and bench_serving results; print the logs'
                 calibration entries and what was read and skipped, as JSON; with a
                 scenario, the fit and its days before and after
  year FILE      the scenario's year: its jobs scheduled week by week on the fleet as it
                 arrives, each job's start and finish with its range and deadline, serving
                 met by week, utilisation, power against each site's cap, cost, and the
                 smallest purchase that makes every deadline and serving target hold, as JSON
  bom FILE       print the bill of materials of the scenario in FILE as CSV ('-' reads stdin)
  catalog        print every chip, fabric, system, switch and model preset with figures and
                 sources as JSON
  validate       compare the model with published training runs (Markdown table);
                 exits 1 if a row is outside its tolerance and not a documented miss
  example        print an example scenario";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (command, rest) = args.split_first().map_or(("", &[][..]), |(c, rest)| (*c, rest));
    match (command, rest) {
        ("predict", [path]) => predict(path, None),
        ("predict", [path, "--catalog", catalog]) => predict(path, Some(catalog)),
        ("bom", [path]) => bom(path),
        ("search", [path, rest @ ..]) => search(path, rest),
        ("size", [path, rest @ ..]) => size(path, rest),
        ("catalog", []) => print_json(&catalog::to_json()),
        ("validate", []) => validate(),
        ("timeline", [path]) => timeline(path),
        ("launch", [path, rest @ ..]) => launch(path, rest),
        ("measure", logs) if !logs.is_empty() => measure(logs),
        ("sensitivity", [path]) => sensitivity(path),
        ("year", [path]) => year(path),
        ("example", []) => {
            println!(
                "{}",
                pretty(&serde_json::to_value(Scenario::default_plan()).unwrap_or_default())
            );
            ExitCode::SUCCESS
        }
        ("help" | "--help" | "-h", []) => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn print_json(value: &serde_json::Value) -> ExitCode {
    println!("{}", pretty(value));
    ExitCode::SUCCESS
}

fn read_input(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))
    }
}

fn predict(path: &str, catalog: Option<&str>) -> ExitCode {
    let catalog = match catalog.map(|c| read_input(c).map(|t| UserCatalog::parse(&t))) {
        None => UserCatalog::default(),
        Some(Ok(Ok(catalog))) => catalog,
        Some(Ok(Err(e))) => {
            eprintln!("error: the catalog: {e}");
            return ExitCode::from(2);
        }
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let text = match read_input(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // Two passes, a scenario at a time, so a file of any length never sits in memory whole:
    // the first checks every scenario and says what is wrong with each; the second, when none
    // is, estimates each and prints it as soon as it is made.
    let is_array = text.trim_start_matches('\u{feff}').trim_start().starts_with('[');
    let which = |place: Option<usize>| place.map_or(String::new(), |n| format!("scenario {n}: "));
    let mut failed = false;
    let checked = Scenario::each(&text, |place, scenario| {
        let scenario = catalog.expand(&scenario);
        // The one judge the page and the worker use: fields, measurements, pools and sites,
        // refused here rather than set aside. A chip count the plan does not divide is
        // estimated with the rest idle, as the page does; the round counts are still offered.
        match evaluation::strict(&scenario) {
            Ok(evaluation::Shown { idle: Some(idle), .. }) => eprintln!(
                "note: {}{}; estimated with {} chips idle",
                which(place),
                bad_field(&idle.note),
                idle.chips
            ),
            Ok(_) => {}
            Err(errors) => {
                failed = true;
                for e in errors {
                    eprintln!("error: {}{}", which(place), bad_field(&e));
                }
            }
        }
    });
    if let Err(e) = checked {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    if failed {
        return ExitCode::from(2);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut first = true;
    let printed = Scenario::each(&text, |place, scenario| {
        let scenario = catalog.expand(&scenario);
        let Ok(evaluation::Shown { good, estimated: scenario, idle, .. }) =
            evaluation::strict(&scenario)
        else {
            return;
        };
        let idle_kept = idle.map(|i| i.chips);
        // An infeasible plan is still estimated (exit 0); stderr says why it cannot run.
        for p in &good.estimate.problems {
            eprintln!("problem: {}{}: {p}", which(place), field(fields::warning_field(p)));
        }
        // Serving and post-training on the same chips, where the scenario asks.
        let served = evaluation::serve(&good);
        if let Some(s) = &served.serving {
            for p in &s.problems {
                eprintln!(
                    "problem: {}{}: {}",
                    which(place),
                    field(fields::serving_problem_field(p)),
                    clusterplan::text::serving_problem(p)
                );
            }
            for n in &s.notes {
                eprintln!(
                    "note: {}serving.weights: {}",
                    which(place),
                    clusterplan::text::serving_note(n)
                );
            }
        }
        for p in served.rl.iter().flat_map(|r| &r.problems) {
            eprintln!("problem: {}rl: {}", which(place), clusterplan::text::rl_problem(p));
        }
        let spread = evaluation::failures(&good);
        let json = report::predict_json(&scenario, &good, &spread, &served, idle_kept);
        let _ = if is_array {
            // As `to_string_pretty` lays out an array: each item indented by two spaces.
            let item = pretty(&json).replace('\n', "\n  ");
            write!(out, "{}  {item}", if first { "[\n" } else { ",\n" })
        } else {
            writeln!(out, "{}", pretty(&json))
        };
        first = false;
    });
    let _ = match (is_array, first) {
        (true, true) => writeln!(out, "[]"),
        (true, false) => writeln!(out, "\n]"),
        _ => Ok(()),
    };
    if let Err(e) = printed {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    match out.flush() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write the estimates: {e}");
            ExitCode::from(1)
        }
    }
}

/// The one scenario in the file at `path`, or the exit status after saying what is wrong.
fn one_scenario(path: &str, command: &str) -> Result<Scenario, ExitCode> {
    match read_input(path).and_then(|t| Scenario::parse_many(&t).map_err(|e| e.to_string())) {
        Ok(mut s) if s.len() == 1 => Ok(s.remove(0)),
        Ok(_) => {
            eprintln!("error: {command} takes one scenario");
            Err(ExitCode::from(2))
        }
        Err(e) => {
            eprintln!("error: {e}");
            Err(ExitCode::from(2))
        }
    }
}

fn input_errors(errors: Vec<clusterplan::scenario::InputError>) -> ExitCode {
    for e in errors {
        eprintln!("error: {}", bad_field(&e));
    }
    ExitCode::from(2)
}

/// A field as the command line names it: in words, with the key to edit in the file in
/// brackets (`Chips [cluster.chips]`), or by its key alone when it has no name in words.
fn field(path: &str) -> String {
    match text::field_name(path) {
        name if name == path => name,
        name => format!("{name} [{path}]"),
    }
}

/// A bad field and what is wrong with it.
fn bad_field(e: &clusterplan::scenario::InputError) -> String {
    format!("{}: {}", field(&e.field), text::input_error(e))
}

/// Pairs of `--flag value` after the file; `Err` names what is wrong.
fn flags<'a>(rest: &[&'a str], known: &[&str]) -> Result<Vec<(&'a str, &'a str)>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let flag = rest[i];
        if !known.contains(&flag) {
            return Err(format!("unknown option '{flag}'; expected {}", known.join(", ")));
        }
        let Some(value) = rest.get(i + 1) else {
            return Err(format!("{flag} needs a value"));
        };
        out.push((flag, *value));
        i += 2;
    }
    Ok(out)
}

fn search(path: &str, rest: &[&str]) -> ExitCode {
    let mut options = search::Options::default();
    let mut serving = false;
    match flags(rest, &["--objective", "--top"]) {
        Ok(pairs) => {
            for (flag, value) in pairs {
                let ok = match flag {
                    "--objective" if value == "serving-cost" => {
                        serving = true;
                        true
                    }
                    "--objective" => {
                        search::Objective::from_id(value).map(|o| options.objective = o).is_some()
                    }
                    _ => value
                        .parse()
                        .ok()
                        .filter(|&n: &usize| (1..=1000).contains(&n))
                        .map(|n| options.top = n)
                        .is_some(),
                };
                if !ok {
                    let expected = match flag {
                        "--objective" => "days, effective-days, cost, energy or serving-cost",
                        _ => "a whole number from 1 to 1000",
                    };
                    eprintln!("error: {flag}: expected {expected}, got '{value}'");
                    return ExitCode::from(2);
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    if serving {
        return serving_search(path, options.top);
    }
    let scenario = match one_scenario(path, "search") {
        Ok(s) => s,
        Err(code) => return code,
    };
    // The typed degrees never block a search: a chip count they do not divide is placed with
    // the rest idle, as the page shows it, and every split of at most the chips is searched.
    let judged = evaluation::strict(&scenario).and_then(|_| evaluation::searchable(&scenario));
    let searchable = match judged {
        Ok(s) => s,
        Err(errors) => return input_errors(errors),
    };
    options.equivalent_within = validation::model_error();
    let typed = searchable.typed.as_ref().ok().copied();
    let mut run = search::Search::placing(&searchable.inputs, typed, options);
    run.advance(usize::MAX);
    let outcome = run.outcome();
    let why = report::typed_plan_why(&searchable, &outcome.yours.verdict);
    let code = print_json(&report::search_json(&searchable.scenario, &outcome, &why, None));
    match outcome.none_because {
        Some(why) => {
            eprintln!("error: {why}");
            ExitCode::from(1)
        }
        None => code,
    }
}

/// `search FILE --objective serving-cost`: the deployments of the scenario's `serving`, most
/// output a chip-second first, over instances of up to the cluster's chips.
fn serving_search(path: &str, top: usize) -> ExitCode {
    let scenario = match one_scenario(path, "search") {
        Ok(s) => s,
        Err(code) => return code,
    };
    let good = match evaluation::evaluate(&scenario) {
        Ok(good) => good,
        Err(errors) => return input_errors(errors),
    };
    if good.inputs.serving.is_none() {
        eprintln!("error: --objective serving-cost needs a `serving` section in the scenario");
        return ExitCode::from(2);
    }
    let max = good.inputs.cluster.n_chips.min(4096);
    let found = clusterplan::model::serving::search(&good.inputs, &good.estimate, max);
    let deployments: Vec<serde_json::Value> = found
        .iter()
        .take(top)
        .map(|e| report::serving_json(e, &evaluation::reach(&good, Some(e.prefill_instances > 0))))
        .collect();
    let code = print_json(&serde_json::json!({
        "objective": "serving-cost",
        "searched": found.len(),
        "best": deployments.first().cloned(),
        "deployments": deployments,
    }));
    if found.first().is_some_and(|e| e.feasible) {
        code
    } else {
        eprintln!("error: no deployment meets the targets");
        ExitCode::from(1)
    }
}

/// The scenario a sizing reads and the chips it sizes (the scenario's own when none is named),
/// or the exit code of what stops it: sizing chooses its own plans, so only errors beyond the
/// typed plan do.
fn sizing_input<'a>(
    path: &str,
    chips: &[&'a str],
) -> Result<(Scenario, Vec<Option<&'a str>>), ExitCode> {
    let scenario = one_scenario(path, "size")?;
    if let Err(errors) = scenario.for_search() {
        return Err(input_errors(errors));
    }
    let asked =
        if chips.is_empty() { vec![None] } else { chips.iter().map(|c| Some(*c)).collect() };
    Ok((scenario, asked))
}

/// `size FILE --power-mw P`: the largest cluster of each chip within the power.
fn size_for_power(path: &str, mw: f64, chips: &[&str]) -> ExitCode {
    let (scenario, asked) = match sizing_input(path, chips) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let mut rows = Vec::new();
    for chip in asked {
        let name = chip
            .map(str::to_string)
            .unwrap_or_else(|| clusterplan::app::jobs::chip_name(&scenario));
        match sizing::within_power(&scenario, chip, mw * 1e6) {
            Ok(found) => rows.push(report::power_row(&name, mw, found.as_ref())),
            Err(errors) => return input_errors(errors),
        }
    }
    print_json(&serde_json::json!({ "power_mw": mw, "rows": rows }))
}

/// `size FILE --tokens-per-day T`: what each chip takes to serve the load.
fn size_to_serve(path: &str, tokens_per_day: f64, chips: &[&str]) -> ExitCode {
    let scenario = match one_scenario(path, "size") {
        Ok(s) => s,
        Err(code) => return code,
    };
    if scenario.get("serving").is_none() {
        eprintln!("error: --tokens-per-day needs a `serving` section in the scenario");
        return ExitCode::from(2);
    }
    let asked: Vec<Option<&str>> =
        if chips.is_empty() { vec![None] } else { chips.iter().map(|c| Some(*c)).collect() };
    let mut rows = Vec::new();
    for chip in asked {
        let name = chip
            .map(str::to_string)
            .unwrap_or_else(|| clusterplan::app::jobs::chip_name(&scenario));
        match sizing::to_serve(&scenario, chip, tokens_per_day) {
            Ok(found) => rows.push(report::serve_row(&name, tokens_per_day, found.as_ref())),
            Err(errors) => return input_errors(errors),
        }
    }
    print_json(&serde_json::json!({ "tokens_per_day": tokens_per_day, "rows": rows }))
}

/// The one positive number `flag` was given, or the exit code of its error.
fn one_positive(values: &[&str], flag: &str, expected: &str) -> Result<f64, ExitCode> {
    match values {
        [one] => match clusterplan::numbers::parse(one) {
            Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
            _ => {
                eprintln!("error: {flag}: expected {expected}, got '{one}'");
                Err(ExitCode::from(2))
            }
        },
        _ => {
            eprintln!("error: size takes one {flag}");
            Err(ExitCode::from(2))
        }
    }
}

fn size(path: &str, rest: &[&str]) -> ExitCode {
    let pairs = match flags(rest, &["--deadline-days", "--chip", "--power-mw", "--tokens-per-day"])
    {
        Ok(pairs) => pairs,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let loads: Vec<&str> =
        pairs.iter().filter(|(f, _)| *f == "--tokens-per-day").map(|(_, v)| *v).collect();
    if !loads.is_empty() {
        if pairs.iter().any(|(f, _)| *f == "--deadline-days" || *f == "--power-mw") {
            eprintln!("error: size takes one of --deadline-days, --power-mw or --tokens-per-day");
            return ExitCode::from(2);
        }
        let chips: Vec<&str> =
            pairs.iter().filter(|(f, _)| *f == "--chip").map(|(_, v)| *v).collect();
        return match one_positive(&loads, "--tokens-per-day", "a positive number of tokens") {
            Ok(tokens) => size_to_serve(path, tokens, &chips),
            Err(code) => code,
        };
    }
    let powers: Vec<&str> =
        pairs.iter().filter(|(f, _)| *f == "--power-mw").map(|(_, v)| *v).collect();
    if !powers.is_empty() {
        if pairs.iter().any(|(f, _)| *f == "--deadline-days") {
            eprintln!("error: size takes --deadline-days D or --power-mw P, not both");
            return ExitCode::from(2);
        }
        let chips: Vec<&str> =
            pairs.iter().filter(|(f, _)| *f == "--chip").map(|(_, v)| *v).collect();
        return match one_positive(&powers, "--power-mw", "a positive number of MW") {
            Ok(mw) => size_for_power(path, mw, &chips),
            Err(code) => code,
        };
    }
    let deadlines: Vec<&str> =
        pairs.iter().filter(|(f, _)| *f == "--deadline-days").map(|(_, v)| *v).collect();
    let deadline = match deadlines.as_slice() {
        [one] => match clusterplan::numbers::parse(one) {
            Ok(d) if d > 0.0 && d.is_finite() => d,
            _ => {
                eprintln!(
                    "error: --deadline-days: expected a positive number of days, got '{one}'"
                );
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("error: size needs one --deadline-days D");
            return ExitCode::from(2);
        }
    };
    let chips: Vec<&str> = pairs.iter().filter(|(f, _)| *f == "--chip").map(|(_, v)| *v).collect();
    let (scenario, asked) = match sizing_input(path, &chips) {
        Ok(input) => input,
        Err(code) => return code,
    };
    // Every chip is checked before any is sized, so a typo costs no search.
    for chip in &asked {
        if let Err(errors) = sizing::Sizer::new(&scenario, *chip, deadline) {
            return input_errors(errors);
        }
    }
    let (mut rows, mut curves) = (Vec::new(), Vec::new());
    for chip in asked {
        let mut sizer = match sizing::Sizer::new(&scenario, chip, deadline) {
            Ok(sizer) => sizer,
            Err(errors) => return input_errors(errors),
        };
        while !sizer.advance() {}
        let name = chip
            .map(str::to_string)
            .unwrap_or_else(|| clusterplan::app::jobs::chip_name(&scenario));
        if let Some(answer) = sizer.answer() {
            let row = report::sizing_row(&name, deadline, answer, sizer.unit());
            let spent = serde_json::json!({ "budget_spent": sizer.budget_spent() });
            rows.push(report::joined(row, [Some(spent)]));
        }
        curves.push(serde_json::json!({ "chip": name, "points": sizer.curve() }));
    }
    print_json(&serde_json::json!({ "deadline_days": deadline, "rows": rows, "curves": curves }))
}

fn bom(path: &str) -> ExitCode {
    let scenarios =
        match read_input(path).and_then(|t| Scenario::parse_many(&t).map_err(|e| e.to_string())) {
            Ok(s) if s.len() == 1 => s,
            Ok(_) => {
                eprintln!("error: bom takes one scenario");
                return ExitCode::from(2);
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
    match evaluation::evaluate(&scenarios[0]) {
        Ok(good) => {
            print!("{}", report::bom_csv(&good.inputs.plant, &good.estimate.facility));
            ExitCode::SUCCESS
        }
        Err(errors) => input_errors(errors),
    }
}

/// The one scenario in `path`, judged, for `command`; the exit code that says why not.
fn evaluated(path: &str, command: &str) -> Result<evaluation::Evaluation, ExitCode> {
    let scenario = one_scenario(path, command)?;
    evaluation::strict(&scenario).map(|s| s.good).map_err(input_errors)
}

/// `timeline FILE`: the scenario's step as Chrome trace JSON, a thread a pipeline stage.
fn timeline(path: &str) -> ExitCode {
    let good = match evaluated(path, "timeline") {
        Ok(good) => good,
        Err(code) => return code,
    };
    print_json(&report::step_trace(&good))
}

/// `sensitivity FILE`: what moves the scenario's answer, largest effect first.
fn sensitivity(path: &str) -> ExitCode {
    let good = match evaluated(path, "sensitivity") {
        Ok(good) => good,
        Err(code) => return code,
    };
    let money = clusterplan::format::Money::of(&good.inputs.plant.facility);
    print_json(&report::sensitivity_json(&evaluation::sensitivity(&good), money))
}

/// `year FILE`: the cluster's year, scheduled, with what to buy.
fn year(path: &str) -> ExitCode {
    let scenario = match one_scenario(path, "year") {
        Ok(s) => s,
        Err(code) => return code,
    };
    match evaluation::year(&scenario) {
        Ok(Some(answer)) => print_json(&report::year::year_json(&answer)),
        Ok(None) => {
            eprintln!("error: the scenario has no \"year\" section (see docs/scenario.md)");
            ExitCode::from(2)
        }
        Err(errors) => input_errors(errors),
    }
}

fn validate() -> ExitCode {
    match validation::run_all() {
        Ok((runs, outcomes)) => {
            let left = validation::fit::left_out(&outcomes);
            print!("{}", validation::markdown(&runs, &outcomes, &left));
            if outcomes.iter().all(|o| o.within() || o.row.known_miss.is_some()) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `launch FILE --for FRAMEWORK [--file NAME]`: the plan as a framework's launch.
fn launch(path: &str, rest: &[&str]) -> ExitCode {
    let pairs = match flags(rest, &["--for", "--file"]) {
        Ok(pairs) => pairs,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let named = |flag: &str| pairs.iter().rev().find(|(f, _)| *f == flag).map(|(_, v)| *v);
    let ids: Vec<&str> = clusterplan::launch::Framework::ALL.iter().map(|f| f.id()).collect();
    let Some(framework) = named("--for").and_then(clusterplan::launch::Framework::of) else {
        eprintln!("error: launch needs --for one of {}", ids.join(", "));
        return ExitCode::from(2);
    };
    let scenario = match one_scenario(path, "launch") {
        Ok(s) => s,
        Err(code) => return code,
    };
    let launch = match evaluation::launch(&scenario, framework) {
        Ok(l) => l,
        Err(errors) => return input_errors(errors),
    };
    match named("--file") {
        Some(name) => match launch.files.iter().find(|f| f.name == name) {
            Some(file) => {
                print!("{}", file.text);
                ExitCode::SUCCESS
            }
            None => {
                let names: Vec<&str> = launch.files.iter().map(|f| f.name).collect();
                eprintln!("error: no file '{name}'; this launch writes {}", names.join(", "));
                ExitCode::from(2)
            }
        },
        None => print_json(&report::launch_json(&launch)),
    }
}

/// `measure LOG... [--scenario FILE]`: logs read into calibration entries.
fn measure(rest: &[&str]) -> ExitCode {
    let mut logs = Vec::new();
    let mut scenario = None;
    let mut i = 0;
    while i < rest.len() {
        if rest[i] == "--scenario" {
            let Some(path) = rest.get(i + 1) else {
                eprintln!("error: --scenario needs a file");
                return ExitCode::from(2);
            };
            scenario = match one_scenario(path, "measure") {
                Ok(s) => Some(s),
                Err(code) => return code,
            };
            i += 2;
            continue;
        }
        match std::fs::read(rest[i]) {
            Ok(bytes) => logs.push((rest[i].to_string(), bytes)),
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", rest[i]);
                return ExitCode::from(2);
            }
        }
        i += 1;
    }
    if logs.is_empty() {
        eprintln!("error: measure needs at least one log");
        return ExitCode::from(2);
    }
    match evaluation::measure(&logs, scenario.as_ref()) {
        Ok(m) => print_json(&report::measure_json(&m)),
        Err(errors) => input_errors(errors),
    }
}
