//! Searches, sizings, the accuracy report, comparisons and plots off the main thread, in a Web
//! Worker of their own.
//!
//! The worker is a second wasm build (`src/worker.rs`, trunk's `data-type="worker"`), so the
//! page's first load carries none of the search. It says `ready` once loaded; the page then
//! posts the request (`app::Ask` as JSON), and the worker runs the job (`app::jobs::Job`),
//! posting an update every tenth of a second and a last one when done. Cancelling terminates
//! the worker. The hosted page starts it from its loader file; `standalone.html`, which has no
//! files beside it, carries the worker inline as the text of `<script data-worker>`, started as a
//! `blob:` URL; a worker may not start another from the page's `blob:` URL, so the page sends
//! the job's worker that text too (`CODE`), and it starts the workers beside it from a `blob:`
//! URL of its own.
//!
//! On a machine with several cores a search or a sizing of several chips runs side by side: the
//! worker starts workers of its own (from its own address), as many as the machine has cores
//! (`navigator.hardwareConcurrency`, at most eight; the page may ask for fewer), gives each a
//! search's shard or a chip of the sizing (`app::jobs::Job::split`; a worker done with one chip takes
//! the next waiting), asks each for its `parts`, and puts them together
//! as one job (`app::jobs::Job::merged`), so the page sees one search or sizing with one progress
//! bar, which *Cancel* ends with every worker. Where a worker cannot start another, or one it
//! started says nothing within five seconds (its code never came), it runs the whole job
//! itself.

use std::rc::Rc;

use gloo::events::EventListener;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker};
use yew::Callback;

use crate::app::jobs::Job;
use crate::app::wire::{failed, Ask, Update};
use crate::app::Task;
use crate::text::{self, Lang};

/// The worker's loader, next to the page (`static/search-worker.js`).
const LOADER: &str = "search-worker.js";
/// What the worker says once it can take a request.
const READY: &str = "ready";
/// What the page of `standalone.html` tells the job's worker first: `code:` and the worker's
/// own code, from which that worker starts the workers beside it.
const CODE: &str = "code:";
/// How often the worker posts an update, milliseconds.
const UPDATE_MS: f64 = 100.0;
/// Workers a search or sizing runs on at most.
const MOST_WORKERS: usize = 8;

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
    let own = scope.clone();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        if let Some(code) = text.strip_prefix(CODE) {
            OWN_CODE.with(|own| *own.borrow_mut() = blob_url(code));
            return;
        }
        // A worker started ahead of its job starts the workers beside it ahead too.
        if let Some(n) = text.strip_prefix(WARM).and_then(|n| n.parse::<usize>().ok()) {
            // The job's parts each take a worker of their own; this one puts them together.
            let n = n.clamp(1, MOST_WORKERS);
            warm_pool(&own, if n > 1 { n } else { 0 });
            return;
        }
        let Ask { lang, parts, workers, task } = Ask::from_json(&text);
        text::set_lang(lang.as_deref().map_or(Lang::En, Lang::from_code));
        let request = task.map_err(|e| vec![e]);
        // `parts`: asked by another worker for what it found (`side_by_side`).
        let cores = workers.map_or(own.navigator().hardware_concurrency(), f64::from);
        let pool = (cores as usize).clamp(1, MOST_WORKERS);
        if let Some(tasks) = request.as_ref().ok().and_then(|r| Job::split(r, pool)) {
            if request.as_ref().is_ok_and(|r| Job::start(r).is_ok()) {
                let whole = request.clone().unwrap_or(Task::Validate);
                if side_by_side(&own, whole, &tasks, pool, post.clone()) {
                    return;
                }
            }
        }
        run_here(request, parts, &post);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    let _ = scope.post_message(&READY.into());
}

/// Runs `request` in this worker to the end, posting an update every `UPDATE_MS` and a last one;
/// a part for another worker (`parts`) hands back what it found, too.
fn run_here(request: Result<Task, Vec<String>>, parts: bool, post: &dyn Fn(String)) {
    let mut job = match request.and_then(|r| Job::start(&r)) {
        Ok(job) => job,
        Err(errors) => return post(failed(&errors)),
    };
    let mut last = js_sys::Date::now();
    while !job.step() {
        if js_sys::Date::now() - last >= UPDATE_MS {
            post(job.update_at(job.progress(), false, parts));
            last = js_sys::Date::now();
        }
    }
    post(job.update_at(1.0, true, parts));
}

/// What the page tells a worker started ahead of its job: `warm:<workers>`, the workers it is
/// to run on with itself.
const WARM: &str = "warm:";
/// What that worker says once they are all ready.
const WARMED: &str = "warmed";

