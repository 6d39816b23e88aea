//! Form controls bound to a scenario path: number entry with an optional slider, selects and
//! toggles, each with its unit, its errors and the warnings that concern it.

use crate::app::edits::Value;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

pub use crate::app::state::Change;
use crate::scenario::Fix;

/// How a slider maps its position to a value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Slider {
    /// Powers of two from `2^min` to `2^max`.
    Pow2 { min: u32, max: u32 },
    /// Log-spaced from `10^min` to `10^max`, 8 steps per decade.
    Log10 { min: i32, max: i32 },
    /// Log-spaced from 1 to `2^max`, 32 steps per doubling (about 2% apart), each value
    /// snapped to a multiple of `snap` (the chips one plan replica takes).
    Fine { max: u32, snap: u32 },
}

/// Steps per doubling of a `Fine` slider.
const FINE_STEPS: f64 = 32.0;

impl Slider {
    fn range(self) -> (f64, f64) {
        match self {
            Slider::Pow2 { min, max } => (min as f64, max as f64),
            Slider::Log10 { min, max } => (8.0 * min as f64, 8.0 * max as f64),
            Slider::Fine { max, .. } => (0.0, FINE_STEPS * max as f64),
        }
    }

    fn position(self, value: f64) -> f64 {
        let (lo, hi) = self.range();
        let p = match self {
            Slider::Pow2 { .. } => value.max(1.0).log2().round(),
            Slider::Log10 { .. } => (8.0 * value.max(1e-30).log10()).round(),
            Slider::Fine { .. } => (FINE_STEPS * value.max(1.0).log2()).round(),
        };
        p.clamp(lo, hi)
    }

    fn value(self, position: f64) -> Value {
        match self {
            Slider::Pow2 { .. } => Value::from(2f64.powf(position).round() as u64),
            Slider::Log10 { .. } => {
                let x = 10f64.powf(position / 8.0);
                // Three significant digits, written short (`15.6T`), so the box reads cleanly.
                let scale = 10f64.powf(x.log10().floor() - 2.0);
                Value::String(crate::numbers::format((x / scale).round() * scale))
            }
            Slider::Fine { snap, .. } => {
                let x = 2f64.powf(position / FINE_STEPS);
                let snap = snap.max(1) as f64;
                Value::from(((x / snap).round().max(1.0) * snap) as u64)
            }
        }
    }
}

/// Properties of a number field.
#[derive(Default)]
pub struct NumberFieldProps {
    /// Scenario path.
    pub path: AttrValue,
    /// `data-testid` of the input.
    pub testid: AttrValue,
    /// Label.
    pub label: AttrValue,
    /// Unit shown after the input.
    pub unit: AttrValue,
    /// Text in the box.
    pub value: AttrValue,
    /// The value the box would take if left empty (shown as placeholder).
    pub placeholder: AttrValue,
    /// Slider beside the box.
    pub slider: Option<Slider>,
    /// Emptying the box clears the key (back to its default) instead of reporting it.
    pub optional: bool,
    /// Errors for this field.
    pub errors: Vec<String>,
    /// One-click fixes for the errors.
    pub fixes: Vec<Fix>,
    /// Problems of the plan that concern this field (it cannot run as written).
    pub problems: Vec<String>,
    /// Warnings that concern this field.
    pub notes: Vec<String>,
    /// What the field means, on hover and focus.
    pub help: AttrValue,
    /// The slider only shows the value (it follows other fields).
    pub slider_readonly: bool,
    /// A short reading of the value in human units ("15.6 T tokens").
    pub reading: AttrValue,
    /// Called with each change; the same callback on every render, so an unchanged field is
    /// not re-rendered.
    pub on_set: Callback<Vec<Change>>,
}

