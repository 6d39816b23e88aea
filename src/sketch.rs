//! The cluster as a drawing: the fabric graph (`fabric`) summed into what a whiteboard shows,
//! the top switch tier as a band, pods (or scalable units) as boxes with their counts, and one
//! rack opened up into nodes, chips and the scale-up domain. 16,384 chips are not 16,384
//! boxes: every group is drawn once with its count, so the drawing reads the same at 64 chips
//! and at 100,000.
//!
//! `sketch` computes the numbers (natively testable: the parts add up to the bill of
//! materials); `svg` draws them with the words it is given, as markup the page shows inline
//! and saves as a file. The drawing is also a way to edit: each `Knob` carries the values its
//! − and + buttons set, so the page only dispatches them.

use std::fmt::Write;

use crate::charts::escape;
use crate::fabric::{self, Vertex};
use crate::model::facility::{self, Share};
use crate::model::{Estimate, Inputs};
use crate::numbers;

/// The words of the drawing, in the page's language.
#[derive(Clone, Copy, Debug)]
pub struct Words {
    /// Switch tiers, from the chips outward.
    pub tiers: [&'static str; 3],
    /// A pod's and a scalable unit's name, then the plural of each ("Pod", "pods").
    pub pod: [&'static str; 2],
    pub unit: [&'static str; 2],
    /// "racks", "nodes", "chips", "scale-up domains", and the heading of the opened rack.
    pub rack: &'static str,
    pub node: &'static str,
    pub chips: &'static str,
    pub domain: &'static str,
    pub one_rack: &'static str,
    /// "switches", "planes", "more", and how many chips each part holds ("{n} chips each").
    pub switches: &'static str,
    pub planes: &'static str,
    pub more: &'static str,
    pub each: &'static str,
    /// The knobs' labels, in `Knob` order.
    pub knobs: [&'static str; 6],
    /// Accessible name of the whole drawing.
    pub title: &'static str,
}

/// What a part of the drawing is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum What {
    /// Switches of a tier (0 leaf, 1 spine, 2 core), every plane.
    Switches(usize),
    /// Pods (3 tiers) or scalable units (2 tiers), or the one group of a single tier.
    Groups,
    Racks,
    Nodes,
    Domains,
    Chips,
}

/// One kind of thing in the cluster, with what all of them draw and cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Part {
    pub what: What,
    /// How many.
    pub count: u64,
    /// Chips in each (0 for switches).
    pub chips_each: u64,
    /// Power of all of them at training load, watts (switches: with their optics' share).
    pub power_w: f64,
    /// Price of all of them, USD.
    pub cost_usd: f64,
}

impl Part {
    fn of(what: What, count: u64, chips_each: u64, share: Share) -> Part {
        Part { what, count, chips_each, power_w: share.power_w, cost_usd: share.cost_usd }
    }
}

/// A setting the drawing edits: its scenario path, value, and the values − and + set
/// (`None` where the step would leave the field's range or break the fabric).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Knob {
    pub path: &'static str,
    pub value: f64,
    pub down: Option<f64>,
    pub up: Option<f64>,
}

/// A group box: a pod or unit, or several identical ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Group {
    /// Identical groups this box stands for.
    pub copies: u64,
    pub nodes: u64,
    pub chips: u64,
    /// Switches inside one group, one plane: leaves, and spines under three tiers.
    pub leaves: u64,
    pub spines: u64,
}

/// The drawing's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Sketch {
    pub tiers: u32,
    pub planes: u32,
    pub oversubscription: f64,
    pub chips_per_node: u32,
    pub nodes_per_rack: u32,
    pub domain: u32,
    /// Groups under the top tier, identical ones merged, in order.
    pub groups: Vec<Group>,
    /// Every kind of part, switches from the top tier down, then groups to chips.
    pub parts: Vec<Part>,
    /// In `Words::knobs` order: chips per node, nodes per rack, scale-up domain, tiers,
    /// planes, oversubscription.
    pub knobs: [Knob; 6],
    /// Site power and capex of the whole cluster.
    pub facility_w: f64,
    pub capex_usd: f64,
}

