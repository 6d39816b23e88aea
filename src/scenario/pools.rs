//! `Scenario::pools`: the cluster's further pools (`cluster.pools`), each resolved as a whole
//! cluster of its own beside the one the cluster describes, with the link between them
//! (`cluster.between_pools`) and how one job spans them (`parallelism.across_pools`), for
//! `model::pools`.
//!
//! A pool is an object of cluster keys (`chip`, `chips`, `system`, fabrics, ...) and an optional
//! `parallelism` object of its own plan's keys; the rest (model, training, site) is the
//! scenario's. Its data-parallel degree follows its chips. Errors are named by the pool's place
//! (`cluster.pools.0.chip`).

use serde_json::{Map, Value};

use super::fields;
use super::resolve::{check_keys, short, Reader};
use super::{ClusterSpec, InputError, Problem, Scenario};
use crate::model::pools::{Across, Between};
use crate::model::Inputs;

/// Pools a scenario may have, the cluster's own among them, and sites: as many as the page
/// draws and the fleet's searches cover in well under a second.
pub const MAX_POOLS: usize = 64;
pub const MAX_SITES: usize = 16;

/// A job over pools, resolved: the cluster's own pool first, then each further one.
#[derive(Clone, Debug, PartialEq)]
pub struct Pools {
    pub pools: Vec<Inputs>,
    pub across: Across,
    pub between: Between,
    /// The link's line rate as stated, bytes/s, and whether RDMA works over it (`between` is
    /// what its transport makes of it).
    pub line_bytes_per_s: f64,
    pub rdma: bool,
    /// Each pool's share as given (`parallelism.pool_shares`), or `None`: by speed.
    pub shares: Option<Vec<f64>>,
}

impl Pools {
    /// The one job over every pool, split as given or by speed.
    pub fn job(&self) -> crate::model::pools::PoolsEstimate {
        let solo: Vec<_> = self.pools.iter().map(crate::model::estimate).collect();
        crate::model::pools::across_with(
            &self.pools,
            &solo,
            self.across,
            self.between,
            self.shares.as_deref(),
        )
    }
}

impl Scenario {
    /// The scenario's pools, or `None` when its cluster is one pool; every bad field at once.
    pub fn pools(&self) -> Result<Option<Pools>, Vec<InputError>> {
        let Some(raw) = &self.cluster.pools else { return Ok(None) };
        let own = self.resolve()?;
        let mut r = Reader::default();
        let mut errors = Vec::new();
        let mut pools = vec![own];
        match raw {
            Value::Array(items) if items.len() + 1 > MAX_POOLS => {
                r.error(
                    "cluster.pools",
                    Problem::TooMany { most: MAX_POOLS - 1, got: items.len() },
                );
            }
            Value::Array(items) => {
                for (place, item) in items.iter().enumerate() {
                    let at = format!("cluster.pools.{place}");
                    match item {
                        Value::Object(map)
                            if map.get("parallelism").is_some_and(|p| !p.is_object()) =>
                        {
                            let got = short(&map["parallelism"]);
                            r.error(
                                &format!("{at}.parallelism"),
                                Problem::NotObject { got, or_null: false },
                            );
                        }
                        Value::Object(map) => match self.pool(map).resolve() {
                            Ok(inputs) => pools.push(inputs),
                            Err(found) => errors.extend(found.into_iter().map(|mut e| {
                                let inner = e.field.strip_prefix("cluster.").unwrap_or(&e.field);
                                e.field = format!("{at}.{inner}");
                                e
                            })),
                        },
                        other => {
                            let problem = Problem::NotObject { got: short(other), or_null: false };
                            r.error(&at, problem);
                        }
                    }
                }
            }
            other => r.error("cluster.pools", Problem::NotList { got: short(other) }),
        }
        let field = &fields::CLUSTER_BETWEEN_POOLS_GBIT_PER_S;
        let (link, rdma) = match &self.cluster.between_pools {
            Some(Value::Object(map)) => {
                check_keys(&mut r, map, "cluster.between_pools", &[]);
                (map.get("gbit_per_s").cloned(), map.get("rdma").cloned())
            }
            Some(other) => {
                let problem = Problem::NotObject { got: short(other), or_null: false };
                r.error("cluster.between_pools", problem);
                (None, None)
            }
            None => (None, None),
        };
        // Pools in one place are joined by their own fabric: by default a link as wide as the
        // smaller pool's network ports together, with RDMA where every pool's chips are of one
        // vendor (their NICs speak one transport).
        let gbit = link
            .as_ref()
            .filter(|v| !v.is_null())
            .map(|v| r.positive(&Some(v.clone()), field, None));
        let vendors: Vec<Option<&str>> = std::iter::once(self.chip_preset().map(|c| c.vendor))
            .chain(raw.as_array().into_iter().flatten().map(|item| {
                let id = item.get("chip").and_then(Value::as_str)?;
                crate::model::presets::chip(id).map(|c| c.vendor)
            }))
            .collect();
        let one_vendor = vendors.iter().all(|v| v.is_some() && *v == vendors[0]);
        let rdma = r.flag(&rdma, &fields::CLUSTER_BETWEEN_POOLS_RDMA, one_vendor);
        let shares = self.pool_shares(&mut r, 1 + raw.as_array().map_or(0, Vec::len));
        let across = r.choice(
            &self.parallelism.across_pools,
            &fields::PARALLELISM_ACROSS_POOLS,
            Across::Data,
        );
        errors.extend(r.into_errors());
        if !errors.is_empty() {
            return Err(errors);
        }
        // Beside the transport's own start-up, the link is as quick to start as the cluster's
        // network.
        let line_bytes_per_s = match gbit {
            Some(gbit) => field.to_si(gbit),
            None => pools
                .iter()
                .map(|p| p.cluster.n_chips as f64 * p.cluster.scale_out.bytes_per_s)
                .fold(f64::INFINITY, f64::min),
        };
        let between = Between::stated(line_bytes_per_s, rdma, pools[0].cluster.scale_out.latency_s);
        Ok(Some(Pools { pools, across, between, line_bytes_per_s, rdma, shares }))
    }

