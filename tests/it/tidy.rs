//! Layering and hygiene checks over the source tree, run as an ordinary test.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn files_under(sub: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    rust_files(&root().join(sub), &mut out);
    out.sort();
    out
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

#[test]
fn every_source_file_starts_with_a_module_doc() {
    let files = files_under("src");
    assert!(files.len() > 10, "found the source files");
    for path in files {
        let text = fs::read_to_string(&path).unwrap_or_default();
        assert!(text.starts_with("//!"), "{} must start with a //! comment", relative(&path));
    }
}

/// The first path root in a line of code that the model may not name: anything but std, core,
/// the model itself (`own` lists its module names), types, primitives and lint attributes.
fn foreign_root(line: &str, own: &[String]) -> Option<String> {
    let primitives = [
        "f32", "f64", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
        "i128", "isize", "char", "str", "bool",
    ];
    let roots =
        ["std", "core", "alloc", "super", "self", "crate", "clippy", "rustfmt", "units", "model"];
    // Code only: no comment, no string literal.
    let code = line.split("//").next().unwrap_or("");
    let code: String = code.split('"').step_by(2).collect();
    if code.contains("std::time") {
        return Some("std::time".into());
    }
    if code.contains("crate::") && !code.contains("crate::model") {
        return Some("crate".into());
    }
    for (pos, _) in code.match_indices("::") {
        let before = &code[..pos];
        let start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .map_or(0, |i| i + 1);
        let root_name = code[start..pos].split("::").next().unwrap_or("");
        let ok = root_name.is_empty()
            || root_name.starts_with(char::is_uppercase)
            || roots.contains(&root_name)
            || primitives.contains(&root_name)
            || own.iter().any(|m| m == root_name);
        if !ok {
            return Some(root_name.to_string());
        }
    }
    None
}

