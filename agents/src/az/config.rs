//! The settings of the `az` search and how a spec string sets them.

use super::model_values::ModelValues;
use crate::clock::Limits;
use crate::evaluator::{Evaluator, Uniform};
use crate::learn::ValueModel;
use crate::models;
use crate::spec::params::{self, Param, Params, Values, THREADS};
use crate::spec::SpecError;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// `iterations` (400 by default), `time_ms` and `game_ms`.
const BUDGET: [Param; 3] = params::budget(
    "400",
    "descents (leaf evaluations) per move and thread; reproducible",
);

/// The parameters of the `az` spec, in the order of [`AzConfig`].
pub const PARAMS: &[Param] = &[
    BUDGET[0],
    BUDGET[1],
    BUDGET[2],
    Param::new(
        "c_puct",
        Values::NumberAtLeast(0.0),
        "1.5",
        "exploration constant of `Q + c_puct·P·√N/(1+n)` (values in [−1, 1])",
    ),
    Param::new(
        "batch",
        Values::Int {
            min: 1,
            max: Some(1024),
        },
        "8",
        "leaves collected (with virtual loss) per call of the evaluator",
    ),
    Param::new(
        "expand",
        Values::Int {
            min: 1,
            max: Some(64),
        },
        "2",
        "visit of a leaf on which it is expanded (the priors of its legal actions asked); the visits before value it alone, which is cheaper (1: expand every leaf at once)",
    ),
    Param::new(
        "threads",
        THREADS,
        "1",
        "root parallelism, as `mcts`: N searches with the full budget each",
    ),
    Param::new(
        "net",
        Values::Text("a network file (safetensors)"),
        "none",
        "the network to search with (read once per process, shared; none: uniform)",
    ),
    Param::new(
        "lead",
        Values::NumberIn(0.0, 1.0),
        "0",
        "with net=: weight of the network's lead head (the margin to each other seat) blended into its value head (outcome) at the leaves",
    ),
    crate::models::EVAL_PARAM,
    Param::new(
        "eval_mix",
        Values::NumberIn(0.0, 1.0),
        "0",
        "with eval=: weight of the network's own value mixed into the model's (0: the model's only)",
    ),
    Param::new(
        "noise",
        Values::NumberIn(0.0, 1.0),
        "0",
        "self-play only: weight of Dirichlet noise mixed into the root priors",
    ),
    Param::new(
        "alpha",
        Values::NumberAbove(0.0),
        "0.3",
        "self-play only: concentration of that noise",
    ),
    Param::new(
        "temp",
        Values::NumberAtLeast(0.0),
        "1",
        "self-play only: temperature of the move drawn in the first `temp_moves` turns (0: most visited)",
    ),
    Param::new(
        "temp_moves",
        Values::Int { min: 0, max: None },
        "0",
        "self-play only: turns of the game (all seats', from the start) during which the move is drawn at `temp`",
    ),
    Param::new(
        "root",
        Values::Choice(&["puct", "gumbel"]),
        "puct",
        "the root's search: puct (the most visited action), or gumbel (Gumbel-top-k sampling of `gumbel_m` actions and sequential halving; its improved policy is the search's policy)",
    ),
    Param::new(
        "gumbel_m",
        Values::Int {
            min: 1,
            max: Some(1024),
        },
        "16",
        "with root=gumbel: actions sampled at the root (all legal ones if fewer)",
    ),
    Param::new(
        "gumbel_noise",
        Values::NumberAtLeast(0.0),
        "1",
        "with root=gumbel: scale of the Gumbel draws (1: the paper's sampling; 0: none, the top gumbel_m priors and a deterministic halving)",
    ),
    Param::new(
        "c_visit",
        Values::NumberAtLeast(0.0),
        "50",
        "with root=gumbel: `σ(q) = (c_visit + max visits)·c_scale·q` of the halving and the improved policy",
    ),
    Param::new(
        "c_scale",
        Values::NumberAbove(0.0),
        "1",
        "with root=gumbel: the scale of `σ` (see c_visit)",
    ),
    Param::new(
        "cap_full",
        Values::Probability,
        "1",
        "self-play only: playout cap randomisation, the probability of a full search (a training example); the other moves get `cap_fast` iterations and are not recorded (1: every move full)",
    ),
    Param::new(
        "cap_fast",
        Values::Int { min: 1, max: None },
        "32",
        "self-play only: iterations of a fast search (with cap_full below 1; no Dirichlet noise)",
    ),
];