    /// `parallelism.pool_shares`, one per pool (`pools` of them), or `None` when absent.
    fn pool_shares(&self, r: &mut Reader, pools: usize) -> Option<Vec<f64>> {
        let field = &fields::PARALLELISM_POOL_SHARES;
        let items = match self.parallelism.pool_shares.as_ref()? {
            Value::Array(items) => items,
            other => {
                r.error(field.path, Problem::NotList { got: short(other) });
                return None;
            }
        };
        if items.len() != pools {
            r.error(field.path, Problem::OnePerPool { pools, got: items.len() });
            return None;
        }
        let since = r.count_errors();
        let shares: Vec<f64> = items.iter().map(|v| r.non_negative(v, field)).collect();
        if shares.iter().sum::<f64>() <= 0.0 && r.count_errors() == since {
            r.error(field.path, Problem::NotPositive);
        }
        Some(shares)
    }

    /// The scenario of one further pool: its cluster keys in place of the cluster's, its plan's
    /// keys over the scenario's, its data-parallel degree following its chips.
    fn pool(&self, map: &Map<String, Value>) -> Scenario {
        let mut cluster = map.clone();
        let plan = cluster.remove("parallelism");
        let mut s = self.clone();
        s.cluster = ClusterSpec::from_map(cluster);
        s.parallelism.dp = None;
        if let Some(Value::Object(plan)) = plan {
            for (key, value) in plan {
                s = s.with_at(&format!("parallelism.{key}"), Some(value));
            }
        }
        s
    }
}

/// A job over sites, resolved: each site's pools with its prices and its wide-area link, and
/// how the sites synchronise.
#[derive(Clone, Debug, PartialEq)]
pub struct Sites {
    /// Each site's name and its `model::sites::site`.
    pub sites: Vec<(String, crate::model::sites::Site)>,
    pub how: crate::model::sites::AcrossSites,
    /// Tokens DiLoCo needs for synchronous training's quality, as a multiple of the budget
    /// (`parallelism.diloco_token_factor`); synchronous training needs the budget itself.
    pub token_factor: f64,
}

/// One site as read, before it is built.
struct SitePlan {
    name: String,
    /// Its pools' inputs, with the site's prices.
    pools: Vec<Inputs>,
    /// The shares given to its pools, when the scenario gives them.
    given: Option<Vec<f64>>,
    /// Its wide-area link: bytes per second and latency in seconds.
    wan: (f64, f64),
}

/// The sites as read, before each is built; how the sites synchronise and the pools span each.
struct SitePlans {
    sites: Vec<SitePlan>,
    how: crate::model::sites::AcrossSites,
    token_factor: f64,
    across: Across,
    between: Between,
}

