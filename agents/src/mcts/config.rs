//! The settings of the `mcts` search and how a spec string sets them.

use crate::clock::Limits;
use crate::learn::ValueModel;
use crate::spec::params::{self, Param, Params, Values, THREADS};
use crate::spec::SpecError;
use std::str::FromStr;
use std::sync::Arc;

/// `iterations` (3000 by default), `time_ms` and `game_ms`.
const BUDGET: [Param; 3] = params::budget("3000", "iterations per move; reproducible");

/// The parameters of the `mcts` spec, in the order of [`MctsConfig`].
pub const PARAMS: &[Param] = &[
    BUDGET[0],
    BUDGET[1],
    BUDGET[2],
    Param::new(
        "c",
        Values::NumberAtLeast(0.0),
        "0.7",
        "UCB1 exploration constant (rewards in 0..1)",
    ),
    Param::new(
        "reward",
        Values::Choice(&["score", "win"]),
        "score",
        "a rollout's reward: 0.5 + 0.5·tanh(advantage / scale), or 1, ½, 0 for ahead, level, behind",
    ),
    Param::new(
        "scale",
        Values::NumberAbove(0.0),
        "20",
        "points of advantage for a reward of about 0.88 (reward=score)",
    ),
    Param::new(
        "rollout",
        Values::Choice(&["greedy", "random"]),
        "greedy",
        "rollout policy: the best of k random moves by the greedy evaluation, or uniform",
    ),
    Param::new(
        "k",
        AT_LEAST_1,
        "4",
        "sampled moves per greedy rollout step",
    ),
    Param::new(
        "depth",
        Values::IntOr { min: 0, or: "all" },
        "4",
        "rollout turns before the end-now evaluation (all: to the end)",
    ),
    Param::new(
        "widen",
        Values::NumberAtLeast(0.0),
        "2",
        "progressive widening coefficient (0: every legal move is a child at once)",
    ),
    Param::new(
        "meeple",
        Values::Number,
        "3",
        "points per meeple in supply at a rollout's evaluation, times the share of tiles left",
    ),
    Param::new(
        "pick",
        Values::Int { min: 0, max: None },
        "8",
        "inner nodes expand the best of this many random moves (0: sort all, as the root)",
    ),
    Param::new(
        "solver_tiles",
        crate::solver::TILES,
        "0",
        "solve the rest exactly once the bag holds at most this many tiles (0: never)",
    ),
    Param::new(
        "threads",
        THREADS,
        "1",
        "root parallelism: this many seeded searches with the full budget each, merged",
    ),
    crate::models::EVAL_PARAM,
    Param::new(
        "bias",
        Values::NumberAtLeast(0.0),
        "0",
        "progressive bias from the move's greedy gain (0: off)",
    ),
    Param::new(
        "reuse",
        Values::Choice(&["true", "false"]),
        "false",
        "start each search from the subtree of the moves played since the last",
    ),
];

/// An integer `>= 1`.
pub(crate) const AT_LEAST_1: Values = Values::Int { min: 1, max: None };

/// What a finished rollout is worth to each seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// 1 ahead, ½ level, 0 behind the best other seat (end-now scores).
    Win,
    /// `0.5 + 0.5·tanh(d / scale)` of the end-now advantage `d`.
    Score,
}

/// How rollouts choose moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// A uniformly random legal move ([`engine::random_move`]).
    Random,
    /// The best of `k` random legal moves by the greedy evaluation.
    Greedy,
}

/// `reward=`'s words.
impl FromStr for Reward {
    type Err = ();

    fn from_str(word: &str) -> Result<Reward, ()> {
        match word {
            "win" => Ok(Reward::Win),
            "score" => Ok(Reward::Score),
            _ => Err(()),
        }
    }
}

/// `rollout=`'s words.
impl FromStr for Rollout {
    type Err = ();

    fn from_str(word: &str) -> Result<Rollout, ()> {
        match word {
            "random" => Ok(Rollout::Random),
            "greedy" => Ok(Rollout::Greedy),
            _ => Err(()),
        }
    }
}