/// How the root of the search chooses (`root=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    /// PUCT at the root as everywhere: the move is the most visited
    /// action, the policy target the visit shares.
    Puct,
    /// Gumbel-top-k sampling of [`AzConfig::gumbel_m`] actions and
    /// sequential halving of the budget among them (see `gumbel.rs`);
    /// the policy target is the improved policy of completed Q-values.
    Gumbel,
}

/// `root=`'s words.
impl std::str::FromStr for Root {
    type Err = ();

    fn from_str(word: &str) -> Result<Root, ()> {
        match word {
            "puct" => Ok(Root::Puct),
            "gumbel" => Ok(Root::Gumbel),
            _ => Err(()),
        }
    }
}

/// The settings of the search.
#[derive(Clone)]
pub struct AzConfig {
    /// Iterations (leaf evaluations) per move and thread (`iterations=`,
    /// default 400). Ignored when `time_ms` or `game_ms` is set.
    pub iterations: u32,
    /// Wall-clock budget per move in milliseconds (`time_ms=`); not
    /// reproducible.
    pub time_ms: Option<u64>,
    /// Wall-clock budget per game in milliseconds (`game_ms=`), shared
    /// over the seat's turns left as `mcts` does; not reproducible.
    pub game_ms: Option<u64>,
    /// The PUCT exploration constant (`c_puct=`, default 1.5); values are
    /// in `[-1, 1]`.
    pub c_puct: f64,
    /// Leaves collected (with virtual loss) before one call of the
    /// evaluator (`batch=`, default 8).
    pub batch: u32,
    /// The visit of a decision node on which the evaluator is asked for
    /// the priors of its legal actions and the node gets its children
    /// (`expand=`, default 2: the second; 1 expands every leaf at once).
    /// On the visits before, the evaluator values the position alone (no
    /// actions: no action encoding, no policy), and the descent ends
    /// there. Most leaves of a search are visited once, so `expand=2`
    /// spares most of the policy's cost.
    pub expand: u32,
    /// Root parallelism (`threads=`, default 1): that many independent
    /// searches, each with the full budget and a generator seeded from
    /// the agent's, whose root visits are summed.
    pub threads: u32,
    /// The network file of `net=`, if any (`None`: [`Uniform`]).
    pub net: Option<PathBuf>,
    /// The network of `net=`, read once per process and shared.
    pub network: Option<Arc<models::Network>>,
    /// The weight of the network's lead head in its values (`lead=`,
    /// default 0): `(1 − lead)·outcome + lead·tanh(margin/20)` (the
    /// margin to each other seat, averaged), as
    /// [`crate::neural::LeadBlend`].
    pub lead: f64,
    /// A linear value model for the leaves (`eval=FILE`, as
    /// `mcts:depth=0,eval=`): its values replace the network's (see
    /// [`ModelValues`]), the network still gives the priors.
    pub eval: Option<Arc<ValueModel>>,
    /// With `eval=`: the weight of the network's own value (`eval_mix=`,
    /// default 0).
    pub eval_mix: f64,
    /// The model of values and priors: [`AzConfig::network`] (or
    /// [`Uniform`] without `net=`), its values from `eval=` if given.
    pub evaluator: Arc<dyn Evaluator>,
    /// Weight of the Dirichlet noise mixed into the root priors
    /// (`noise=`, default 0: off). Self-play only.
    pub noise: f64,
    /// Concentration of that noise (`alpha=`, default 0.3).
    pub alpha: f64,
    /// Temperature of the move choice in the first `temp_moves` turns of
    /// the game (`temp=`, default 1): the move is drawn with probability
    /// proportional to `visits^(1/temp)`; `temp=0` plays the most visited.
    pub temp: f64,
    /// Turns of the game (all seats' turns, from the start) during which
    /// the move is drawn at temperature `temp` (`temp_moves=`, default 0:
    /// never). Self-play only.
    pub temp_moves: u32,
    /// The root's search (`root=`, default [`Root::Puct`]).
    pub root: Root,
    /// With [`Root::Gumbel`]: the actions sampled at the root
    /// (`gumbel_m=`, default 16; all legal ones if fewer).
    pub gumbel_m: u32,
    /// With [`Root::Gumbel`]: the scale of the Gumbel draws
    /// (`gumbel_noise=`, default 1: sampling as in the paper; 0: none,
    /// the `gumbel_m` highest priors and a halving without noise).
    pub gumbel_noise: f64,
    /// With [`Root::Gumbel`]: `c_visit` of the monotone transform
    /// `σ(q̂) = (c_visit + max_b N(b))·c_scale·q̂` (`c_visit=`, default 50,
    /// as in the Gumbel MuZero paper).
    pub c_visit: f64,
    /// With [`Root::Gumbel`]: `c_scale` of `σ` (`c_scale=`, default 1).
    pub c_scale: f64,
    /// Playout cap randomisation (`cap_full=`, default 1: off): the
    /// probability that a move gets the full search and becomes a
    /// training example; other moves get a fast search of `cap_fast`
    /// iterations, without Dirichlet noise, whose
    /// [`crate::SearchStats::full`] is `false` (self-play does not record
    /// them). Drawn from the agent's generator. Self-play only.
    pub cap_full: f64,
    /// Iterations of a fast search (`cap_fast=`, default 32).
    pub cap_fast: u32,
}

