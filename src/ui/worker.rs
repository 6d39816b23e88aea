//! Searches, sizings, the accuracy report, comparisons and plots off the main thread, in a Web
//! Worker of their own.
//!
//! The worker is a second wasm build (`src/worker.rs`, trunk's `data-type="worker"`), so the
//! page's first load carries none of the search. It says `ready` once loaded; the page then
//! posts the request (`jobs::Task` as JSON), and the worker runs the job (`jobs::Job`),
//! posting an update every tenth of a second and a last one when done. Cancelling terminates
//! the worker. The hosted page starts it from its loader file; `standalone.html`, which has no
//! files beside it, carries the worker inline as a `data:` URL in `<meta name="search-worker">`.

use std::rc::Rc;

use gloo::events::EventListener;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker};
use yew::Callback;

use crate::jobs::{Job, Task};
use crate::text::{self, Lang};

/// The worker's loader, next to the page (`static/search-worker.js`).
const LOADER: &str = "search-worker.js";
/// What the worker says once it can take a request.
const READY: &str = "ready";
/// How often the worker posts an update, milliseconds.
const UPDATE_MS: f64 = 100.0;

/// The worker's side: says it is ready, then runs each request it is sent.
pub fn serve() {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else { return };
    // A panic says why on the console (the worker has no page to show it on).
    super::browser::install_panic_hook();
    // The worker carries both catalogues (it is not part of the page's first load).
    text::install(Lang::En, crate::catalogue_source!(En)).ok();
    text::install(Lang::ZhCn, crate::catalogue_source!(ZhCn)).ok();
    let post = {
        let scope = scope.clone();
        move |text: String| {
            let _ = scope.post_message(&text.into());
        }
    };
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        let lang = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v["lang"].as_str().map(Lang::from_code));
        text::set_lang(lang.unwrap_or(Lang::En));
        let request = Task::from_json(&text).map_err(|e| vec![e]);
        let mut job = match request.and_then(|r| Job::start(&r)) {
            Ok(job) => job,
            Err(errors) => {
                post(serde_json::json!({ "done": true, "errors": errors }).to_string());
                return;
            }
        };
        // The page gets the result as it shows it (`Job::view`), not the raw figures.
        let update = |job: &Job, done: bool| {
            serde_json::json!({ "done": done, "progress": job.progress(), "result": job.view(done) })
                .to_string()
        };
        let mut last = js_sys::Date::now();
        while !job.step() {
            if js_sys::Date::now() - last >= UPDATE_MS {
                post(update(&job, false));
                last = js_sys::Date::now();
            }
        }
        post(update(&job, true));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    let _ = scope.post_message(&READY.into());
}

/// A job the page started; dropping it cancels the job.
pub struct Runner {
    worker: Rc<Worker>,
    _listeners: [EventListener; 2],
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// Where the worker starts from: the inline copy `standalone.html` carries, or the loader file.
fn script() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("meta[name=search-worker]").ok().flatten())
        .and_then(|meta| meta.get_attribute("content"))
        .unwrap_or_else(|| LOADER.to_string())
}

impl Runner {
    /// Starts `request` in a new worker; `on_update` receives each update as JSON text
    /// (`jobs::Job::update`, or `{"done": true, "errors": [...]}`). `Err` says why no worker
    /// could start.
    pub fn start(request: &Task, on_update: Callback<String>) -> Result<Runner, String> {
        let worker = Rc::new(
            Worker::new(&script()).map_err(|e| format!("the search could not start: {e:?}"))?,
        );
        let text = request.to_json();
        let message = {
            let (worker, on_update) = (worker.clone(), on_update.clone());
            EventListener::new(&worker.clone(), "message", move |event| {
                let Some(data) = event.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string())
                else {
                    return;
                };
                if data == READY {
                    if worker.post_message(&text.clone().into()).is_err() {
                        on_update.emit(failed("the search could not be sent to its worker"));
                    }
                } else {
                    on_update.emit(data);
                }
            })
        };
        let error = EventListener::new(&worker, "error", move |_| {
            on_update.emit(failed("the search's worker stopped with an error"));
        });
        Ok(Runner { worker, _listeners: [message, error] })
    }
}

/// The worker that draws the page's plots: started once and kept, so each redraw costs a
/// message, not a new worker. It draws one request at a time; while it draws, only the newest
/// request waits, and older ones are dropped, so a burst of edits ends with the last plan drawn.
pub struct Drawer {
    worker: Rc<Worker>,
    state: Rc<std::cell::RefCell<DrawerState>>,
    _listeners: [EventListener; 2],
}

#[derive(Default)]
struct DrawerState {
    ready: bool,
    busy: bool,
    waiting: Option<String>,
}

impl DrawerState {
    /// Sends the waiting request when the worker can take it.
    fn flush(&mut self, worker: &Worker) {
        if self.ready && !self.busy {
            if let Some(text) = self.waiting.take() {
                self.busy = worker.post_message(&text.into()).is_ok();
            }
        }
    }
}

impl Drawer {
    /// Starts the worker; `on_drawn` receives each finished drawing as an update's JSON text
    /// (`jobs::Job::update`).
    pub fn start(on_drawn: Callback<String>) -> Result<Drawer, String> {
        let worker = Rc::new(
            Worker::new(&script()).map_err(|e| format!("the plots could not be drawn: {e:?}"))?,
        );
        let state = Rc::new(std::cell::RefCell::new(DrawerState::default()));
        let message = {
            let (worker, state) = (worker.clone(), state.clone());
            EventListener::new(&worker.clone(), "message", move |event| {
                let Some(data) = event.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string())
                else {
                    return;
                };
                let mut s = state.borrow_mut();
                if data == READY {
                    s.ready = true;
                } else if data.contains("\"done\":true") {
                    s.busy = false;
                    on_drawn.emit(data);
                }
                s.flush(&worker);
            })
        };
        let error = {
            let state = state.clone();
            EventListener::new(&worker, "error", move |_| state.borrow_mut().ready = false)
        };
        Ok(Drawer { worker, state, _listeners: [message, error] })
    }

    /// Draws `request` next, replacing any request still waiting.
    pub fn draw(&self, request: &Task) {
        let mut s = self.state.borrow_mut();
        s.waiting = Some(request.to_json());
        s.flush(&self.worker);
    }
}

impl Drop for Drawer {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// An update that ends a job with an error.
fn failed(why: &str) -> String {
    serde_json::json!({ "done": true, "errors": [why] }).to_string()
}