/// The settings of the search.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations per move (`iterations=`, default 3000). Ignored when
    /// `time_ms` or `game_ms` is set.
    pub iterations: u32,
    /// Wall-clock budget per move in milliseconds (`time_ms=`); not
    /// reproducible.
    pub time_ms: Option<u64>,
    /// Wall-clock budget per game in milliseconds (`game_ms=`): each move
    /// gets the time left shared evenly over the seat's turns still to
    /// come (capped by `time_ms` if set); not reproducible.
    pub game_ms: Option<u64>,
    /// UCB1 exploration constant (`c=`, default 0.7); rewards are in 0..1.
    pub c: f64,
    /// The reward (`reward=win|score`, default `score`).
    pub reward: Reward,
    /// Points of advantage for a reward of about 0.88 (`scale=`, default
    /// 20); only for `reward=score`.
    pub scale: f64,
    /// The rollout policy (`rollout=greedy|random`, default `greedy`).
    pub rollout: Rollout,
    /// Sampled moves per greedy rollout step (`k=`, default 4).
    pub k: u32,
    /// Rollout turns before the end-now evaluation (`depth=`, default 4;
    /// `depth=all` plays to the end; `None` here).
    pub depth: Option<u32>,
    /// Progressive widening coefficient (`widen=`, default 2; 0 turns it
    /// off: every legal move is a child at once).
    pub widen: f64,
    /// Points each meeple in a seat's supply is worth at the evaluation of
    /// a rollout, times the fraction of the 71 tiles still in the bag
    /// (`meeple=`, default 3; 0 gives plain end-now scores). A meeple kept
    /// back can still score; the end-now score alone values it at nothing,
    /// and without this term the search spends meeples as freely as the
    /// greedy agent (measured: 74.5% → 86.5% against greedy at 1500
    /// iterations, 100 paired games).
    pub meeple: f64,
    /// How inner decision nodes choose their next child (`pick=`, default
    /// 8): the best by the greedy evaluation of `pick` legal moves drawn at
    /// random from those not yet children. With `pick=0` they sort all
    /// their moves by the greedy evaluation when first expanded, as the
    /// root always does (stronger ordering, but it evaluates every move).
    pub pick: u32,
    /// Solve the rest of the game exactly ([`crate::solver`]) once the bag
    /// holds at most this many tiles at a decision (`solver_tiles=`,
    /// default 0: never).
    pub solver_tiles: u32,
    /// Root parallelism (`threads=`, default 1): that many independent
    /// searches, each with the full budget and its own generator seeded
    /// from the agent's, whose root visits are summed before the choice.
    /// Deterministic for a seed and thread count.
    pub threads: u32,
    /// Progressive bias (`bias=`, default 0: off): a child's UCB value
    /// gains `bias·tanh(g / scale) / (n + 1)`, where `g` is the gain in
    /// the seat's end-now advantage its move makes at once and `n` its
    /// visits, so the greedy evaluation guides the first visits and fades.
    pub bias: f64,
    /// Tree reuse (`reuse=true|false`, default `false`): start each search
    /// of a game from the subtree the last one grew below the moves and
    /// draws played since, when they can be followed (see `docs/agents.md`).
    /// The budget counts the new iterations only.
    pub reuse: bool,
    /// Single-observer information-set MCTS (the `ismcts` agent; not a
    /// spec parameter): availability counts in UCB, and no branching on
    /// the gift cards other seats receive.
    pub info_sets: bool,
    /// A value model fitted on self-play (`eval=MODEL.json`): the leaves
    /// (after the rollout's `depth` turns; `depth=0`: none) are valued by
    /// each seat's predicted final lead instead of its end-now lead, and
    /// the reward is computed from that lead as from the end-now one.
    pub eval: Option<Arc<ValueModel>>,
}

impl Default for MctsConfig {
    /// The defaults of [`PARAMS`].
    fn default() -> MctsConfig {
        let spec = crate::spec::Spec::parse("mcts").expect("a bare name parses");
        let params = Params::new(&spec, PARAMS).expect("no parameters given");
        MctsConfig::from_params(&params).expect("the declared defaults are valid")
    }
}

impl MctsConfig {
    /// Its budgets per move.
    pub fn limits(&self) -> Limits {
        Limits {
            iterations: self.iterations,
            time_ms: self.time_ms,
            game_ms: self.game_ms,
        }
    }

    /// The configuration of the parameters of an `mcts:...` spec.
    ///
    /// # Errors
    ///
    /// A value out of its range (see [`PARAMS`]).
    pub fn from_params(params: &Params<'_, '_>) -> Result<MctsConfig, SpecError> {
        Ok(MctsConfig {
            iterations: params.req("iterations")?,
            time_ms: params.get("time_ms")?,
            game_ms: params.get("game_ms")?,
            c: params.req("c")?,
            reward: params.choice("reward")?,
            scale: params.req("scale")?,
            rollout: params.choice("rollout")?,
            k: params.req("k")?,
            depth: match params.text("depth") {
                Some("all") => None,
                _ => Some(params.req("depth")?),
            },
            widen: params.req("widen")?,
            meeple: params.req("meeple")?,
            pick: params.req("pick")?,
            solver_tiles: params.req("solver_tiles")?,
            threads: params.req("threads")?,
            bias: params.req("bias")?,
            reuse: params.choice("reuse")?,
            info_sets: false,
            eval: crate::models::eval_param(params)?,
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::spec::Spec;

    /// The configuration of `spec`, which must be valid.
    pub(crate) fn config(spec: &str) -> MctsConfig {
        let spec = Spec::parse(spec).unwrap();
        MctsConfig::from_params(&Params::new(&spec, PARAMS).unwrap()).unwrap()
    }

    fn error(spec: &str) -> String {
        let spec = Spec::parse(spec).unwrap();
        Params::new(&spec, PARAMS)
            .and_then(|p| MctsConfig::from_params(&p))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn specs_set_the_config() {
        assert_eq!(config("mcts"), MctsConfig::default());
        let c = config("mcts:iterations=10,c=1.5,reward=win,rollout=random,depth=all,widen=0");
        assert_eq!(c.iterations, 10);
        assert_eq!(c.c, 1.5);
        assert_eq!(c.reward, Reward::Win);
        assert_eq!(c.rollout, Rollout::Random);
        assert_eq!(c.depth, None);
        assert_eq!(c.widen, 0.0);
        assert_eq!(config("mcts:time_ms=20").time_ms, Some(20));
        assert_eq!(config("mcts:depth=3,k=2").depth, Some(3));
        assert!(config("mcts:reuse=true").reuse);
        assert!(!config("mcts:reuse=false").reuse);
    }

    #[test]
    fn bad_values_name_the_valid_range() {
        assert!(error("mcts:iterations=0").contains("integer >= 1"));
        assert!(error("mcts:reward=points").contains("score|win"));
        assert!(error("mcts:rollout=smart").contains("greedy|random"));
        assert!(error("mcts:depth=deep").contains("all"));
        assert!(error("mcts:c=-1").contains(">= 0"));
        assert!(error("mcts:scale=0").contains("> 0"));
        assert!(error("mcts:time_ms=0").contains("integer >= 1"));
        assert!(error("mcts:reuse=yes").contains("true|false"));
    }
}