/// The numbers of the drawing of `inputs`' cluster, from its fabric graph; `None` when the
/// fabric cannot be built (the page then shows the field's error instead).
pub fn sketch(inputs: &Inputs, estimate: &Estimate) -> Option<Sketch> {
    let chips = inputs.cluster.n_chips;
    let spec = fabric::spec_of(inputs, chips);
    let built = fabric::build(&spec).ok()?;
    let plane = &built.plane;
    let bom = &built.bom;

    // Each group's nodes and switches, walking the graph up from the nodes.
    let mut raw: Vec<Group> = Vec::new();
    let mut group_of_unit: Vec<usize> = Vec::new();
    let three = bom.tiers == 3;
    for (i, v) in fabric::vertices(&built) {
        let Vertex::Nodes { count, .. } = *v else { continue };
        let leaves: Vec<_> = plane.neighbors(i).collect();
        let leaf_count: u64 = leaves
            .iter()
            .map(|&l| match plane[l] {
                Vertex::Leaves { count, .. } => count as u64,
                _ => 0,
            })
            .sum();
        let pod = if three {
            leaves.iter().flat_map(|&l| plane.neighbors(l)).find_map(|s| match plane[s] {
                Vertex::Spines { pod, count } => Some((pod as usize, count as u64)),
                _ => None,
            })
        } else {
            None
        };
        let (slot, spines) = match pod {
            Some((p, spines)) => (p, spines),
            None if bom.tiers == 2 => (group_of_unit.len(), 0),
            None => (0, 0),
        };
        group_of_unit.push(slot);
        if raw.len() <= slot {
            raw.resize(slot + 1, Group { copies: 1, nodes: 0, chips: 0, leaves: 0, spines });
        }
        let g = &mut raw[slot];
        g.nodes += count as u64;
        g.leaves += leaf_count;
    }
    let per_node = spec.chips_per_node.max(1) as u64;
    let mut left = chips as u64;
    for g in &mut raw {
        g.chips = (g.nodes * per_node).min(left);
        left -= g.chips;
    }
    let mut groups: Vec<Group> = Vec::new();
    for g in raw {
        match groups.last_mut() {
            Some(last) if Group { copies: last.copies, ..g } == *last => last.copies += 1,
            _ => groups.push(g),
        }
    }

    let f = &estimate.facility;
    let split = facility::split(&inputs.plant, f);
    let tier_switches = [bom.leaf, bom.spine, bom.core];
    let mut parts: Vec<Part> = (0..bom.tiers.min(3) as usize)
        .rev()
        .map(|t| Part::of(What::Switches(t), tier_switches[t], 0, split.tiers[t]))
        .collect();
    let group_count: u64 = groups.iter().map(|g| g.copies).sum();
    let domain = inputs.cluster.scale_up.domain_size.max(1);
    let racks = f.cooling.racks;
    let chips64 = chips as u64;
    let each = |n: u64| if n > 0 { chips64.div_ceil(n) } else { 0 };
    parts.extend([
        Part::of(What::Groups, group_count, each(group_count), split.all),
        Part::of(What::Racks, racks, each(racks), split.racks),
        Part::of(What::Nodes, bom.nodes, per_node, split.nodes),
        Part::of(What::Domains, chips64.div_ceil(domain as u64), domain as u64, split.chips),
        Part::of(What::Chips, chips64, 1, split.chips),
    ]);

    let builds = |tiers: Option<u32>| fabric::build(&fabric::Spec { tiers, ..spec }).is_ok();
    let cpn = spec.chips_per_node;
    let o = inputs.plant.fabric.oversubscription;
    let step = |v: f64, lo: f64, hi: f64, d: f64| {
        (Some(v - d).filter(|x| *x >= lo), Some(v + d).filter(|x| *x <= hi))
    };
    let (rack_down, rack_up) = step(spec.nodes_per_rack as f64, 1.0, 1000.0, 1.0);
    let (planes_down, planes_up) = step(bom.planes as f64, 1.0, 16.0, 1.0);
    let (o_down, o_up) = step(o.round(), 1.0, 64.0, 1.0);
    let tiers = bom.tiers;
    let knobs = [
        Knob {
            path: "cluster.chips_per_node",
            value: cpn as f64,
            down: (cpn > 1).then(|| (cpn / 2).max(1) as f64),
            up: (cpn < chips).then(|| (cpn * 2).min(chips) as f64),
        },
        Knob {
            path: "cluster.system.nodes_per_rack",
            value: spec.nodes_per_rack as f64,
            down: rack_down,
            up: rack_up,
        },
        Knob {
            path: "cluster.scale_up_domain",
            value: domain as f64,
            down: (domain > 1).then(|| (domain / 2).max(1) as f64),
            up: (domain < chips).then(|| (domain * 2).min(chips) as f64),
        },
        Knob {
            path: "cluster.fabric.tiers",
            value: tiers as f64,
            down: (tiers > 1 && builds(Some(tiers - 1))).then(|| (tiers - 1) as f64),
            up: (tiers < 3 && builds(Some(tiers + 1))).then(|| (tiers + 1) as f64),
        },
        Knob {
            path: "cluster.fabric.planes",
            value: bom.planes as f64,
            down: planes_down,
            up: planes_up,
        },
        Knob {
            path: "cluster.fabric.oversubscription",
            value: o,
            down: if o > 1.0 { o_down.or(Some(1.0)) } else { None },
            up: if tiers > 1 { o_up } else { None },
        },
    ];
    Some(Sketch {
        tiers,
        planes: bom.planes,
        oversubscription: o,
        chips_per_node: cpn,
        nodes_per_rack: spec.nodes_per_rack,
        domain,
        groups,
        parts,
        knobs,
        facility_w: f.power.facility_w,
        capex_usd: f.cost.capex_usd,
    })
}