/// A number box with its label, unit, slider, errors and warnings.
pub fn number_field(props: NumberFieldProps) -> Html {
    let props = &props;
    let path = props.path.to_string();
    let optional = props.optional;
    // `16k`, `14.8T` and `1.6万` are parsed where every value is: in `resolve`.
    let on_input = {
        let on_set = props.on_set.clone();
        let path = path.clone();
        Callback::from(move |e: InputEvent| {
            let Some(input) = e.target_dyn_into::<HtmlInputElement>() else { return };
            let text = input.value();
            let value = if optional && text.trim().is_empty() {
                None
            } else {
                Some(crate::app::edits::typed(&text))
            };
            on_set.emit(vec![(path.clone(), value)]);
        })
    };
    let slider = props.slider.map(|slider| {
        let (lo, hi) = slider.range();
        let current = crate::numbers::parse(&props.value)
            .ok()
            .or_else(|| crate::numbers::parse(&props.placeholder).ok());
        let position = current.map_or(lo, |v| slider.position(v));
        let on_slide = {
            let on_set = props.on_set.clone();
            let path = path.clone();
            Callback::from(move |e: InputEvent| {
                let Some(input) = e.target_dyn_into::<HtmlInputElement>() else { return };
                let Ok(p) = input.value().parse::<f64>() else { return };
                on_set.emit(vec![(path.clone(), Some(slider.value(p)))]);
            })
        };
        let spoken = current.map(|v| format!("{v} {}", props.unit)).unwrap_or_default();
        html! {
            <input type="range" class="slider" min={lo.to_string()} max={hi.to_string()} step="1"
                value={position.to_string()} oninput={on_slide} disabled={props.slider_readonly}
                aria-label={crate::text::fill("form.slider", &[("label", &props.label)])} aria-valuetext={spoken}
                data-testid={format!("{}-slider", props.testid)} />
        }
    });
    let invalid = !props.errors.is_empty() || !props.problems.is_empty();
    html! {
        <div class={classes!("field", invalid.then_some("invalid"))} data-path={path.clone()}>
            <label>
                <span class="label">{ props.label.clone() }{ help(props.help.clone()) }</span>
                <span class="entry">
                    { slider }
                    <input type="text" inputmode="decimal" class="number" value={props.value.clone()}
                        placeholder={props.placeholder.clone()} oninput={on_input}
                        aria-label={format!("{} {}", props.label, props.unit).trim().to_string()}
                        aria-invalid={invalid.to_string()} data-testid={props.testid.clone()} />
                    <span class="unit">{ props.unit.clone() }</span>
                </span>
            </label>
            if !props.reading.is_empty() { <div class="reading">{ props.reading.clone() }</div> }
            { messages(&MessagesProps { testid: props.testid.clone(), errors: props.errors.clone(), fixes: props.fixes.clone(),
                problems: props.problems.clone(), notes: props.notes.clone(), on_set: Some(props.on_set.clone()) }) }
        </div>
    }
}

/// A field's small mark whose explanation (`text`; nothing is drawn when empty) shows on hover
/// and while the field has the keyboard's focus, so it costs no Tab stop of its own. Plain
/// functions here and in `messages` rather than components: they live inside the field
/// components, which already skip unchanged renders.
pub fn help(text: impl Into<AttrValue>) -> Html {
    mark(text.into(), None)
}

/// The same mark where there is no field to focus (a result card): a Tab stop of its own.
pub fn help_stop(text: impl Into<AttrValue>) -> Html {
    mark(text.into(), Some("0"))
}

fn mark(text: AttrValue, tabindex: Option<&'static str>) -> Html {
    if text.is_empty() {
        return Html::default();
    }
    html! {
        <span class="help" {tabindex} role="note" aria-label={text.clone()} title={text.clone()}>
            { "?" }<span class="tip" aria-hidden="true">{ text }</span>
        </span>
    }
}

/// The error and warning lines under a field.
#[derive(Default)]
pub struct MessagesProps {
    /// The field's `data-testid`.
    pub testid: AttrValue,
    /// Errors.
    pub errors: Vec<String>,
    /// One-click fixes for the errors, each a button.
    pub fixes: Vec<Fix>,
    /// Problems of the plan (red).
    pub problems: Vec<String>,
    /// Warnings.
    pub notes: Vec<String>,
    /// Applies a fix.
    pub on_set: Option<Callback<Vec<Change>>>,
}

/// Errors and problems (red), their fixes, and warnings (amber) under a field.
pub fn messages(props: &MessagesProps) -> Html {
    let fix_button = |fix: &Fix| {
        let changes: Vec<Change> =
            fix.changes.iter().map(|(p, v)| (p.clone(), Some(v.clone()))).collect();
        let on_set = props.on_set.clone();
        let onclick = Callback::from(move |_| {
            if let Some(on_set) = &on_set {
                on_set.emit(changes.clone());
            }
        });
        html! {
            <button type="button" class="suggest" data-testid={format!("{}-suggest", props.testid)} {onclick}>
                { fix.label.to_string() }
            </button>
        }
    };
    html! {
        <>
            if !props.errors.is_empty() {
                <div class="error" role="alert" data-testid={format!("error-{}", props.testid)}>
                    { props.errors.join("; ") }
                </div>
            }
            if !props.fixes.is_empty() {
                <div class="fixes">{ for props.fixes.iter().map(fix_button) }</div>
            }
            { for props.problems.iter().map(|n| html! { <div class="error problem">{ n.clone() }</div> }) }
            { for props.notes.iter().map(|n| html! { <div class="note">{ n.clone() }</div> }) }
        </>
    }
}