#[test]
fn model_depends_on_nothing_but_std() {
    // An allowlist, not a denylist: every path the model's code names starts at std, core or
    // the model itself, so no crate (petgraph, serde, a browser crate), no clock and no other
    // module of this crate can creep in.
    let mut files = files_under("src/model");
    files.push(root().join("src/model.rs"));
    let own: Vec<String> = files
        .iter()
        .filter_map(|f| f.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    for bad in [
        "use petgraph::graph::DiGraph;",
        "let v = serde_json::json!({});",
        "use crate::fabric::Spec;",
        "let t = std::time::Instant::now();",
    ] {
        assert!(foreign_root(bad, &own).is_some(), "the check must reject `{bad}`");
    }
    for path in &files {
        let text = fs::read_to_string(path).unwrap_or_default();
        // Names a file imports from std (`use std::fmt;`) may start a path too.
        let mut names = own.clone();
        for line in text.lines().filter(|l| l.trim_start().starts_with("use std::")) {
            names.extend(
                line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .filter(|w| !w.is_empty())
                    .map(str::to_string),
            );
        }
        for (idx, line) in text.lines().enumerate() {
            if let Some(root_name) = foreign_root(line, &names) {
                panic!(
                    "{}:{} names `{root_name}`; the model uses std only",
                    relative(path),
                    idx + 1
                );
            }
        }
    }
}

/// The browser's crates are named only by the page's own files (`ui`, and the two binaries'
/// entry points); the app (`app`) and everything under it stay plain
/// Rust that native tests drive.
#[test]
fn only_ui_knows_the_browser() {
    let browser = |text: &str| {
        ["yew", "web_sys", "wasm_bindgen", "gloo", "js_sys"].into_iter().find(|w| text.contains(w))
    };
    assert_eq!(browser("use yew::prelude::*;"), Some("yew"), "the check finds a browser crate");
    assert_eq!(browser("use serde::Serialize;"), None);
    let page = ["src/ui.rs", "src/main.rs", "src/worker.rs"];
    let files = files_under("src");
    assert!(files.iter().any(|f| relative(f).starts_with("src/app/")), "found the page's rules");
    for path in files {
        let name = relative(&path);
        if name.starts_with("src/ui/") || page.contains(&name.as_str()) {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(browser(&text), None, "{name} names a browser crate");
    }
}

/// A line that indexes JSON by a key spelt out, `v["name"]`.
fn keyed(line: &str) -> bool {
    line.match_indices("[\"").any(|(at, _)| {
        let rest = &line[at + 2..];
        let key: String =
            rest.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
        !key.is_empty() && rest[key.len()..].starts_with("\"]")
    })
}

/// JSON is read and written through types: outside `scenario`, the format's one reader, and
/// the wire's hand-written codec (`app/wire.rs`), no line indexes JSON by a key spelt out.
/// Worker parts, external logs and data files are derived types; an answer's optional parts
/// are joined (`report::joined`).
#[test]
fn no_json_is_read_by_key_outside_the_format_and_the_wire() {
    assert!(keyed(r#"let name = v["name"].as_str();"#), "the check finds a read by key");
    assert!(!keyed("let first = list[0];") && !keyed(r#"let v = json!({ "name": n });"#));
    let files = files_under("src");
    assert!(files.len() > 10, "found the source files");
    let allowed = |name: &str| name.starts_with("src/scenario") || name == "src/app/wire.rs";
    for path in files.iter().filter(|f| !allowed(&relative(f))) {
        let text = fs::read_to_string(path).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            assert!(!keyed(line), "{}:{}: indexes JSON by key: {line}", relative(path), n + 1);
        }
    }
}

/// Outside the browser glue (`ui/browser.rs`, `ui/worker.rs`), the page names no
/// `serde_json`: the form reads the scenario at typed places and sets the app's edit values
/// (`app::edits`), never building or walking JSON itself.
#[test]
fn the_page_names_no_json_library() {
    let names = |text: &str| {
        text.lines().any(|l| l.split("//").next().unwrap_or("").contains("serde_json"))
    };
    assert!(names("let v = serde_json::to_value(&s);"), "the check finds the library named");
    assert!(!names("// serde_json is named in a comment only"));
    let glue = ["src/ui/browser.rs", "src/ui/worker.rs"];
    let files = files_under("src/ui");
    assert!(files.len() > 10, "found the page's files");
    for path in files.iter().filter(|f| !glue.contains(&relative(f).as_str())) {
        let text = fs::read_to_string(path).unwrap_or_default();
        assert!(!names(&text), "{} names serde_json", relative(path));
    }
}

/// The page lays out what it is given: outside the browser glue (`ui/browser.rs`, the worker's
/// side of `ui/worker.rs`), no `ui` file reads JSON by key or builds it; every worker result
/// is a typed view (`app::View`, `app::Drawn`) and every edit an `app::state::Action`.
#[test]
fn the_page_reads_no_json_by_key() {
    let glue = ["src/ui/browser.rs"];
    let files = files_under("src/ui");
    assert!(files.len() > 10, "found the page's files");
    for path in files {
        let name = relative(&path);
        if glue.contains(&name.as_str()) {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            assert!(!keyed(code), "{name}:{}: reads JSON by key: {line}", n + 1);
            assert!(!code.contains(concat!("json", "!(")), "{name}:{}: builds JSON: {line}", n + 1);
        }
    }
}

#[test]
fn no_skipped_or_debug_code() {
    let mut files = files_under("src");
    files.extend(files_under("tests"));
    files.extend(files_under("benches"));
    let banned = [
        concat!("#[", "ignore"),
        concat!("should", "_panic"),
        concat!("dbg", "!("),
        concat!("todo", "!("),
        concat!("unimplemented", "!("),
    ];
    for path in files {
        let text = fs::read_to_string(&path).unwrap_or_default();
        for word in banned {
            assert!(!text.contains(word), "{} contains `{word}`", relative(&path));
        }
    }
}

#[test]
fn architecture_names_every_top_level_module() {
    let arch = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap_or_default();
    let lib = fs::read_to_string(root().join("src/lib.rs")).unwrap_or_default();
    let modules: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';'))
        .collect();
    assert!(modules.len() >= 4, "lib.rs declares its modules");
    for module in modules {
        assert!(arch.contains(&format!("`{module}`")), "ARCHITECTURE.md does not name `{module}`");
    }
}

#[test]
fn readme_has_exactly_the_two_setup_commands() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap_or_default();
    assert!(readme.contains("./scripts/run.sh"), "README names the run command");
    assert!(readme.contains("./scripts/test.sh"), "README names the test command");
    let ci = fs::read_to_string(root().join(".ci/run")).unwrap_or_default();
    assert!(ci.contains("scripts/test.sh"), ".ci/run calls the README's test command");
}

/// The two documents a newcomer reads first stay short enough to read: the README at most
/// 8 KB, the architecture at most 12 KB; the manual, the model's scope and the figures live in
/// `docs/`.
#[test]
fn the_readme_and_the_architecture_stay_short() {
    for (file, most) in [("README.md", 8 * 1024), ("ARCHITECTURE.md", 12 * 1024)] {
        let bytes = fs::metadata(root().join(file)).map(|m| m.len()).unwrap_or(u64::MAX);
        assert!(bytes <= most, "{file} is {bytes} bytes, more than {most}");
    }
}

#[test]
fn the_app_makes_no_network_requests() {
    // No fetch, XHR, WebSocket or remote URL anywhere in the app's code or page.
    let mut files = files_under("src/ui");
    files.push(root().join("src/ui.rs"));
    files.push(root().join("Index.html"));
    for path in files {
        let text = fs::read_to_string(&path).unwrap_or_default();
        for word in [
            "fetch(",
            "XmlHttpRequest",
            "WebSocket",
            "http://",
            "https://",
            "gloo::net",
            "Request::",
        ] {
            assert!(!text.contains(word), "{} contains `{word}`", relative(&path));
        }
    }
    let index = fs::read_to_string(root().join("Index.html")).unwrap_or_default();
    assert!(index.contains("Content-Security-Policy") && index.contains("default-src 'self'"));
    // Inline scripts run only by hash, which the build adds (tools/csp.py).
    let script_src = index.split(';').find(|d| d.trim_start().starts_with("script-src"));
    assert!(script_src.is_some_and(|d| !d.contains("'unsafe-inline'")), "{script_src:?}");
}

/// The crate's parts from the bottom up, as ARCHITECTURE.md's table has them: a module may
/// name modules of its own part and of the parts below, never one above.
const PARTS: &[(&str, &[&str])] = &[
    ("the model", &["model"]),
    ("the fabric", &["fabric"]),
    ("the input", &["numbers", "scenario"]),
    ("beside the model", &["validation", "sizing", "launch", "measure"]),
    ("the judge", &["evaluation"]),
    ("words and pictures", &["text", "format", "charts", "sketch", "cite"]),
    ("outputs", &["report", "catalog"]),
    ("the app", &["app"]),
    ("the CLI", &["bin"]),
    ("the page", &["ui", "main", "worker"]),
];

/// A source file's module path (`src/model/step_time/ops.rs` is `model::step_time::ops`).
fn module_of(path: &Path) -> Vec<String> {
    let rel = path.strip_prefix(root().join("src")).unwrap_or(path).with_extension("");
    rel.iter().map(|p| p.to_string_lossy().into_owned()).collect()
}

/// The code of a file without comments and string literals.
fn code_of(text: &str) -> String {
    text.lines()
        .map(|line| {
            let code = line.split("//").next().unwrap_or("");
            code.split('"').step_by(2).collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path a file's code names from the crate's root or its parents (`crate::a::b`,
/// `super::c`, each name of `use crate::x::{a, b::c}`), as module paths from the root.
fn named_paths(module: &[String], code: &str) -> Vec<Vec<String>> {
    fn expand(prefix: &[String], rest: &str, out: &mut Vec<Vec<String>>) {
        let path: String =
            rest.chars().take_while(|c| c.is_alphanumeric() || "_:".contains(*c)).collect();
        let mut full = prefix.to_vec();
        full.extend(path.split("::").filter(|s| !s.is_empty()).map(str::to_string));
        let after = &rest[path.len()..];
        if path.ends_with("::") && after.starts_with('{') {
            // A group: each of its top-level items, after the prefix.
            let (mut depth, mut start) = (0, 1);
            for (i, c) in after.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' | ',' if depth == 1 => {
                        expand(&full, after[start..i].trim(), out);
                        start = i + 1;
                        if c == '}' {
                            break;
                        }
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
        } else {
            out.push(full);
        }
    }
    let mut out = Vec::new();
    let starts = |word: &str| -> Vec<usize> {
        code.match_indices(word)
            .filter(|(at, _)| {
                let before = code[..*at].chars().next_back();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
            })
            .map(|(at, _)| at)
            .collect()
    };
    for at in starts("crate::") {
        expand(&[], &code[at + "crate::".len()..], &mut out);
    }
    for at in starts("super::") {
        let mut rest = &code[at..];
        let mut base = module.to_vec();
        while let Some(r) = rest.strip_prefix("super::") {
            base.pop();
            rest = r;
        }
        expand(&base, rest, &mut out);
    }
    out
}

/// Each source file's module path and the modules (by file) its code names.
fn module_graph() -> Vec<(Vec<String>, Vec<Vec<String>>)> {
    let files = files_under("src");
    let modules: Vec<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    // The longest module path that is a file: `model::Inputs` names `model`.
    let file_of = |path: &[String]| -> Option<Vec<String>> {
        (1..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| modules.contains(p))
    };
    files
        .iter()
        .zip(&modules)
        .map(|(file, module)| {
            let code = code_of(&fs::read_to_string(file).unwrap_or_default());
            let mut named: Vec<Vec<String>> =
                named_paths(module, &code).iter().filter_map(|p| file_of(p)).collect();
            named.sort();
            named.dedup();
            (module.clone(), named)
        })
        .collect()
}

/// No module names a module of a part above its own (`PARTS`).
#[test]
fn no_import_runs_up_a_floor() {
    let floor = |module: &str| PARTS.iter().position(|(_, mods)| mods.contains(&module));
    let graph = module_graph();
    assert!(graph.len() > 50, "found the source files");
    // The crate's root only declares the modules.
    for (module, named) in graph.iter().filter(|(m, _)| m[0] != "lib") {
        let own = floor(&module[0]).unwrap_or_else(|| panic!("{} is in no part", module[0]));
        for other in named {
            let theirs = floor(&other[0]).unwrap_or(0);
            assert!(
                theirs <= own,
                "{} ({}) names {} ({}), a part above it",
                module.join("::"),
                PARTS[own].0,
                other.join("::"),
                PARTS[theirs].0
            );
        }
    }
}

/// Modules of one parent that name each other round a loop, each with those that name it back.
fn loops(graph: &[(Vec<String>, Vec<Vec<String>>)]) -> Vec<String> {
    let mut parents: Vec<Vec<String>> =
        graph.iter().map(|(m, _)| m[..m.len() - 1].to_vec()).collect();
    parents.sort();
    parents.dedup();
    let mut found = Vec::new();
    for parent in parents {
        let kids: Vec<&Vec<String>> = graph
            .iter()
            .map(|(m, _)| m)
            .filter(|m| m.len() == parent.len() + 1 && m.starts_with(&parent))
            .collect();
        // Which sibling names which, through any file under it.
        let uses = |a: &[String], b: &[String]| {
            graph
                .iter()
                .any(|(m, named)| m.starts_with(a) && named.iter().any(|n| n.starts_with(b)))
        };
        for kid in &kids {
            let mut reached: Vec<&Vec<String>> = Vec::new();
            let mut frontier: Vec<&Vec<String>> = vec![kid];
            while let Some(at) = frontier.pop() {
                for next in &kids {
                    if next != &at && uses(at, next) && !reached.contains(next) {
                        reached.push(next);
                        frontier.push(next);
                    }
                }
            }
            let back: Vec<String> = reached
                .iter()
                .filter(|r| *r != kid && uses(r, kid))
                .map(|r| r.join("::"))
                .collect();
            if !back.is_empty() {
                found.push(format!("{} is named back by {back:?}", kid.join("::")));
            }
        }
    }
    found
}

/// Among the modules of one parent (the crate's top-level modules, `model`'s, `step_time`'s
/// ...), no two name each other, directly or round a loop: each is read before the ones that
/// use it. A module's files (itself and everything under it) count as one.
#[test]
fn no_loop_between_modules() {
    let path = |p: &str| p.split("::").map(str::to_string).collect::<Vec<_>>();
    // The check finds a loop through a grouped import and one through a child's file.
    let code = "use crate::model::{facility, step_time::StepBreakdown};";
    let ops = path("model::step_time::ops");
    let named = named_paths(&ops, code);
    assert!(named.contains(&path("model::facility")), "{named:?}");
    let looped = vec![
        (path("model::step_time::ops"), vec![path("model::facility")]),
        (path("model::facility"), vec![path("model::step_time")]),
        (path("model::step_time"), vec![]),
    ];
    assert_eq!(loops(&looped).len(), 2, "{:?}", loops(&looped));
    let graph = module_graph();
    assert!(graph.iter().any(|(_, named)| !named.is_empty()), "files name modules");
    assert_eq!(loops(&graph), Vec::<String>::new());
}

/// A place in the scenario spelt as a dotted string in `.get("cluster.chip")`, when the field
/// table or `scenario::paths` names it: a misspelt one would read nothing, silently.
fn dotted_read(line: &str) -> Option<&str> {
    [".get(\"", ".raw(\""].iter().find_map(|call| {
        let at = line.find(call)? + call.len();
        let path = &line[at..at + line[at..].find('"')?];
        let plain = |c: char| c.is_ascii_lowercase() || c == '_' || c == '.';
        (path.contains('.') && path.chars().all(plain)).then_some(path)
    })
}

/// Outside `scenario`, code reads the scenario at typed places (`Scenario::raw` with a field
/// or `scenario::paths`), never at a dotted string.
#[test]
fn the_scenario_is_read_at_typed_places() {
    assert_eq!(dotted_read(r#"let c = scenario.get("cluster.chip");"#), Some("cluster.chip"));
    assert_eq!(dotted_read(r#"let c = map.get("preset");"#), None);
    assert_eq!(dotted_read(r#"let c = scenario.raw(paths::CLUSTER_CHIP);"#), None);
    assert_eq!(dotted_read(r#"let p = f.raw("model.preset");"#), Some("model.preset"));
    let files = files_under("src");
    assert!(files.len() > 10, "found the source files");
    for path in files.iter().filter(|f| !relative(f).starts_with("src/scenario")) {
        let text = fs::read_to_string(path).unwrap_or_default();
        for (idx, line) in text.lines().enumerate() {
            if let Some(place) = dotted_read(line) {
                panic!("{}:{} reads `{place}` by its spelling", relative(path), idx + 1);
            }
        }
    }
}

/// The file stems of `dir`'s Rust files.
fn stems(dir: &str) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&root().join(dir), &mut files);
    let mut stems: Vec<String> = files
        .iter()
        .filter_map(|f| f.file_stem().and_then(|s| s.to_str()).map(str::to_string))
        .collect();
    stems.sort();
    stems
}

/// The sections on one side that the other lacks.
fn unpaired(app: &[String], ui: &[String]) -> Vec<String> {
    let lacking = |of: &[String], in_: &[String]| {
        of.iter().filter(|s| !in_.contains(s)).cloned().collect::<Vec<_>>()
    };
    let mut out = lacking(app, ui);
    out.extend(lacking(ui, app));
    out
}

/// One section, one name: every `src/app/sections/X.rs`, which words and draws a section in
/// the worker, has a `src/ui/sections/X.rs` that lays it out, and the reverse; ARCHITECTURE
/// names each on its line of sections.
#[test]
fn every_section_has_one_name_in_the_app_and_the_page() {
    let known_bad =
        unpaired(&["serving".into(), "fleet".into()], &["serve".into(), "fleet".into()]);
    assert_eq!(known_bad, ["serving", "serve"], "the check finds a section named two ways");
    let (app, ui) = (stems("src/app/sections"), stems("src/ui/sections"));
    assert!(app.len() >= 10, "found the sections: {app:?}");
    assert_eq!(unpaired(&app, &ui), Vec::<String>::new(), "sections named one way only");
    let architecture = fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE");
    let line = architecture
        .lines()
        .find(|l| l.starts_with("Sections:"))
        .expect("ARCHITECTURE has a line of sections");
    for section in &app {
        assert!(line.contains(&format!("`{section}`")), "ARCHITECTURE's sections lack {section}");
    }
}

/// A key read by its spelling through a section's own reader, `get("tpot_ms")`, beside the
/// field that already spells it.
fn spelt_key(line: &str) -> bool {
    line.match_indices("get(\"").any(|(at, _)| {
        let before = line[..at].chars().next_back();
        !before.is_some_and(|c| c == '.' || c == '_' || c.is_ascii_alphanumeric())
    })
}

/// Every section of the scenario reads its keys through the field table, as the leaves do:
/// `get(fields::SERVING_TPOT_MS.path)`, the key spelt once, in the table.
#[test]
fn the_scenario_reads_its_keys_through_the_field_table() {
    assert!(spelt_key(r#"let tp = r.count(&get("tp"), &fields::SERVING_TP, None);"#));
    assert!(!spelt_key(
        r#"let tp = r.count(&get(fields::SERVING_TP.path), &fields::SERVING_TP, None);"#
    ));
    assert!(!spelt_key(r#"if let Some(name) = map.get("name") {"#));
    let files = files_under("src/scenario");
    assert!(files.len() > 5, "found the scenario's files");
    for path in files {
        let text = fs::read_to_string(&path).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            assert!(!spelt_key(line), "{}:{}: spells a key: {line}", relative(&path), n + 1);
        }
    }
}
