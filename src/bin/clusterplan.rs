//! The command-line tool: the same model as the app, for scripting.
//!
//! A thin edge: it reads files, calls `Scenario::resolve` and `model::estimate`, and prints
//! JSON or Markdown. It holds no formulas. Exit status 2 means the input was invalid.

use std::io::Read;
use std::process::ExitCode;

use clusterplan::scenario::{fields, Scenario};
use clusterplan::{catalog, report, validation};

const USAGE: &str = "usage: clusterplan <command>

commands:
  predict FILE   estimate each scenario in FILE (one object or an array; '-' reads stdin)
                 and print the estimates as JSON
  bom FILE       print the bill of materials of the scenario in FILE as CSV ('-' reads stdin)
  catalog        print every chip, fabric, system, switch and model preset with figures and
                 sources as JSON
  validate       compare the model with published training runs (Markdown table);
                 exits 1 if a row is outside its tolerance and not a documented miss
  example        print an example scenario";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["predict", path] => predict(path),
        ["bom", path] => bom(path),
        ["catalog"] => print_json(&catalog::to_json()),
        ["validate"] => validate(),
        ["example"] => {
            println!(
                "{}",
                pretty(&serde_json::to_value(Scenario::default_plan()).unwrap_or_default())
            );
            ExitCode::SUCCESS
        }
        ["help" | "--help" | "-h"] => {
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

fn predict(path: &str) -> ExitCode {
    let text = match read_input(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let is_array = text.trim_start().starts_with('[');
    let scenarios = match Scenario::parse_many(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut estimates = Vec::new();
    let mut failed = false;
    for (idx, scenario) in scenarios.iter().enumerate() {
        match scenario.evaluate() {
            Ok((_, estimate)) => {
                // An infeasible plan is still estimated (exit 0); stderr says why it cannot run.
                let which = if is_array { format!("scenario {idx}: ") } else { String::new() };
                for p in &estimate.problems {
                    eprintln!("problem: {which}{}: {p}", fields::warning_field(p));
                }
                estimates.push(report::to_json(&estimate));
            }
            Err(errors) => {
                failed = true;
                let which = if is_array { format!("scenario {idx}: ") } else { String::new() };
                for e in errors {
                    eprintln!("error: {which}{e}");
                }
            }
        }
    }
    if failed {
        return ExitCode::from(2);
    }
    let out = if is_array { serde_json::Value::Array(estimates) } else { estimates.remove(0) };
    print_json(&out)
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
    match scenarios[0].evaluate() {
        Ok((_, estimate)) => {
            print!("{}", report::bom_csv(&estimate.facility));
            ExitCode::SUCCESS
        }
        Err(errors) => {
            for e in errors {
                eprintln!("error: {e}");
            }
            ExitCode::from(2)
        }
    }
}

fn validate() -> ExitCode {
    match validation::run_all() {
        Ok((runs, outcomes)) => {
            print!("{}", validation::markdown(&runs, &outcomes));
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
