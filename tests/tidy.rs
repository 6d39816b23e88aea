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

#[test]
fn only_ui_knows_the_browser() {
    let mut files = files_under("src/scenario");
    files.extend(files_under("src/bin"));
    for file in [
        "src/scenario.rs",
        "src/charts.rs",
        "src/report.rs",
        "src/catalog.rs",
        "src/validation.rs",
        "src/editor.rs",
        "src/numbers.rs",
        "src/cite.rs",
    ] {
        files.push(root().join(file));
    }
    for path in files {
        let text = fs::read_to_string(&path).unwrap_or_default();
        for word in ["yew", "web_sys", "wasm_bindgen", "gloo", "js_sys"] {
            assert!(!text.contains(word), "{} names `{word}`", relative(&path));
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
