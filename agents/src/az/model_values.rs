//! `az:eval=MODEL`: leaf values from a linear value model (the one
//! `mcts:depth=0,eval=` uses), priors from the network (or uniform).
//!
//! The model predicts the final lead of the seat whose view it is given;
//! the evaluator sees only the view of the seat to play, so that seat gets
//! `tanh(lead / 20)` (20 points of lead ≈ 0.76, the scale of `mcts`'s
//! default reward) and every other seat `−tanh(lead / 20) / (players − 1)`
//! (exactly the other seat's value in a 2-player game, an approximation
//! with more). With `eval_mix=w` the network's own value is mixed in:
//! `(1 − w)·model + w·network`.

use crate::evaluator::{EvalRequest, Evaluation, Evaluator};
use crate::learn::ValueModel;
use std::sync::Arc;

/// Points of predicted lead for a value of `tanh(1)`.
pub const LEAD_SCALE: f64 = 20.0;

/// Values from a [`ValueModel`], priors (and, weighted by `mix`, values)
/// from another evaluator.
pub struct ModelValues {
    /// Gives the priors (and the values mixed in).
    pub priors: Arc<dyn Evaluator>,
    /// Gives the values.
    pub model: Arc<ValueModel>,
    /// The weight of `priors`' own values (0: the model's only).
    pub mix: f32,
}

impl Evaluator for ModelValues {
    fn evaluate(&self, batch: &[EvalRequest<'_>]) -> Vec<Evaluation> {
        let mut out = self.priors.evaluate(batch);
        for (e, r) in out.iter_mut().zip(batch) {
            let players = r.view.players();
            let me = r.view.seat().index();
            let v = (self.model.value(&r.view) / LEAD_SCALE).tanh() as f32;
            let others = if players > 1 {
                -v / (players - 1) as f32
            } else {
                0.0
            };
            for (s, value) in e.values.iter_mut().enumerate().take(players) {
                let model = if s == me { v } else { others };
                *value = (1.0 - self.mix) * model + self.mix * *value;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::az::Uniform;
    use crate::test_support::random_play_until;
    use crate::{from_spec, AgentRng, Context};
    use engine::Rules;
    use rand::SeedableRng;
    use std::path::Path;

    const MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/value-2p.json");

    #[test]
    fn values_come_from_the_model_and_priors_from_the_other_evaluator() {
        let model = crate::models::value_model(Path::new(MODEL)).unwrap();
        let state = random_play_until(2, Rules::default(), 3, |s| s.turns() > 20);
        let actions = state.legal_actions();
        let me = state.to_play();
        let request = [EvalRequest {
            view: state.view(me),
            actions: &actions,
        }];
        let lead = model.value(&state.view(me));
        let want = (lead / LEAD_SCALE).tanh() as f32;
        assert!(want != 0.0);
        for mix in [0.0f32, 0.5] {
            let e = ModelValues {
                priors: Arc::new(Uniform),
                model: Arc::clone(&model),
                mix,
            };
            let out = e.evaluate(&request);
            let v = want * (1.0 - mix);
            assert_eq!(out[0].values[me.index()], v);
            assert_eq!(out[0].values[1 - me.index()], -v);
            assert_eq!(out[0].priors, Uniform.evaluate(&request)[0].priors);
        }
    }

    #[test]
    fn az_with_eval_plays_legal_moves_and_reproduces() {
        let spec = format!("az:eval={MODEL},iterations=60");
        let state = random_play_until(2, Rules::default(), 5, |s| s.turns() > 10);
        let view = state.view(state.to_play());
        let play = || {
            let mut agent = from_spec(&spec).unwrap();
            let mut rng = AgentRng::seed_from_u64(9);
            agent.decide(Context::new(&view, &mut rng)).unwrap().action
        };
        let a = play();
        assert!(state.legal_actions().contains(&a));
        assert_eq!(a, play());
    }
}
