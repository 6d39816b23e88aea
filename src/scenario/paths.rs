//! The places in a scenario that are not numbers of the field table: its sections and the
//! objects and lists a user may write (`paths::CLUSTER_POOLS`). With the table's fields and
//! choices they are every `Path` code can name, so a misspelt place does not compile; a path
//! that arrives as data (a problem's field, a fix, the form's edit) goes through
//! `Scenario::with_at`.

use super::Path;

pub const MODEL: Path = Path::new("model");
pub const MODEL_PRESET: Path = Path::new("model.preset");
pub const MODEL_VISION: Path = Path::new("model.vision");
pub const MODEL_CROSS_ATTENTION: Path = Path::new("model.cross_attention");
pub const MODEL_WINDOW: Path = Path::new("model.window");
pub const MODEL_MOE: Path = Path::new("model.moe");
pub const MODEL_MLA: Path = Path::new("model.mla");
pub const MODEL_MAMBA: Path = Path::new("model.mamba");
pub const MODEL_LINEAR: Path = Path::new("model.linear");
pub const MODEL_HYBRID_PATTERN: Path = Path::new("model.hybrid_pattern");
pub const CLUSTER_CHIP: Path = Path::new("cluster.chip");
pub const CLUSTER_SYSTEM: Path = Path::new("cluster.system");
pub const CLUSTER_SCALE_UP: Path = Path::new("cluster.scale_up");
pub const CLUSTER_SCALE_OUT: Path = Path::new("cluster.scale_out");
pub const CLUSTER_FABRIC: Path = Path::new("cluster.fabric");
pub const CLUSTER_FABRIC_SWITCH: Path = Path::new("cluster.fabric.switch");
pub const CLUSTER_POOLS: Path = Path::new("cluster.pools");
pub const CLUSTER_BETWEEN_POOLS: Path = Path::new("cluster.between_pools");
pub const CLUSTER_SITE: Path = Path::new("cluster.site");
pub const CLUSTER_PLACEMENT: Path = Path::new("cluster.placement");
pub const PARALLELISM: Path = Path::new("parallelism");
pub const RELIABILITY_RATES: Path = Path::new("reliability.rates");
pub const CALIBRATION: Path = Path::new("calibration");
pub const SITES: Path = Path::new("sites");
pub const SERVING: Path = Path::new("serving");
pub const RL: Path = Path::new("rl");
pub const YEAR: Path = Path::new("year");
pub const YEAR_START: Path = Path::new("year.start");
pub const YEAR_JOBS: Path = Path::new("year.jobs");
pub const YEAR_DELIVERIES: Path = Path::new("year.deliveries");
pub const YEAR_POWER: Path = Path::new("year.power");

/// Every place above, for the test that each is one the scenario knows.
pub const ALL: [Path; 31] = [
    MODEL,
    MODEL_PRESET,
    MODEL_VISION,
    MODEL_CROSS_ATTENTION,
    MODEL_WINDOW,
    MODEL_MOE,
    MODEL_MLA,
    MODEL_MAMBA,
    MODEL_LINEAR,
    MODEL_HYBRID_PATTERN,
    CLUSTER_CHIP,
    CLUSTER_SYSTEM,
    CLUSTER_SCALE_UP,
    CLUSTER_SCALE_OUT,
    CLUSTER_FABRIC,
    CLUSTER_FABRIC_SWITCH,
    CLUSTER_POOLS,
    CLUSTER_BETWEEN_POOLS,
    CLUSTER_SITE,
    CLUSTER_PLACEMENT,
    PARALLELISM,
    RELIABILITY_RATES,
    CALIBRATION,
    SITES,
    SERVING,
    RL,
    YEAR,
    YEAR_START,
    YEAR_JOBS,
    YEAR_DELIVERIES,
    YEAR_POWER,
];
