//! The page's hooks: what `App` keeps in step with the browser and its workers, each named by
//! what it keeps (`use_job` in `job.rs` is the one they build on), so `App` is left with the
//! layout.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::file::callbacks::FileReader;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::browser;
use super::job::{use_job, Running};
use super::state::{Action, Notice, State};
use crate::app::words;
use crate::app::{Drawn, Task};
use crate::scenario::Scenario;
use crate::text::Lang;

/// The largest log the page reads; a longer one is for `clusterplan measure`.
const MAX_LOG_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// The language spoken, and what switches it.
pub struct Language {
    pub lang: Lang,
    /// The language select's change: the other catalogue is loaded first if it is not here.
    pub on_change: Callback<Event>,
}

/// The language, and the explanations of fields and results loaded once the page is drawn in
/// it (their arrival redraws the page).
#[hook]
pub fn use_language() -> Language {
    let lang = use_state(crate::text::lang);
    let on_change = {
        let lang = lang.clone();
        Callback::from(move |e: Event| {
            let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() else { return };
            let chosen = Lang::from_code(&select.value());
            let lang = lang.clone();
            wasm_bindgen_futures::spawn_local(async move {
                if browser::load_text(chosen).await.is_ok() {
                    browser::speak(chosen);
                    lang.set(chosen);
                }
            });
        })
    };
    let explained = use_state(|| false);
    use_effect_with(*lang, move |lang| {
        let lang = *lang;
        wasm_bindgen_futures::spawn_local(async move {
            explained.set(browser::load_help(lang).await);
        });
    });
    Language { lang: *lang, on_change }
}

/// How the page is seen: the colour scheme and the results column's width, which the plots
/// follow.
#[derive(Clone, Copy, PartialEq)]
pub struct Seen {
    pub dark: bool,
    pub width: u32,
}

/// The browser's own events: the colour scheme and the window's width, Ctrl+Z and
/// Ctrl+Shift+Z outside a text box, and printing, which unfolds every section.
#[hook]
pub fn use_page_events(state: &UseReducerHandle<State>) -> Seen {
    let dark = use_state(browser::prefers_dark);
    let width = use_state(|| 0u32);
    {
        let (dark, width) = (dark.clone(), width.clone());
        use_effect_with((), move |_| {
            let scheme = browser::on_scheme_change(move || dark.set(browser::prefers_dark()));
            // The plots are drawn as wide as the results column.
            width.set(browser::column_width());
            let resize = browser::on_resize(move || width.set(browser::column_width()));
            move || drop((scheme, resize))
        });
    }
    {
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let listener = browser::on_history_key(move |key| {
                dispatcher.dispatch(match key {
                    browser::HistoryKey::Undo => Action::Undo,
                    browser::HistoryKey::Redo => Action::Redo,
                })
            });
            move || drop(listener)
        });
    }
    use_effect_with((), move |_| {
        let listener = browser::on_before_print(browser::unfold_all);
        move || drop(listener)
    });
    Seen { dark: *dark, width: *width }
}

/// The link and local storage always hold the scenario as typed, valid or not (a whole-plan
/// change adds a history entry, so Back returns to the plan before); a link pasted into the
/// address bar, or Back and Forward, opens its plan. `keep_link` holds a link that could not
/// be read in the address bar until the first edit.
#[hook]
pub fn use_url_sync(state: &UseReducerHandle<State>, keep_link: Rc<RefCell<bool>>) {
    let last_history = use_mut_ref(|| state.history);
    let pinned = state.pinned.as_ref().map(|p| p.scenario.clone());
    use_effect_with(
        (state.scenario.clone(), pinned, state.history),
        move |(scenario, pinned, history)| {
            let push = *last_history.borrow() != *history;
            *last_history.borrow_mut() = *history;
            if !keep_link.replace(false) {
                browser::save(scenario, pinned.as_ref(), push);
            }
        },
    );
    let dispatcher = state.dispatcher();
    use_effect_with((), move |_| {
        let listeners = browser::on_location_change(move || {
            let action = match browser::linked_scenario() {
                Ok(Some((a, Some(b)))) => Action::OpenPair(Box::new((a, b))),
                Ok(Some((scenario, None))) => Action::Open(Box::new(scenario)),
                Ok(None) => return,
                Err(notice) => Action::Notify(Notice::Text(notice)),
            };
            dispatcher.dispatch(action);
        });
        move || drop(listeners)
    });
}

/// The plots, drawn by a worker kept for them, a message after each edit; the worker judges
/// the scenario as the page does (`evaluation::shown`), refused inputs and all.
#[hook]
pub fn use_plots(scenario: &Scenario, seen: Seen, lang: Lang) -> Option<Rc<Drawn>> {
    let plots = use_state(|| None::<Rc<Drawn>>);
    let drawer = use_mut_ref(|| None::<super::worker::Drawer>);
    {
        let plots = plots.clone();
        let Seen { dark, width } = seen;
        use_effect_with(
            (scenario.clone(), dark, width, lang),
            move |(scenario, dark, width, _)| {
                let mut drawer = drawer.borrow_mut();
                if drawer.is_none() {
                    let on_drawn = Callback::from(move |text: String| {
                        if let Some(drawn) = crate::app::wire::drawn(&text) {
                            plots.set(Some(Rc::new(drawn)));
                        }
                    });
                    *drawer = super::worker::Drawer::start(on_drawn).ok();
                }
                // The drawing sits inside a one-pixel border.
                let width = if *width > 2 { *width - 2 } else { 720 };
                if let Some(d) = drawer.as_ref() {
                    d.draw(&Task::Plots { scenario: scenario.clone(), dark: *dark, width });
                }
            },
        );
    }
    (*plots).clone()
}

