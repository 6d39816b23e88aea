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

/// A job over pools, resolved: the cluster's own pool first, then each further one.
#[derive(Clone, Debug, PartialEq)]
pub struct Pools {
    pub pools: Vec<Inputs>,
    pub across: Across,
    pub between: Between,
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
        let link = match &self.cluster.between_pools {
            Some(Value::Object(map)) => {
                check_keys(&mut r, map, "cluster.between_pools", &[]);
                map.get("gbit_per_s").cloned()
            }
            Some(other) => {
                let problem = Problem::NotObject { got: short(other), or_null: false };
                r.error("cluster.between_pools", problem);
                None
            }
            None => None,
        };
        let gbit = r.positive(&link, field, None);
        let across = r.choice(
            &self.parallelism.across_pools,
            &fields::PARALLELISM_ACROSS_POOLS,
            Across::Data,
        );
        errors.extend(r.into_errors());
        if !errors.is_empty() {
            return Err(errors);
        }
        // The link between pools is as quick to start as the cluster's own network.
        let between = Between {
            bytes_per_s: field.to_si(gbit),
            latency_s: pools[0].cluster.scale_out.latency_s,
        };
        Ok(Some(Pools { pools, across, between }))
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
                s = s.with(&format!("parallelism.{key}"), Some(value));
            }
        }
        s
    }
}
