//! The page's Web Worker: runs searches, sizings, the accuracy report, comparisons and the
//! plots for the page (`ui::worker`).

#[cfg(target_arch = "wasm32")]
fn main() {
    clusterplan::ui::serve_worker();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("clusterplan-worker runs in the browser beside the app; the command-line tool is `clusterplan`");
}