impl Scenario {
    /// The scenario's sites, or `None` when it has none; every pool stands in the site it
    /// names (`site`, default the first), with that site's `facility` keys over the
    /// scenario's. Every bad field at once.
    pub fn sites(&self) -> Result<Option<Sites>, Vec<InputError>> {
        let Some(plans) = self.site_plans()? else { return Ok(None) };
        let SitePlans { sites: plans, how, token_factor, across, between } = plans;
        let build = |plan: &SitePlan, pools: &[Inputs]| {
            let (bytes_per_s, latency_s) = plan.wan;
            let given = plan.given.as_deref();
            crate::model::sites::site(pools, across, between, given, bytes_per_s, latency_s)
        };
        // Each site alone on the whole batch, then, beside the others, on its share of it by
        // that speed: the sites of one job train the global batch between them.
        let alone: Vec<_> = plans.iter().map(|plan| build(plan, &plan.pools)).collect();
        let speed: f64 = alone.iter().map(|s| s.job.tokens_per_s).sum();
        let several = plans.len() > 1;
        // A synchronous step reduces gradients over every site's replicas: each site's own
        // reduction is one with all of them (`Cluster::job_chips`); DiLoCo's inner steps
        // reduce within the site.
        let job_chips = match how {
            crate::model::sites::AcrossSites::Sync => plans
                .iter()
                .flat_map(|plan| plan.pools.iter().map(|p| p.cluster.n_chips))
                .fold(0, u32::saturating_add),
            crate::model::sites::AcrossSites::Diloco { .. } => 0,
        };
        let sites = plans
            .iter()
            .zip(alone)
            .map(|(plan, alone)| {
                let share = if speed > 0.0 { alone.job.tokens_per_s / speed } else { 0.0 };
                let site = if several && share > 0.0 {
                    let shared: Vec<Inputs> = plan
                        .pools
                        .iter()
                        .map(|p| {
                            let mut p = *p;
                            let batch = (p.training.global_batch as f64 * share).round();
                            p.training.global_batch = (batch as u32).max(1);
                            p.cluster.job_chips = job_chips;
                            p
                        })
                        .collect();
                    let mut site = build(plan, &shared);
                    site.alone_tokens_per_s = alone.job.tokens_per_s;
                    site
                } else {
                    alone
                };
                (plan.name.clone(), site)
            })
            .collect();
        Ok(Some(Sites { sites, how, token_factor }))
    }

    /// Whether the scenario's sites resolve, every bad field at once, without building them:
    /// what judging a scenario needs, with none of the model of a job over pools.
    pub fn check_sites(&self) -> Result<(), Vec<InputError>> {
        self.site_plans().map(|_| ())
    }