/// Plan A against plan B drawn by the worker, once edits pause.
#[hook]
pub fn use_compare_plots(state: &UseReducerHandle<State>, dark: bool) -> Running {
    let job = use_job();
    let start = job.start.clone();
    let pair = state.pinned.as_ref().map(|p| (p.scenario.clone(), state.scenario.clone()));
    use_effect_with((pair, dark), move |(pair, dark)| {
        let dark = *dark;
        let timer = pair.clone().map(|(a, b)| {
            gloo::timers::callback::Timeout::new(300, move || {
                start.emit(Task::Compare { pair: Box::new((a, b)), dark })
            })
        });
        move || drop(timer)
    });
    job
}

/// "Run this plan": the framework asked for, whether the section is open, and its launch
/// files, written in a worker while it is open, a moment after edits pause.
pub struct Launching {
    pub job: Running,
    pub framework: UseStateHandle<crate::launch::Framework>,
    pub open: UseStateHandle<bool>,
}

#[hook]
pub fn use_launch(scenario: &Scenario) -> Launching {
    let job = use_job();
    let framework = use_state(|| crate::launch::Framework::Megatron);
    let open = use_state(|| false);
    let start = job.start.clone();
    let asked = (scenario.clone(), *framework, *open);
    use_effect_with(asked, move |(scenario, framework, open)| {
        let task = open.then(|| Task::Launch {
            scenario: scenario.clone(),
            framework: framework.id().to_string(),
        });
        let timer =
            task.map(|task| gloo::timers::callback::Timeout::new(150, move || start.emit(task)));
        move || drop(timer)
    });
    Launching { job, framework, open }
}

/// Logs dropped on "My measurements": read in a worker, and what they measured joins the plan
/// (one Undo step) while the plan is still the one they were read into. Gives the job and
/// what takes the dropped files (a log over `MAX_LOG_BYTES` is refused with a notice).
#[hook]
pub fn use_measure(state: &UseReducerHandle<State>) -> (Running, Callback<Vec<web_sys::File>>) {
    let job = use_job();
    let readers = use_mut_ref(Vec::<FileReader>::new);
    {
        let applied = use_mut_ref(|| None::<Rc<crate::app::Status>>);
        let status = (*job.status).clone();
        let started_on = (*job.started_on).clone();
        let (scenario, dispatcher) = (state.scenario.clone(), state.dispatcher());
        use_effect_with((status, scenario), move |(status, scenario)| {
            let apply = status.result.as_ref().and_then(|v| v.apply.clone());
            let fresh = applied.borrow().as_ref().is_none_or(|a| !Rc::ptr_eq(a, status));
            let same = started_on.as_deref() == Some(scenario);
            if let (false, true, true, Some(apply)) = (status.running, fresh, same, apply) {
                *applied.borrow_mut() = Some(status.clone());
                dispatcher.dispatch(Action::Apply { label: apply.label, scenario: apply.scenario });
            }
        });
    }
    let on_logs = {
        let (state, start) = (state.clone(), job.start.clone());
        Callback::from(move |files: Vec<web_sys::File>| {
            let mut readers = readers.borrow_mut();
            readers.clear();
            let (small, large): (Vec<_>, Vec<_>) =
                files.into_iter().partition(|f| f.size() <= MAX_LOG_BYTES);
            for file in large {
                let max = format!("{} MiB", MAX_LOG_BYTES / (1024.0 * 1024.0));
                let said =
                    words::fill("measure.too-large", &[("file", &file.name()), ("max", &max)]);
                state.dispatch(Action::Notify(Notice::Text(said)));
            }
            let read = Rc::new(RefCell::new(Vec::new()));
            let left = Rc::new(std::cell::Cell::new(small.len()));
            for file in small {
                let name = file.name();
                let (read, left, start) = (read.clone(), left.clone(), start.clone());
                let scenario = state.scenario.clone();
                let task = gloo::file::callbacks::read_as_text(
                    &gloo::file::File::from(file),
                    move |text| {
                        read.borrow_mut().push((name, text.unwrap_or_default()));
                        left.set(left.get() - 1);
                        if left.get() == 0 {
                            let logs = read.take();
                            start.emit(Task::Measure { scenario, logs });
                        }
                    },
                );
                readers.push(task);
            }
        })
    };
    (job, on_logs)
}

/// A scenario file chosen with Import, read and opened (or refused with its problems), with
/// `reader` holding the read under way.
#[hook]
pub fn use_file_import(
    state: &UseReducerHandle<State>,
    reader: Rc<RefCell<Option<FileReader>>>,
) -> Callback<Event> {
    let state = state.clone();
    Callback::from(move |e: Event| {
        let Some(input) = e.target_dyn_into::<HtmlInputElement>() else { return };
        let Some(file) = input.files().and_then(|files| files.get(0)) else { return };
        let name = file.name();
        let state = state.clone();
        let task =
            gloo::file::callbacks::read_as_text(&gloo::file::File::from(file), move |text| {
                let action = match text {
                    Ok(text) => Action::Import { name, text },
                    Err(e) => Action::Notify(Notice::ImportRejected {
                        name,
                        problems: vec![e.to_string()],
                    }),
                };
                state.dispatch(action);
            });
        *reader.borrow_mut() = Some(task);
        input.set_value("");
    })
}
