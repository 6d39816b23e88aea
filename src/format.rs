//! Human units for display: days, percentages, GiB, seconds. Formatting only, no formulas.

/// Bytes as GiB with one decimal.
pub fn gib(bytes: f64) -> String {
    format!("{:.1} GiB", bytes / crate::model::presets::units::GIB)
}

/// Energy in MWh to three significant digits (`9,250 MWh`), the same wherever it is shown.
pub fn mwh(mwh: f64) -> String {
    crate::text::fill("unit.mwh", &[("n", &sig3(mwh))])
}

/// Seconds with three significant digits.
pub fn seconds(s: f64) -> String {
    if s >= 100.0 {
        format!("{s:.0} s")
    } else if s >= 10.0 {
        format!("{s:.1} s")
    } else if s >= 0.01 {
        format!("{s:.2} s")
    } else {
        format!("{:.2} ms", s * 1e3)
    }
}

/// Watts as kW, or MW from a megawatt up, three significant digits.
pub fn power(w: f64) -> String {
    if w >= 1e6 {
        format!("{} MW", crate::numbers::sig3(w / 1e6))
    } else {
        format!("{} kW", crate::numbers::sig3(w / 1e3))
    }
}

/// A large count as the language groups it: with an SI-style suffix (k, M, B, T) in English,
/// in 万 and 亿 in Chinese.
pub fn count(x: f64) -> String {
    if crate::text::lang() == crate::text::Lang::ZhCn {
        return crate::numbers::wan(x);
    }
    // Rounded to three figures first, so 999,950 reads 1.00 M rather than 1000 k.
    let x = if x.is_finite() && x > 0.0 {
        let place = 10f64.powf(x.log10().floor() - 2.0);
        (x / place).round() * place
    } else {
        x
    };
    let (v, suffix) = if x >= 1e12 {
        (x / 1e12, " T")
    } else if x >= 1e9 {
        (x / 1e9, " B")
    } else if x >= 1e6 {
        (x / 1e6, " M")
    } else if x >= 1e3 {
        (x / 1e3, " k")
    } else {
        (x, "")
    };
    let digits = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.digits$}{suffix}")
}

/// A JSON value as the text a form field shows. Whole numbers print without a fraction
/// (`15600000000000`, not `1.56e13` or `15600000000000.0`), so a number being typed digit by
/// digit is shown exactly as typed.
pub fn raw(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Number(n)
            if n.as_f64().is_some_and(|x| x.fract() == 0.0 && x.abs() < 1e16) =>
        {
            format!("{:.0}", n.as_f64().unwrap_or_default())
        }
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => String::new(),
        // A figure a program wrote (a preset taken over: `51.2071770832896`) reads to six
        // digits; what people type has far fewer than ten and shows as typed.
        serde_json::Value::Number(n)
            if n.to_string().trim_start_matches(['-', '0', '.']).len() > 10 =>
        {
            let x = n.as_f64().unwrap_or_default();
            let digits = 6 - 1 - x.abs().log10().floor() as i32;
            format!("{:.*}", digits.max(0) as usize, x)
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string()
        }
        other => other.to_string(),
    }
}

/// A count of micro-batches in words ("1 micro-batch", "16 micro-batches").
pub fn microbatches(n: u32) -> String {
    let key = if n == 1 { "format.micro-batch" } else { "format.micro-batches" };
    fill(key, &[("n", &crate::numbers::format(n as f64))])
}

/// Days to train, one decimal below 100,000; a run that never finishes (infinite days) says so.
pub fn days(d: f64) -> String {
    if d.is_infinite() {
        return t("format.never-finishes").into();
    }
    let d = d.min(1e6);
    let n = if d < 1e5 { format!("{d:.1}") } else { crate::numbers::format(d.round()) };
    fill("format.days", &[("n", &n)])
}

/// A memory phase's name.
pub fn phase(p: crate::model::Phase) -> &'static str {
    t(match p {
        crate::model::Phase::Forward => "phase.forward",
        crate::model::Phase::Backward => "phase.backward",
        crate::model::Phase::Optimizer => "phase.optimizer",
    })
}

pub use crate::text::part;

use crate::model::facility::{Currency, Facility};
pub use crate::numbers::{percent, sig3};
use crate::text::{fill, t};

/// Money as the site counts it (`facility.currency`): US dollars, or yuan at the site's rate.
/// Prices are entered and the model counts in dollars; only what is shown changes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Money {
    pub currency: Currency,
    pub usd_to_cny: f64,
}

impl Money {
    /// US dollars.
    pub const USD: Money = Money { currency: Currency::Usd, usd_to_cny: 1.0 };

    /// The money of a site.
    pub fn of(f: &Facility) -> Money {
        Money { currency: f.currency, usd_to_cny: f.usd_to_cny }
    }

    /// A sum of dollars in this money.
    pub fn amount(self, usd: f64) -> f64 {
        match self.currency {
            Currency::Usd => usd,
            Currency::Cny => usd * self.usd_to_cny,
        }
    }

    /// A sum of dollars as the site shows it: `$1.23 M`, `¥8.85亿`; below one, three digits
    /// (`$0.0806`).
    pub fn show(self, usd: f64) -> String {
        let x = self.amount(usd);
        let n = if x.abs() >= 1.0 { count(x) } else { sig3(x) };
        fill(self.pick("unit.usd", "unit.cny"), &[("n", &n)])
    }

    /// The currency's code in files and keys: `usd` or `cny`.
    pub fn code(self) -> &'static str {
        self.pick("usd", "cny")
    }

    /// `usd` for dollars, `cny` for yuan: the catalogue key or word of each.
    pub fn pick(self, usd: &'static str, cny: &'static str) -> &'static str {
        match self.currency {
            Currency::Usd => usd,
            Currency::Cny => cny,
        }
    }
}