/// Properties of a select field.
#[derive(Properties, PartialEq, Clone)]
pub struct SelectFieldProps {
    /// `data-testid` of the select.
    pub testid: AttrValue,
    /// Label.
    pub label: AttrValue,
    /// `(value, text)` options.
    pub options: Vec<(AttrValue, AttrValue)>,
    /// Further options in named groups (`<optgroup>`), after the plain ones.
    #[prop_or_default]
    pub groups: Vec<(AttrValue, Vec<(AttrValue, AttrValue)>)>,
    /// Selected value.
    pub value: AttrValue,
    /// Errors for this field.
    #[prop_or_default]
    pub errors: Vec<String>,
    /// Problems of the plan that concern this field.
    #[prop_or_default]
    pub problems: Vec<String>,
    /// Warnings that concern this field.
    #[prop_or_default]
    pub notes: Vec<String>,
    /// A line of detail under the select.
    #[prop_or_default]
    pub detail: Html,
    /// What the field means, on hover and focus.
    #[prop_or_default]
    pub help: AttrValue,
    /// Called with the chosen value.
    pub on_change: Callback<String>,
}

/// A labelled select.
#[function_component(SelectField)]
pub fn select_field(props: &SelectFieldProps) -> Html {
    // Browsers stop honouring the `selected` attribute once the user has picked an option,
    // so the element's value is set directly after every render.
    let select = use_node_ref();
    {
        let select = select.clone();
        use_effect_with(props.value.clone(), move |value| {
            if let Some(element) = select.cast::<HtmlSelectElement>() {
                element.set_value(value);
            }
        });
    }
    let on_change = {
        let cb = props.on_change.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<HtmlSelectElement>() {
                cb.emit(select.value());
            }
        })
    };
    html! {
        <div class={classes!("field", (!props.errors.is_empty() || !props.problems.is_empty()).then_some("invalid"))}>
            <label>
                <span class="label">{ props.label.clone() }{ help(props.help.clone()) }</span>
                <select ref={select} onchange={on_change} data-testid={props.testid.clone()}>
                    { for props.options.iter().map(|(value, text)| html! {
                        <option value={value.clone()} selected={*value == props.value}>{ text.clone() }</option>
                    }) }
                    { for props.groups.iter().map(|(label, options)| html! {
                        <optgroup label={label.clone()}>
                            { for options.iter().map(|(value, text)| html! {
                                <option value={value.clone()} selected={*value == props.value}>{ text.clone() }</option>
                            }) }
                        </optgroup>
                    }) }
                </select>
            </label>
            if props.detail != Html::default() { <div class="reading">{ props.detail.clone() }</div> }
            { messages(&MessagesProps { testid: props.testid.clone(), errors: props.errors.clone(),
                problems: props.problems.clone(), notes: props.notes.clone(), ..Default::default() }) }
        </div>
    }
}

/// Properties of a checkbox field.
#[derive(Default)]
pub struct ToggleFieldProps {
    /// Scenario path.
    pub path: AttrValue,
    /// `data-testid`.
    pub testid: AttrValue,
    /// Label.
    pub label: AttrValue,
    /// Checked.
    pub checked: bool,
    /// What the field means, on hover and focus.
    pub help: AttrValue,
    /// Warnings that concern this field.
    pub notes: Vec<String>,
    /// Called with each change; the same callback on every render, so an unchanged field is
    /// not re-rendered.
    pub on_set: Callback<Vec<Change>>,
}

/// A labelled checkbox. A plain function: a handful of checkboxes re-render for less than a
/// component of their own costs the page's download.
pub fn toggle_field(props: ToggleFieldProps) -> Html {
    let on_change = {
        let on_set = props.on_set.clone();
        let path = props.path.to_string();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                on_set.emit(vec![(path.clone(), Some(Value::Bool(input.checked())))]);
            }
        })
    };
    html! {
        <div class="field toggle" data-path={props.path.clone()}>
            <label>
                <input type="checkbox" checked={props.checked} onchange={on_change} data-testid={props.testid.clone()} />
                <span class="label">{ props.label.clone() }</span>
            </label>
            { help(props.help.clone()) }
            { messages(&MessagesProps { testid: props.testid.clone(), notes: props.notes.clone(), ..Default::default() }) }
        </div>
    }
}