impl fmt::Debug for AzConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AzConfig")
            .field("iterations", &self.iterations)
            .field("time_ms", &self.time_ms)
            .field("game_ms", &self.game_ms)
            .field("c_puct", &self.c_puct)
            .field("batch", &self.batch)
            .field("expand", &self.expand)
            .field("threads", &self.threads)
            .field("net", &self.net)
            .field("lead", &self.lead)
            .field("eval", &self.eval.is_some())
            .field("eval_mix", &self.eval_mix)
            .field("noise", &self.noise)
            .field("alpha", &self.alpha)
            .field("temp", &self.temp)
            .field("temp_moves", &self.temp_moves)
            .field("root", &self.root)
            .field("gumbel_m", &self.gumbel_m)
            .field("gumbel_noise", &self.gumbel_noise)
            .field("c_visit", &self.c_visit)
            .field("c_scale", &self.c_scale)
            .field("cap_full", &self.cap_full)
            .field("cap_fast", &self.cap_fast)
            .finish_non_exhaustive()
    }
}

impl Default for AzConfig {
    /// The defaults of [`PARAMS`].
    fn default() -> AzConfig {
        let spec = crate::spec::Spec::parse("az").expect("a bare name parses");
        let params = Params::new(&spec, PARAMS).expect("no parameters given");
        AzConfig::from_params(&params).expect("the declared defaults are valid")
    }
}

impl AzConfig {
    /// Its budgets per move.
    pub fn limits(&self) -> Limits {
        Limits {
            iterations: self.iterations,
            time_ms: self.time_ms,
            game_ms: self.game_ms,
        }
    }