/// A worker started ahead of a job beside this one, and whether it has said it is ready.
struct Pooled {
    worker: Worker,
    ready: Rc<std::cell::Cell<bool>>,
    _listener: EventListener,
}

thread_local! {
    /// The workers started ahead beside this one (`warm_pool`), taken by the next job run side
    /// by side.
    static POOL: std::cell::RefCell<Vec<Pooled>> = const { std::cell::RefCell::new(Vec::new()) };
    /// A `blob:` URL of this worker's own code, made from what the page sent (`CODE`).
    static OWN_CODE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Where this worker starts the workers beside it from: its own address when a server serves
/// it; for one started from the page's inline copy (`standalone.html`), whose `blob:` URL only
/// the page may start, a `blob:` URL of the code the page sent (`CODE`); `None` without one,
/// when it runs its jobs alone.
fn address(scope: &DedicatedWorkerGlobalScope) -> Option<String> {
    let href = scope.location().href();
    if href.starts_with("http:") || href.starts_with("https:") {
        return Some(href);
    }
    OWN_CODE.with(|own| own.borrow().clone())
}

/// A `blob:` URL of the script `code`.
fn blob_url(code: &str) -> Option<String> {
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/javascript");
    let parts = js_sys::Array::of1(&code.into());
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}

/// Starts `n` workers beside this one ahead of its job.
fn warm_pool(scope: &DedicatedWorkerGlobalScope, n: usize) {
    // Tells the page once every worker beside this one is ready (`WARMED`).
    let all_ready = {
        let scope = scope.clone();
        move || {
            if POOL.with(|pool| pool.borrow().iter().all(|p| p.ready.get())) {
                let _ = scope.post_message(&WARMED.into());
            }
        }
    };
    let Some(address) = address(scope).filter(|_| n > 0) else {
        all_ready();
        return;
    };
    POOL.with(|pool| {
        let mut pool = pool.borrow_mut();
        while pool.len() < n {
            let Ok(worker) = Worker::new(&address) else { return };
            let ready = Rc::new(std::cell::Cell::new(false));
            let (flag, all_ready) = (ready.clone(), all_ready.clone());
            let listener = EventListener::new(&worker, "message", move |event| {
                if event.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string()).as_deref()
                    == Some(READY)
                {
                    flag.set(true);
                    all_ready();
                }
            });
            pool.push(Pooled { worker, ready, _listener: listener });
        }
    });
}

/// A search or a sizing run as parts (`Job::split`) on workers beside this one: each worker
/// takes the next part waiting when it is done, so a sizing of more chips than workers keeps
/// them all busy and starts no more.
struct SideBySide {
    whole: Task,
    workers: Vec<Worker>,
    /// Each part's request, in the job's order.
    requests: Vec<String>,
    /// The next part no worker has taken yet.
    next: usize,
    /// The part each worker is running.
    on: Vec<Option<usize>>,
    /// Each part's parts once its worker is done.
    parts: Vec<Option<serde_json::Value>>,
    progress: Vec<f64>,
    /// Whether each worker has said anything (it is ready, or how far it is).
    heard: Vec<bool>,
    errors: Vec<String>,
    last: f64,
    finished: bool,
}

impl SideBySide {
    /// Gives worker `w` the next part waiting, if one is.
    fn give(&mut self, w: usize) {
        self.on[w] = None;
        let Some(request) = self.requests.get(self.next) else { return };
        if self.workers[w].post_message(&request.as_str().into()).is_err() {
            self.errors.push("a part could not be sent to its worker".into());
            return;
        }
        self.on[w] = Some(self.next);
        self.next += 1;
    }

    /// Takes what worker `w` said: ready for a part, how far its part is, or the part done.
    fn heard_from(&mut self, w: usize, data: &str) {
        self.heard[w] = true;
        if data == READY {
            return self.give(w);
        }
        let Some(i) = self.on[w] else { return };
        let Ok(update) = Update::<serde::de::IgnoredAny>::read(data) else { return };
        self.progress[i] = update.progress.unwrap_or(self.progress[i]);
        if update.done {
            match update.parts {
                Some(parts) => {
                    self.parts[i] = Some(parts);
                    self.give(w);
                }
                None => self.errors.extend(update.errors),
            }
        }
    }

