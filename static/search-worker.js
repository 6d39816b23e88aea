// Starts the plan search's worker (src/ui/worker.rs): the worker build's wasm-bindgen glue
// (trunk, data-type="worker", no hashed names) and its wasm, beside this file.
importScripts('./clusterplan-worker.js');
wasm_bindgen({ module_or_path: './clusterplan-worker_bg.wasm' }).catch((error) => {
  // The page waits for "ready": tell it why the worker will not come.
  postMessage(JSON.stringify({ done: true, errors: [`the search worker could not start: ${error}`] }));
});
