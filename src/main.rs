//! The browser app's entry point: mounts the Yew app. Natively it only says where to look.

#[cfg(target_arch = "wasm32")]
fn main() {
    clusterplan::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("clusterplan-app runs in a browser: ./scripts/run.sh serves it; the command-line tool is `clusterplan`");
}