    /// Tells the page how far the job is, or its result once every part is done.
    fn report(&mut self, post: &dyn Fn(String)) {
        if self.finished {
            return;
        }
        if !self.errors.is_empty() {
            self.finish();
            return post(failed(&self.errors));
        }
        let all = self.parts.iter().all(Option::is_some);
        if !all && js_sys::Date::now() - self.last < UPDATE_MS {
            return;
        }
        self.last = js_sys::Date::now();
        // The parts done so far, in the job's order.
        let done: Vec<serde_json::Value> = self.parts.iter().map_while(Clone::clone).collect();
        let progress = self.progress.iter().sum::<f64>() / self.progress.len().max(1) as f64;
        match Job::merged(&self.whole, &done) {
            Ok(job) if all => {
                self.finish();
                post(job.update_at(1.0, true, false));
            }
            Ok(job) => post(job.update_at(progress.min(0.99), false, false)),
            Err(why) => {
                self.finish();
                post(failed(&[why]));
            }
        }
    }

    fn finish(&mut self) {
        self.finished = true;
        for worker in &self.workers {
            worker.terminate();
        }
    }
}

/// Runs the parts `tasks` of `whole` (from `Job::split`) on at most `pool` workers beside this
/// one, which report through `post`; false when a worker cannot start, so the caller runs the
/// job itself.
fn side_by_side(
    scope: &DedicatedWorkerGlobalScope,
    whole: Task,
    tasks: &[Task],
    pool: usize,
    post: impl Fn(String) + Clone + 'static,
) -> bool {
    let Some(address) = address(scope) else { return false };
    // The workers started ahead first, then new ones; whether each has said it is ready.
    let mut workers = Vec::new();
    let mut ready = Vec::new();
    let mut warm = POOL.with(|pool| std::mem::take(&mut *pool.borrow_mut()));
    for _ in 0..tasks.len().min(pool.max(1)) {
        if !warm.is_empty() {
            let pooled = warm.remove(0);
            ready.push(pooled.ready.get());
            workers.push(pooled.worker);
            continue;
        }
        match Worker::new(&address) {
            Ok(worker) => {
                workers.push(worker);
                ready.push(false);
            }
            Err(_) => {
                workers.iter().for_each(Worker::terminate);
                return false;
            }
        }
    }
    warm.iter().for_each(|p| p.worker.terminate());
    let lang = Some(text::lang().code().to_string());
    let requests = tasks
        .iter()
        .map(|task| {
            Ask { lang: lang.clone(), parts: true, workers: Some(1), task: Ok(task.clone()) }
                .to_json()
        })
        .collect();
    let state = Rc::new(std::cell::RefCell::new(SideBySide {
        whole,
        workers: workers.clone(),
        requests,
        next: 0,
        on: vec![None; workers.len()],
        parts: vec![None; tasks.len()],
        progress: vec![0.0; tasks.len()],
        heard: ready.clone(),
        errors: Vec::new(),
        last: js_sys::Date::now(),
        finished: false,
    }));
    for (w, worker) in workers.iter().enumerate() {
        // A worker started ahead has said it is ready already: it takes a part now.
        if ready[w] {
            state.borrow_mut().give(w);
        }
        let (on_state, on_post) = (state.clone(), post.clone());
        let message = EventListener::new(worker, "message", move |event| {
            let Some(data) = event.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string())
            else {
                return;
            };
            let mut s = on_state.borrow_mut();
            s.heard_from(w, &data);
            s.report(&on_post);
        });
        let (on_state, on_post) = (state.clone(), post.clone());
        let error = EventListener::new(worker, "error", move |_| {
            let mut s = on_state.borrow_mut();
            s.errors.push("a part's worker stopped with an error".into());
            s.report(&on_post);
        });
        // The listeners live as long as this worker, which ends with the job.
        std::mem::forget((message, error));
    }
    // A worker that has said nothing by `SILENT_MS` (one that never loaded) would leave the job
    // waiting for ever: then this worker ends the others and runs the whole job itself.
    let alone = gloo::timers::callback::Timeout::new(SILENT_MS, move || {
        let mut s = state.borrow_mut();
        if s.finished || s.heard.iter().all(|&h| h) {
            return;
        }
        s.finish();
        let whole = s.whole.clone();
        drop(s);
        run_here(Ok(whole), false, &post);
    });
    alone.forget();
    true
}

/// How long a part's worker may take to say it is ready, milliseconds, before the job is run
/// in one worker instead.
const SILENT_MS: u32 = 5_000;

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

/// Where the worker starts from: the inline copy `standalone.html` carries (as a `blob:` URL
/// made once from its text), or the loader file.
fn script() -> String {
    thread_local! {
        static INLINE: std::cell::OnceCell<Option<String>> = const { std::cell::OnceCell::new() };
    }
    let inline = INLINE.with(|cell| {
        cell.get_or_init(|| {
            let document = web_sys::window()?.document()?;
            let code =
                document.query_selector("script[data-worker]").ok().flatten()?.text_content()?;
            blob_url(&code)
        })
        .clone()
    });
    inline.unwrap_or_else(|| LOADER.to_string())
}