/// Width of the drawing in its own units (the page scales it to its column).
pub const WIDTH: u32 = 760;

/// Colours of the two schemes: background, box fill, lines, text, muted text, accent.
const LIGHT: [&str; 6] = ["#ffffff", "#f3f5f8", "#8a94a6", "#1c2330", "#5b6577", "#2f6fdb"];
const DARK: [&str; 6] = ["#16191f", "#222834", "#6f7a8e", "#e6e9ef", "#a3acbb", "#6ea2ff"];

/// A count as people read it (`16,384`, `1.5M`).
fn n(x: u64) -> String {
    numbers::format(x as f64)
}

/// What hovering a part says: how many, chips each, power and price of all of them.
pub fn info(part: &Part, name: &str, words: &Words) -> String {
    let mut s = format!("{} {name}", n(part.count));
    if part.chips_each > 1 {
        let _ = write!(s, " · {}", words.each.replace("{n}", &n(part.chips_each)));
    }
    let _ = write!(s, " · {} kW", numbers::sig3(part.power_w / 1e3));
    if part.cost_usd > 0.0 {
        let _ = write!(s, " · ${}", numbers::sig3(part.cost_usd));
    }
    s
}

/// The name of a part in the drawing's words.
fn name(what: What, tiers: u32, words: &Words) -> String {
    match what {
        What::Switches(t) => format!("{} {}", words.tiers[t], words.switches),
        What::Groups if tiers == 3 => words.pod[1].into(),
        What::Groups => words.unit[1].into(),
        What::Racks => words.rack.into(),
        What::Nodes => words.node.into(),
        What::Domains => words.domain.into(),
        What::Chips => words.chips.into(),
    }
}

/// Markup being drawn.
struct Pen {
    out: String,
}

impl Pen {
    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, class: &str) {
        let _ = write!(
            self.out,
            r#"<rect class="{class}" x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="3"/>"#
        );
    }
    fn text(&mut self, x: f64, y: f64, class: &str, text: &str) {
        let _ = write!(
            self.out,
            r#"<text class="{class}" x="{x:.1}" y="{y:.1}">{}</text>"#,
            escape(text)
        );
    }
    fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64) {
        let _ = write!(
            self.out,
            r#"<line class="sk-l" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}"/>"#
        );
    }
    /// Opens a part that tells its counts on hover and focus.
    fn part(&mut self, info: &str) {
        let info = escape(info);
        let _ = write!(
            self.out,
            r#"<g class="sk-part" tabindex="0" data-info="{info}"><title>{info}</title>"#
        );
    }
    fn end(&mut self) {
        self.out.push_str("</g>");
    }
    /// A row of at most `max` small boxes standing for `count` things, then the count.
    fn glyphs(&mut self, x: f64, y: f64, count: u64, max: u64, size: f64, class: &str) -> f64 {
        let drawn = count.min(max);
        for i in 0..drawn {
            self.rect(x + i as f64 * (size + 2.0), y, size, size, class);
        }
        x + drawn as f64 * (size + 2.0)
    }
    /// A knob: its label and value, with − and + buttons that set the knob's neighbours.
    fn knob(&mut self, x: f64, y: f64, knob: &Knob, label: &str, value: &str) {
        self.text(x, y + 12.0, "sk-m", label);
        let bx = x + 118.0;
        for (dx, sign, to) in [(0.0, "−", knob.down), (44.0, "+", knob.up)] {
            let (cx, aria) = (bx + dx, format!("{label}: {sign}"));
            match to {
                Some(v) => {
                    let _ = write!(
                        self.out,
                        r#"<g class="sk-btn" role="button" tabindex="0" aria-label="{}" data-edit="{}" data-to="{}">"#,
                        escape(&aria),
                        knob.path,
                        v
                    );
                }
                None => {
                    let _ = write!(self.out, r#"<g class="sk-btn sk-off" aria-disabled="true">"#);
                }
            }
            self.rect(cx, y, 16.0, 16.0, "sk-k");
            self.text(cx + 4.5, y + 12.0, "sk-t", sign);
            self.end();
        }
        self.text(bx + 20.0, y + 12.0, "sk-v", value);
    }
}