    /// The configuration of the parameters of an `az:...` spec; `net=`
    /// is read here (once per process, see [`crate::models`]).
    ///
    /// # Errors
    ///
    /// A value out of its range (see [`PARAMS`]), or a network file that
    /// cannot be read.
    pub fn from_params(params: &Params<'_, '_>) -> Result<AzConfig, SpecError> {
        let net = params.text("net").map(PathBuf::from);
        let network = match &net {
            Some(path) => Some(models::network(path).map_err(SpecError::File)?),
            None => None,
        };
        let lead: f64 = params.req("lead")?;
        if lead > 0.0 && network.is_none() {
            return Err(SpecError::Invalid(
                "agent \"az\": lead= weights a network's lead head; give net= too".into(),
            ));
        }
        let mut evaluator = match &network {
            Some(network) => models::blended(network, lead as f32),
            None => Arc::new(Uniform),
        };
        let eval = crate::models::eval_param(params)?;
        let eval_mix: f64 = params.req("eval_mix")?;
        if eval_mix > 0.0 && eval.is_none() {
            return Err(SpecError::Invalid(
                "agent \"az\": eval_mix= mixes a network's values into eval='s; give eval= too"
                    .into(),
            ));
        }
        if let Some(model) = &eval {
            evaluator = Arc::new(ModelValues {
                priors: evaluator,
                model: Arc::clone(model),
                mix: eval_mix as f32,
            });
        }
        let root: Root = params.choice("root")?;
        let threads: u32 = params.req("threads")?;
        if root == Root::Gumbel && threads > 1 {
            return Err(SpecError::Invalid(
                "agent \"az\": root=gumbel searches on one thread (its halving decides the move); leave threads= at 1".into(),
            ));
        }
        Ok(AzConfig {
            iterations: params.req("iterations")?,
            time_ms: params.get("time_ms")?,
            game_ms: params.get("game_ms")?,
            c_puct: params.req("c_puct")?,
            batch: params.req("batch")?,
            expand: params.req("expand")?,
            threads,
            net,
            network,
            lead,
            eval,
            eval_mix,
            evaluator,
            noise: params.req("noise")?,
            alpha: params.req("alpha")?,
            temp: params.req("temp")?,
            temp_moves: params.req("temp_moves")?,
            root,
            gumbel_m: params.req("gumbel_m")?,
            gumbel_noise: params.req("gumbel_noise")?,
            c_visit: params.req("c_visit")?,
            c_scale: params.req("c_scale")?,
            cap_full: params.req("cap_full")?,
            cap_fast: params.req("cap_fast")?,
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::spec::Spec;

    /// The configuration of `spec`, which must be valid.
    pub(crate) fn config(spec: &str) -> AzConfig {
        let spec = Spec::parse(spec).unwrap();
        AzConfig::from_params(&Params::new(&spec, PARAMS).unwrap()).unwrap()
    }

    fn error(spec: &str) -> String {
        let spec = Spec::parse(spec).unwrap();
        Params::new(&spec, PARAMS)
            .and_then(|p| AzConfig::from_params(&p))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn specs_set_the_config() {
        let d = config("az");
        assert_eq!((d.iterations, d.batch, d.threads, d.expand), (400, 8, 1, 2));
        assert_eq!((d.noise, d.temp_moves), (0.0, 0));
        assert!(d.net.is_none());
        let c = config("az:iterations=10,c_puct=2,batch=3,threads=2,noise=0.25,alpha=0.5,temp=0.5,temp_moves=12");
        assert_eq!((c.iterations, c.batch, c.threads), (10, 3, 2));
        assert_eq!((c.c_puct, c.noise, c.alpha, c.temp), (2.0, 0.25, 0.5, 0.5));
        assert_eq!(c.temp_moves, 12);
        assert_eq!(config("az:time_ms=20").time_ms, Some(20));
        assert_eq!(
            (d.root, d.gumbel_m, d.c_visit, d.c_scale),
            (Root::Puct, 16, 50.0, 1.0)
        );
        assert_eq!((d.cap_full, d.cap_fast), (1.0, 32));
        let g = config("az:root=gumbel,gumbel_m=4,c_visit=10,c_scale=0.5,cap_full=0.25,cap_fast=8");
        assert_eq!(
            (g.root, g.gumbel_m, g.c_visit, g.c_scale),
            (Root::Gumbel, 4, 10.0, 0.5)
        );
        assert_eq!((g.cap_full, g.cap_fast), (0.25, 8));
    }

    #[test]
    fn bad_values_name_the_valid_range() {
        assert!(error("az:iterations=0").contains("integer >= 1"));
        assert!(error("az:batch=0").contains("1..1024"));
        assert!(error("az:threads=65").contains("1..64"));
        assert!(error("az:noise=1.5").contains("0..1"));
        assert!(error("az:alpha=0").contains("> 0"));
        assert!(error("az:c_puct=-1").contains(">= 0"));
        assert!(error("az:eval_mix=2").contains("0..1"));
        assert!(error("az:lead=0.5").contains("give net= too"));
        assert!(error("az:eval_mix=0.5").contains("give eval= too"));
        for bad in [
            "az:root=best",
            "az:gumbel_m=0",
            "az:gumbel_m=2000",
            "az:c_visit=-1",
            "az:c_scale=0",
            "az:gumbel_noise=-1",
            "az:cap_full=1.5",
            "az:cap_fast=0",
            "az:root=gumbel,threads=2",
        ] {
            let e = error(bad);
            assert!(!e.is_empty() && !e.contains('\n'), "{bad}: {e}");
        }
        assert!(error("az:root=best").contains("gumbel"));
        assert!(error("az:gumbel_m=0").contains("1..1024"));
        assert!(error("az:root=gumbel,threads=2").contains("threads= at 1"));
        let e = error("az:eval=/no/such/model.json");
        assert!(e.contains("/no/such/model.json"), "{e}");
        let e = error("az:net=/no/such/net.safetensors");
        assert!(e.contains("/no/such/net.safetensors"), "{e}");
    }
}
