//! Form controls bound to a scenario path: number entry with an optional slider, selects and
//! toggles, each with its unit, its errors and the warnings that concern it.

use serde_json::Value;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// A change to the scenario: a dotted path and its new raw value (`None` clears it).
pub type Change = (String, Option<Value>);

/// How a slider maps its position to a value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Slider {
    /// Powers of two from `2^min` to `2^max`.
    Pow2 { min: u32, max: u32 },
    /// Log-spaced from `10^min` to `10^max`, 8 steps per decade.
    Log10 { min: i32, max: i32 },
}

impl Slider {
    fn range(self) -> (f64, f64) {
        match self {
            Slider::Pow2 { min, max } => (min as f64, max as f64),
            Slider::Log10 { min, max } => (8.0 * min as f64, 8.0 * max as f64),
        }
    }

    fn position(self, value: f64) -> f64 {
        let (lo, hi) = self.range();
        let p = match self {
            Slider::Pow2 { .. } => value.max(1.0).log2().round(),
            Slider::Log10 { .. } => (8.0 * value.max(1e-30).log10()).round(),
        };
        p.clamp(lo, hi)
    }

    fn value(self, position: f64) -> Value {
        match self {
            Slider::Pow2 { .. } => Value::from(2f64.powf(position).round() as u64),
            Slider::Log10 { .. } => {
                let x = 10f64.powf(position / 8.0);
                // Three significant digits, so the number box reads cleanly.
                let scale = 10f64.powf(x.log10().floor() - 2.0);
                Value::from((x / scale).round() * scale)
            }
        }
    }
}

/// The raw value to store for what was typed: a number when the text is a plain number,
/// the text itself otherwise (so `1e1` stays `1e1` while typing `1e12`, and `abc` is reported).
pub fn typed_value(text: &str) -> Value {
    let t = text.trim();
    if let Ok(n) = t.parse::<i64>() {
        if n.to_string() == t {
            return Value::from(n);
        }
    }
    if let Ok(x) = t.parse::<f64>() {
        if x.is_finite() && serde_json::to_string(&x).is_ok_and(|s| s == t) {
            return Value::from(x);
        }
    }
    Value::String(text.to_string())
}

/// Properties of a number field.
#[derive(Properties, PartialEq, Clone)]
pub struct NumberFieldProps {
    /// Scenario path.
    pub path: AttrValue,
    /// `data-testid` of the input.
    pub testid: AttrValue,
    /// Label.
    pub label: AttrValue,
    /// Unit shown after the input.
    #[prop_or_default]
    pub unit: AttrValue,
    /// Text in the box.
    pub value: AttrValue,
    /// The value the box would take if left empty (shown as placeholder).
    #[prop_or_default]
    pub placeholder: AttrValue,
    /// Slider beside the box.
    #[prop_or_default]
    pub slider: Option<Slider>,
    /// Emptying the box clears the key (back to its default) instead of reporting it.
    #[prop_or_default]
    pub optional: bool,
    /// Errors for this field.
    #[prop_or_default]
    pub errors: Vec<String>,
    /// Warnings that concern this field.
    #[prop_or_default]
    pub notes: Vec<String>,
    /// A short reading of the value in human units ("15.6 T tokens").
    #[prop_or_default]
    pub reading: AttrValue,
    /// Called with each change; the same callback on every render, so an unchanged field is
    /// not re-rendered.
    pub on_set: Callback<Vec<Change>>,
}

/// A number box with its label, unit, slider, errors and warnings.
#[function_component(NumberField)]
pub fn number_field(props: &NumberFieldProps) -> Html {
    let path = props.path.to_string();
    let optional = props.optional;
    let on_input = {
        let on_set = props.on_set.clone();
        let path = path.clone();
        Callback::from(move |e: InputEvent| {
            let Some(input) = e.target_dyn_into::<HtmlInputElement>() else { return };
            let text = input.value();
            let value =
                if optional && text.trim().is_empty() { None } else { Some(typed_value(&text)) };
            on_set.emit(vec![(path.clone(), value)]);
        })
    };
    let slider = props.slider.map(|slider| {
        let (lo, hi) = slider.range();
        let current = props
            .value
            .trim()
            .parse::<f64>()
            .ok()
            .or_else(|| props.placeholder.trim().parse().ok());
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
                value={position.to_string()} oninput={on_slide}
                aria-label={format!("{} slider", props.label)} aria-valuetext={spoken}
                data-testid={format!("{}-slider", props.testid)} />
        }
    });
    let invalid = !props.errors.is_empty();
    html! {
        <div class={classes!("field", invalid.then_some("invalid"))}>
            <label>
                <span class="label">{ props.label.clone() }</span>
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
            <Messages testid={props.testid.clone()} errors={props.errors.clone()} notes={props.notes.clone()} />
        </div>
    }
}

/// Properties of the error and warning lines under a field.
#[derive(Properties, PartialEq)]
pub struct MessagesProps {
    /// The field's `data-testid`.
    pub testid: AttrValue,
    /// Errors.
    pub errors: Vec<String>,
    /// Warnings.
    pub notes: Vec<String>,
}

/// Errors (red) and warnings (amber) under a field.
#[function_component(Messages)]
pub fn messages(props: &MessagesProps) -> Html {
    html! {
        <>
            if !props.errors.is_empty() {
                <div class="error" data-testid={format!("error-{}", props.testid)}>
                    { props.errors.join("; ") }
                </div>
            }
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
    /// Selected value.
    pub value: AttrValue,
    /// Errors for this field.
    #[prop_or_default]
    pub errors: Vec<String>,
    /// Warnings that concern this field.
    #[prop_or_default]
    pub notes: Vec<String>,
    /// A line of detail under the select.
    #[prop_or_default]
    pub detail: AttrValue,
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
        <div class={classes!("field", (!props.errors.is_empty()).then_some("invalid"))}>
            <label>
                <span class="label">{ props.label.clone() }</span>
                <select ref={select} onchange={on_change} data-testid={props.testid.clone()}>
                    { for props.options.iter().map(|(value, text)| html! {
                        <option value={value.clone()} selected={*value == props.value}>{ text.clone() }</option>
                    }) }
                </select>
            </label>
            if !props.detail.is_empty() { <div class="reading">{ props.detail.clone() }</div> }
            <Messages testid={props.testid.clone()} errors={props.errors.clone()} notes={props.notes.clone()} />
        </div>
    }
}

/// Properties of a checkbox field.
#[derive(Properties, PartialEq, Clone)]
pub struct ToggleFieldProps {
    /// Scenario path.
    pub path: AttrValue,
    /// `data-testid`.
    pub testid: AttrValue,
    /// Label.
    pub label: AttrValue,
    /// Checked.
    pub checked: bool,
    /// Warnings that concern this field.
    #[prop_or_default]
    pub notes: Vec<String>,
    /// Called with each change; the same callback on every render, so an unchanged field is
    /// not re-rendered.
    pub on_set: Callback<Vec<Change>>,
}

/// A labelled checkbox.
#[function_component(ToggleField)]
pub fn toggle_field(props: &ToggleFieldProps) -> Html {
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
        <div class="field toggle">
            <label>
                <input type="checkbox" checked={props.checked} onchange={on_change} data-testid={props.testid.clone()} />
                <span class="label">{ props.label.clone() }</span>
            </label>
            <Messages testid={props.testid.clone()} errors={Vec::<String>::new()} notes={props.notes.clone()} />
        </div>
    }
}