/// The drawing as an SVG document: `dark` picks the colour scheme.
pub fn svg(s: &Sketch, words: &Words, dark: bool) -> String {
    let c = if dark { DARK } else { LIGHT };
    let w = WIDTH as f64;
    let h = 380.0;
    let mut pen = Pen { out: String::with_capacity(8192) };
    let _ = write!(
        pen.out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="group" aria-label="{}" font-family="system-ui, sans-serif" font-size="12"><style>.sk-bg{{fill:{}}}.sk-box{{fill:{};stroke:{}}}.sk-sw{{fill:{}}}.sk-chip{{fill:{}}}.sk-l{{stroke:{};stroke-width:1}}.sk-t,.sk-v{{fill:{}}}.sk-v{{font-weight:600}}.sk-m{{fill:{}}}.sk-k{{fill:{};stroke:{}}}.sk-off{{opacity:.35}}.sk-btn{{cursor:pointer}}.sk-part:focus,.sk-btn:focus{{outline:2px solid {}}}</style><rect class="sk-bg" width="{w}" height="{h}"/>"#,
        escape(words.title),
        c[0],
        c[1],
        c[2],
        c[5],
        c[5],
        c[2],
        c[3],
        c[4],
        c[1],
        c[2],
        c[5]
    );
    let part = |what: What| s.parts.iter().find(|p| p.what == what).copied();
    let label = |what: What| name(what, s.tiers, words);
    let planes =
        if s.planes > 1 { format!(" × {} {}", s.planes, words.planes) } else { String::new() };

    // The top tier: a band across the drawing.
    let top = match s.tiers {
        3 => What::Switches(2),
        2 => What::Switches(1),
        _ => What::Switches(0),
    };
    let inner = s.tiers == 3;
    if let Some(p) = part(top) {
        pen.part(&info(&p, &label(top), words));
        pen.rect(10.0, 10.0, w - 20.0, 34.0, "sk-box");
        let per_plane = p.count / s.planes.max(1) as u64;
        let end = pen.glyphs(20.0, 20.0, per_plane, 24, 12.0, "sk-sw");
        pen.text(end + 8.0, 31.0, "sk-t", &format!("{} {}{planes}", n(per_plane), label(top)));
        pen.end();
    }
    // Knobs of the network, right of the band's text.
    let k = &s.knobs;

    // Groups: all of them up to four; beyond, the first two, "… N more" and the last.
    let total: u64 = s.groups.iter().map(|g| g.copies).sum();
    let group_at = |i: u64| {
        let mut first = 0;
        s.groups.iter().find(|g| {
            first += g.copies;
            i < first
        })
    };
    let picks: Vec<u64> = if total <= 4 { (0..total).collect() } else { vec![0, 1, total - 1] };
    let ellipsis = total > 4;
    let shown: Vec<(Group, u64)> =
        picks.iter().filter_map(|&i| group_at(i).map(|g| (*g, i))).collect();
    let slots = shown.len() + ellipsis as usize;
    let gap = 12.0;
    let bw = ((w - 20.0 - gap * (slots as f64 - 1.0)) / slots as f64).min(260.0);
    let gy = 118.0;
    let gh = 92.0;
    let [group_name, groups_name] = if inner { words.pod } else { words.unit };
    let mut x = 10.0;
    for (slot, (g, first)) in shown.iter().enumerate() {
        if ellipsis && slot == 2 {
            pen.rect(x, gy, bw, gh, "sk-box");
            pen.text(x + 10.0, gy + 50.0, "sk-m", &format!("… {} {}", n(total - 3), words.more));
            pen.line(x + bw / 2.0, 44.0, x + bw / 2.0, gy);
            x += bw + gap;
        }
        pen.line(x + bw / 2.0, 44.0, x + bw / 2.0, gy);
        let summary = format!("{} {} · {} {}", n(g.nodes), words.node, n(g.chips), words.chips);
        pen.part(&format!("{group_name} {} · {summary}", first + 1));
        pen.rect(x, gy, bw, gh, "sk-box");
        pen.text(x + 8.0, gy + 16.0, "sk-v", &format!("{group_name} {}", first + 1));
        let mut y = gy + 24.0;
        if inner {
            let end = pen.glyphs(x + 8.0, y, g.spines, ((bw - 90.0) / 14.0) as u64, 10.0, "sk-sw");
            pen.text(end + 4.0, y + 9.0, "sk-m", &format!("{} {}", n(g.spines), words.tiers[1]));
            y += 16.0;
        }
        let end = pen.glyphs(x + 8.0, y, g.leaves, ((bw - 90.0) / 14.0) as u64, 10.0, "sk-sw");
        pen.text(end + 4.0, y + 9.0, "sk-m", &format!("{} {}", n(g.leaves), words.tiers[0]));
        y += 16.0;
        let racks = g.nodes.div_ceil(s.nodes_per_rack.max(1) as u64);
        let end = pen.glyphs(x + 8.0, y, racks, ((bw - 90.0) / 10.0) as u64, 7.0, "sk-chip");
        pen.text(end + 4.0, y + 8.0, "sk-m", &format!("{} {}", n(racks), words.rack));
        pen.text(x + 8.0, gy + gh - 8.0, "sk-t", &summary);
        pen.end();
        x += bw + gap;
    }
    if total > 1 {
        pen.text(10.0, gy + gh + 16.0, "sk-m", &format!("{} {groups_name}", n(total)));
    }

    // One rack opened: its nodes, their chips, and the scale-up domain.
    let ry = 252.0;
    let rows = s.nodes_per_rack.min(6) as u64;
    let per_row = s.chips_per_node.min(18) as u64;
    if let Some(p) = part(What::Racks) {
        pen.part(&info(&p, &label(What::Racks), words));
        pen.rect(10.0, ry, 200.0, 10.0 + rows as f64 * 12.0, "sk-box");
        for r in 0..rows {
            pen.glyphs(16.0, ry + 6.0 + r as f64 * 12.0, per_row, 18, 8.0, "sk-chip");
        }
        pen.end();
    }
    pen.text(10.0, ry - 6.0, "sk-v", words.one_rack);
    if s.nodes_per_rack as u64 > rows {
        pen.text(16.0, ry + 22.0 + rows as f64 * 12.0, "sk-m", "…");
    }
    // The domain's bracket: inside a node, or over several.
    let nodes_in_domain =
        (s.domain as u64).div_ceil(s.chips_per_node.max(1) as u64).min(rows).max(1);
    let bracket_h = nodes_in_domain as f64 * 12.0 - 2.0;
    if let Some(p) = part(What::Domains) {
        pen.part(&info(&p, &label(What::Domains), words));
        pen.rect(214.0, ry + 5.0, 4.0, bracket_h, "sk-sw");
        pen.end();
    }
    // The knobs: the rack's, then the network's.
    let oversubscription = format!("{}:1", numbers::format(s.oversubscription));
    let values = [
        n(s.chips_per_node as u64),
        n(s.nodes_per_rack as u64),
        n(s.domain as u64),
        s.tiers.to_string(),
        s.planes.to_string(),
        oversubscription,
    ];
    let shown = if s.tiers > 1 { 6 } else { 5 };
    for (i, (knob, value)) in k.iter().zip(&values).take(shown).enumerate() {
        pen.knob(240.0, ry - 12.0 + i as f64 * 20.0, knob, words.knobs[i], value);
    }

    // The totals, each a part that tells its power and cost.
    let mut ty = 238.0;
    for what in [What::Chips, What::Nodes, What::Racks, What::Domains] {
        if let Some(p) = part(what) {
            pen.part(&info(&p, &label(what), words));
            pen.text(560.0, ty + 12.0, "sk-t", &format!("{} {}", n(p.count), label(what)));
            pen.end();
            ty += 18.0;
        }
    }
    for t in (0..s.tiers.min(3) as usize).rev() {
        if let Some(p) = part(What::Switches(t)) {
            if !inner || t != 2 || p.count > 0 {
                pen.part(&info(&p, &label(What::Switches(t)), words));
                pen.text(
                    560.0,
                    ty + 12.0,
                    "sk-m",
                    &format!("{} {}", n(p.count), label(What::Switches(t))),
                );
                pen.end();
                ty += 16.0;
            }
        }
    }
    let _ = write!(
        pen.out,
        r#"<text class="sk-v" x="560" y="{:.1}">{} MW · ${}</text>"#,
        ty + 14.0,
        numbers::sig3(s.facility_w / 1e6),
        numbers::sig3(s.capex_usd)
    );
    pen.out.push_str("</svg>");
    pen.out
}