/// Sends a job's worker just ready the inline worker's code (`CODE`), so it can start the
/// workers beside it, on the page of `standalone.html`; on the hosted page it sends nothing.
fn send_code(worker: &Worker) {
    let element = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("script[data-worker]").ok().flatten());
    // The text stays a JavaScript string: the page never copies the worker's code.
    if let Some(code) = element.and_then(|e| js_sys::Reflect::get(&e, &"textContent".into()).ok()) {
        let _ = worker.post_message(&js_sys::JsString::from(CODE).concat(&code));
    }
}

impl Runner {
    /// Starts `request` in a new worker; `on_update` receives each update as JSON text
    /// (`app::jobs::Job::update`, or `{"done": true, "errors": [...]}`). `Err` says why no worker
    /// could start.
    pub fn start(request: &Task, on_update: Callback<String>) -> Result<Runner, String> {
        let mut ask = Ask::new(request, text::lang().code());
        ask.workers = super::browser::workers_asked();
        let text = ask.to_json();
        let spare = SPARE.with(|s| s.borrow_mut().take());
        let (worker, ready) = match spare {
            Some(spare) => (spare.worker, spare.ready.get()),
            None => {
                let worker = Worker::new(&script())
                    .map_err(|e| format!("the search could not start: {e:?}"))?;
                (Rc::new(worker), false)
            }
        };
        let refused = || failed(&["the search could not be sent to its worker".into()]);
        if ready && worker.post_message(&text.clone().into()).is_err() {
            on_update.emit(refused());
        }
        let message = {
            let (worker, on_update) = (worker.clone(), on_update.clone());
            EventListener::new(&worker.clone(), "message", move |event| {
                let Some(data) = event.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string())
                else {
                    return;
                };
                if data == READY {
                    send_code(&worker);
                    if worker.post_message(&text.clone().into()).is_err() {
                        on_update.emit(refused());
                    }
                } else if data != WARMED {
                    // Once done, the next job's worker is started ahead.
                    if data.contains("\"done\":true") {
                        warm_up();
                    }
                    on_update.emit(data);
                }
            })
        };
        let error = EventListener::new(&worker, "error", move |_| {
            on_update.emit(failed(&["the search's worker stopped with an error".into()]));
        });
        Ok(Runner { worker, _listeners: [message, error] })
    }
}

/// A worker started ahead of the page's next job, with the workers beside it starting too, so
/// a search or a sizing does not wait for them to load; and whether it has said it is ready.
struct Spare {
    worker: Rc<Worker>,
    ready: Rc<std::cell::Cell<bool>>,
    _listener: EventListener,
}

thread_local! {
    static SPARE: std::cell::RefCell<Option<Spare>> = const { std::cell::RefCell::new(None) };
}

/// Starts the next job's worker ahead, unless one is: it is told at once how many workers to
/// run on (`navigator.hardwareConcurrency`, at most eight, or fewer as asked), so it starts
/// those beside it as soon as it is ready.
pub fn warm_up() {
    if SPARE.with(|s| s.borrow().is_some()) {
        return;
    }
    let Some(window) = web_sys::window() else { return };
    let Ok(worker) = Worker::new(&script()) else { return };
    let worker = Rc::new(worker);
    let asked = super::browser::workers_asked().map(|n| n as usize);
    let cores = asked.unwrap_or(window.navigator().hardware_concurrency() as usize);
    let warm = format!("{WARM}{}", cores.clamp(1, MOST_WORKERS));
    let ready = Rc::new(std::cell::Cell::new(false));
    let listener = {
        let (worker, ready) = (worker.clone(), ready.clone());
        EventListener::new(&worker.clone(), "message", move |event| {
            let said = event.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string());
            if said.as_deref() == Some(READY) {
                send_code(&worker);
                ready.set(worker.post_message(&warm.clone().into()).is_ok());
            }
            // The page says so on its root (`data-workers-ready`), for its benchmarks.
            if said.as_deref() == Some(WARMED) {
                super::browser::mark_root("data-workers-ready");
            }
        })
    };
    SPARE.with(|s| *s.borrow_mut() = Some(Spare { worker, ready, _listener: listener }));
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
    /// (`app::jobs::Job::update`).
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
                    // The worker's code is loaded and cached now: a worker for the first
                    // search or sizing starts ahead of it, without loading it again.
                    warm_up();
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
        s.waiting = Some(Ask::new(request, text::lang().code()).to_json());
        s.flush(&self.worker);
    }
}

impl Drop for Drawer {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}