    /// The scenario's sites read and their pools resolved, each site's with its prices.
    fn site_plans(&self) -> Result<Option<SitePlans>, Vec<InputError>> {
        use crate::model::sites::{AcrossSites, Exchange};
        let Some(raw) = &self.sites else { return Ok(None) };
        let mut r = Reader::default();
        let items = match raw {
            Value::Array(items) if items.len() > MAX_SITES => {
                r.error("sites", Problem::TooMany { most: MAX_SITES, got: items.len() });
                return Err(r.into_errors());
            }
            Value::Array(items) if !items.is_empty() => items.as_slice(),
            other => {
                r.error("sites", Problem::NotList { got: short(other) });
                return Err(r.into_errors());
            }
        };
        // Each site's name, link and prices.
        let mut specs = Vec::new();
        for (place, item) in items.iter().enumerate() {
            let since = r.count_errors();
            let Value::Object(map) = item else {
                let problem = Problem::NotObject { got: short(item), or_null: false };
                r.error(&format!("sites.{place}"), problem);
                continue;
            };
            check_keys(&mut r, map, "sites", &["name", "facility"]);
            let name = map.get("name").and_then(|v| r.text(v, "sites.name")).unwrap_or_default();
            let gbit = r.positive(
                &map.get("wan_gbit_per_s").cloned(),
                &fields::SITES_WAN_GBIT_PER_S,
                None,
            );
            let latency_field = &fields::SITES_WAN_LATENCY_MS;
            let latency = match map.get("wan_latency_ms") {
                None => latency_field.fixed(),
                Some(v) => r.non_negative(v, latency_field),
            };
            let facility = match map.get("facility") {
                None => Map::new(),
                Some(Value::Object(f)) => f.clone(),
                Some(other) => {
                    let problem = Problem::NotObject { got: short(other), or_null: false };
                    r.error("sites.facility", problem);
                    Map::new()
                }
            };
            // Named by place: `sites.1.wan_gbit_per_s`.
            r.prefix_since(since, "sites", &format!("sites.{place}"));
            let wan = (fields::SITES_WAN_GBIT_PER_S.to_si(gbit), latency_field.to_si(latency));
            specs.push((name.to_string(), wan, facility));
        }
        let exchange = r.choice(
            &self.parallelism.across_sites,
            &fields::PARALLELISM_ACROSS_SITES,
            Exchange::Sync,
        );
        let inner = &fields::PARALLELISM_DILOCO_INNER_STEPS;
        let inner_steps =
            r.count(&self.parallelism.diloco_inner_steps, inner, Some(inner.fixed() as u32));
        let streaming = r.flag(
            &self.parallelism.diloco_streaming,
            &fields::PARALLELISM_DILOCO_STREAMING,
            false,
        );
        let factor = &fields::PARALLELISM_DILOCO_TOKEN_FACTOR;
        let token_factor = r.positive(&self.parallelism.diloco_token_factor, factor, Some(1.0));
        let how = match exchange {
            Exchange::Sync => AcrossSites::Sync,
            Exchange::Diloco => AcrossSites::Diloco { inner_steps, streaming },
        };
        let mut errors = r.into_errors();
        // Each site's pools: its name's, with its prices.
        let site_of =
            |raw: &Option<Value>| raw.as_ref().and_then(Value::as_str).map(str::to_string);
        let mut placed: Vec<(Option<String>, String, Scenario)> =
            vec![(site_of(&self.cluster.site), "cluster.site".into(), self.clone())];
        if let Some(Value::Array(pools)) = &self.cluster.pools {
            for (place, pool) in pools.iter().enumerate() {
                if let Value::Object(map) = pool {
                    let mut own = map.clone();
                    let name = own.remove("site").and_then(|v| v.as_str().map(str::to_string));
                    placed.push((name, format!("cluster.pools.{place}.site"), self.pool(&own)));
                }
            }
        }
        for (at, field, _) in &placed {
            if let Some(name) = at {
                if !specs.iter().any(|(n, ..)| n == name) {
                    let known =
                        super::resolve::nearest(specs.iter().map(|(n, ..)| n.as_str()), name);
                    errors.push(InputError::new(
                        field,
                        Problem::Unknown { catalog: super::Catalog::Site, id: name.clone(), known },
                    ));
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let (across, between, shares) = match self.pools()? {
            Some(p) => (p.across, p.between, p.shares),
            None => (Across::Data, Between { bytes_per_s: f64::INFINITY, latency_s: 0.0 }, None),
        };
        let mut sites = Vec::new();
        for (place, (name, wan, facility)) in specs.iter().enumerate() {
            let mut pools = Vec::new();
            // The shares given to this site's pools, which the site scales to sum to 1.
            let mut given = Vec::new();
            for (index, (at, _, scenario)) in placed.iter().enumerate() {
                let first = specs.first().map_or("", |(n, ..)| n.as_str());
                let here = at.as_deref().unwrap_or(first) == name;
                if !here {
                    continue;
                }
                let mut s = scenario.clone();
                s.cluster.pools = None;
                for (key, value) in facility {
                    s = s.with_at(&format!("facility.{key}"), Some(value.clone()));
                }
                // Only the site's prices can go wrong here; the pool itself resolved above.
                given.extend(shares.as_ref().and_then(|all| all.get(index)));
                match s.resolve() {
                    Ok(inputs) => pools.push(inputs),
                    Err(found) => errors.extend(found.into_iter().map(|mut e| {
                        e.field = format!("sites.{place}.{}", e.field);
                        e
                    })),
                }
            }
            if !pools.is_empty() {
                let given = shares.is_some().then_some(given);
                sites.push(SitePlan { name: name.clone(), pools, given, wan: *wan });
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Some(SitePlans { sites, how, token_factor, across, between }))
    }
}

impl Sites {
    /// The one job over every site, for the workload of `base` (the cluster's own inputs).
    pub fn job(&self, base: &Inputs) -> crate::model::sites::SitesEstimate {
        self.job_for(&crate::model::sites::Work::of(base))
    }

    /// The one job over every site for `work`, its tokens times the job's factor.
    pub fn job_for(&self, work: &crate::model::sites::Work) -> crate::model::sites::SitesEstimate {
        let sites: Vec<_> = self.sites.iter().map(|(_, site)| site.clone()).collect();
        let mut work = *work;
        work.tokens *= self.tokens_factor();
        crate::model::sites::across_sites(&sites, self.how, &work)
    }

    /// The multiple of the token budget the job trains on: the factor given under DiLoCo, 1
    /// when synchronous.
    pub fn tokens_factor(&self) -> f64 {
        match self.how {
            crate::model::sites::AcrossSites::Sync => 1.0,
            crate::model::sites::AcrossSites::Diloco { .. } => self.token_factor,
        }
    }

    /// The sites' names, in order.
    pub fn names(&self) -> Vec<String> {
        self.sites.iter().map(|(name, _)| name.clone()).collect()
    }
}
