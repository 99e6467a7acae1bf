//! Tests of the `az` search: budgets, batches, threads, and that priors
//! and values steer it.

use super::config::tests::config;
use super::*;
use crate::clock::TickClock;
use crate::test_support::random_play_until;
use engine::{Action, Rules, Seat, State, Tile};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use testkit::StateExt;

/// A position of 2 seats after a few turns of random play.
fn position(players: usize, seed: u64) -> State {
    random_play_until(players, Rules::default(), seed, |s| s.turns() >= 6)
}

/// An agent of `spec` searching with `evaluator`.
fn agent(spec: &str, evaluator: Arc<dyn Evaluator>) -> AzAgent {
    AzAgent::new(
        spec.into(),
        AzConfig {
            evaluator,
            ..config(spec)
        },
    )
}

/// `agent`'s decision of `view` with a generator seeded with `seed`.
fn decide(agent: &mut AzAgent, view: &SeatView<'_>, seed: u64) -> Decision {
    let mut rng = AgentRng::seed_from_u64(seed);
    agent.decide(Context::new(view, &mut rng)).unwrap()
}

fn search(spec: &str, evaluator: Arc<dyn Evaluator>, state: &State, seed: u64) -> RootStats {
    agent(spec, evaluator).search(
        &state.view(state.to_play()),
        &mut AgentRng::seed_from_u64(seed),
    )
}

/// Uniform values; the prior of one action `favourite` is `weight`, the
/// others share the rest. Counts its calls and the largest batch.
struct Favour {
    favourite: Action,
    weight: f32,
    calls: AtomicUsize,
    largest: AtomicUsize,
}

impl Favour {
    fn new(favourite: Action, weight: f32) -> Favour {
        Favour {
            favourite,
            weight,
            calls: AtomicUsize::new(0),
            largest: AtomicUsize::new(0),
        }
    }
}

impl Evaluator for Favour {
    fn evaluate(&self, batch: &[EvalRequest<'_>]) -> Vec<Evaluation> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.largest.fetch_max(batch.len(), Ordering::SeqCst);
        batch
            .iter()
            .map(|r| {
                let n = r.actions.len();
                let has = r.actions.contains(&self.favourite);
                let rest = if has && n > 1 {
                    (1.0 - self.weight) / (n - 1) as f32
                } else {
                    1.0 / n as f32
                };
                Evaluation {
                    values: vec![0.0; r.view.players()],
                    priors: r
                        .actions
                        .iter()
                        .map(|&a| {
                            if a == self.favourite {
                                self.weight
                            } else {
                                rest
                            }
                        })
                        .collect(),
                }
            })
            .collect()
    }
}

/// Uniform priors; each seat's value grows (`sign = 1`) or shrinks
/// (`sign = -1`) with the meeples in its supply.
struct Meeples(f32);

impl Evaluator for Meeples {
    fn evaluate(&self, batch: &[EvalRequest<'_>]) -> Vec<Evaluation> {
        batch
            .iter()
            .map(|r| {
                let n = r.actions.len();
                Evaluation {
                    values: (0..r.view.players())
                        .map(|s| self.0 * (f32::from(r.view.supply(Seat(s as u8))) - 3.5) / 3.5)
                        .collect(),
                    priors: vec![1.0 / n as f32; n],
                }
            })
            .collect()
    }
}

fn visits(stats: &RootStats) -> u32 {
    stats.children.iter().map(|c| c.1).sum()
}

#[test]
fn root_visits_sum_to_the_iterations_whatever_the_batch() {
    let state = position(2, 1);
    for batch in [1, 3, 8, 64] {
        let spec = format!("az:iterations=50,batch={batch}");
        let stats = search(&spec, Arc::new(Uniform), &state, 4);
        assert_eq!(stats.iterations, 50, "{spec}");
        assert_eq!(visits(&stats), 50, "{spec}");
        assert_eq!(stats.children.len(), state.legal_actions().len());
        let mut agent = agent(&spec, Arc::new(Uniform));
        let d = decide(&mut agent, &state.view(state.to_play()), 4);
        let (a, v) = (d.action, d.root_visits().unwrap());
        assert_eq!(v.iter().map(|x| x.1).sum::<u32>(), 50);
        assert!(v.iter().any(|x| x.0 == a));
        assert_eq!(state.check_action(a), Ok(()));
    }
    let stats = search("az:iterations=30,threads=3", Arc::new(Uniform), &state, 4);
    assert_eq!((stats.iterations, visits(&stats)), (90, 90));
}

#[test]
fn leaves_are_evaluated_in_batches() {
    let state = position(2, 2);
    let fav = Arc::new(Favour::new(state.legal_actions()[0], 0.5));
    let stats = search("az:iterations=64,batch=8", fav.clone(), &state, 1);
    // The root, then 8 batches of up to 8 leaves.
    assert!(fav.calls.load(Ordering::SeqCst) <= 9, "{stats:?}");
    assert_eq!(stats.batches as usize, fav.calls.load(Ordering::SeqCst));
    assert_eq!(fav.largest.load(Ordering::SeqCst), 8);
    let fav = Arc::new(Favour::new(state.legal_actions()[0], 0.5));
    search("az:iterations=20,batch=1", fav.clone(), &state, 1);
    assert_eq!(fav.calls.load(Ordering::SeqCst), 21);
    assert_eq!(fav.largest.load(Ordering::SeqCst), 1);
}

#[test]
fn a_strong_prior_makes_the_search_pick_its_action() {
    for (players, seed) in [(2, 1), (3, 2), (4, 3)] {
        let state = position(players, seed);
        let actions = state.legal_actions();
        assert!(actions.len() > 3);
        // Not the first listed (where ties would go anyway).
        let favourite = actions[actions.len() / 2 + 1];
        let spec = "az:iterations=200";
        let fav: Arc<dyn Evaluator> = Arc::new(Favour::new(favourite, 0.9));
        let stats = search(spec, fav.clone(), &state, 7);
        let best = stats.children[stats.best().unwrap()];
        assert_eq!(best.0, favourite, "{players} seats");
        assert!(best.1 > 100, "{best:?}");
        // The same with a uniform prior goes elsewhere: the prior did it.
        let plain = search(spec, Arc::new(Uniform), &state, 7);
        assert_ne!(plain.children[plain.best().unwrap()].0, favourite);
    }
}

#[test]
fn values_steer_the_search() {
    let state = random_play_until(2, Rules::default(), 5, |s| s.turns() >= 4);
    let seat = state.to_play();
    // The meeples left in the seat's supply after `action`.
    let supply_after = |action: Action| {
        let mut after = state.clone();
        after.play_action_unchecked(action);
        after.supply(seat)
    };
    let now = state.supply(seat);
    assert!(state
        .legal_actions()
        .into_iter()
        .any(|a| supply_after(a) < now));
    let view = state.view(seat);
    let spec = "az:iterations=300";
    for seed in 0..3 {
        // Valuing meeples kept: a move that keeps them.
        let keep = decide(&mut agent(spec, Arc::new(Meeples(1.0))), &view, seed).action;
        assert_eq!(supply_after(keep), now, "{keep:?}");
        // Valuing meeples spent: a move that spends one.
        let spend = decide(&mut agent(spec, Arc::new(Meeples(-1.0))), &view, seed).action;
        assert!(supply_after(spend) < now, "{spend:?}");
    }
}

#[test]
fn the_batch_size_does_not_change_a_clear_choice() {
    // Virtual loss makes the batch change the order of the descents,
    // hence the visit counts: the move may differ between batch sizes
    // when the search is undecided. Where one move is clearly best, it
    // does not.
    let state = position(2, 3);
    let actions = state.legal_actions();
    let favourite = actions[actions.len() - 1];
    let moves: Vec<Action> = [1, 2, 8, 32]
        .iter()
        .map(|b| {
            let fav: Arc<dyn Evaluator> = Arc::new(Favour::new(favourite, 0.6));
            let stats = search(&format!("az:iterations=200,batch={b}"), fav, &state, 3);
            stats.children[stats.best().unwrap()].0
        })
        .collect();
    assert!(moves.iter().all(|&m| m == favourite), "{moves:?}");
}

#[test]
fn searches_repeat_for_a_seed_and_thread_count() {
    let state = random_play_until(3, Rules::default(), 8, |s| s.turns() >= 10);
    for spec in [
        "az:iterations=60,batch=4",
        "az:iterations=40,threads=3,batch=2",
    ] {
        let a = search(spec, Arc::new(Uniform), &state, 11);
        let b = search(spec, Arc::new(Uniform), &state, 11);
        assert_eq!(a, b, "{spec}");
        let c = search(spec, Arc::new(Uniform), &state, 12);
        assert_ne!(a, c, "{spec}: another seed, another search");
    }
}

#[test]
fn a_time_budget_reads_the_clock_before_every_iteration() {
    let mut state = State::new(Rules::default(), 2, Seat(0));
    state.draw(Tile::D).unwrap();
    let clock = Arc::new(TickClock::new(Duration::from_millis(1)));
    let mut agent = AzAgent::new("az".into(), config("az:time_ms=50,batch=4")).with_clock(clock);
    let stats = agent.search(&state.view(Seat(0)), &mut AgentRng::seed_from_u64(1));
    // One reading for the start, then one before every descent: the
    // first descent is free, then 49 more while the clock is under 50 ms.
    assert_eq!(stats.iterations, 50);
    assert_eq!(visits(&stats), 50);
}

#[test]
fn a_decision_carries_its_search_and_a_callers_time_limit_cuts_it() {
    let state = position(2, 1);
    let view = state.view(state.to_play());
    let mut agent = agent("az:iterations=5", Arc::new(Uniform));
    let search = decide(&mut agent, &view, 1).search.expect("a search");
    assert_eq!(search.iterations, 5);
    assert_eq!(search.root_visits.iter().map(|x| x.1).sum::<u32>(), 5);
    assert!((-1.0..=1.0).contains(&search.value), "{}", search.value);
    // One reading for the start, one before every descent after the
    // first: 8 ms on a clock moving 1 ms per reading allow 8 of 500.
    let clock = Arc::new(TickClock::new(Duration::from_millis(1)));
    let mut agent = AzAgent::new("az".into(), config("az:iterations=500")).with_clock(clock);
    let mut rng = AgentRng::seed_from_u64(1);
    let cx = Context::new(&view, &mut rng).with_time_left(Duration::from_millis(8));
    let d = agent.decide(cx).unwrap();
    assert_eq!(d.search.expect("a search").iterations, 8);
}

/// The root's value is the mean of what its visits found (the training
/// target `search_value`); none when `lead=` blends the lead in.
#[test]
fn a_decision_carries_the_roots_mean_value_unless_the_lead_is_blended() {
    let state = position(2, 3);
    let view = state.view(state.to_play());
    let mut agent = agent("az:iterations=60", Arc::new(Meeples(1.0)));
    let search = decide(&mut agent, &view, 1).search.expect("a search");
    let root = search
        .root_value
        .expect("az's values are on the outcome's scale");
    let (weighted, visits) = search.root().fold((0.0, 0.0), |(t, n), (_, v, value)| {
        (t + f64::from(v) * value.unwrap().value, n + f64::from(v))
    });
    assert!((root - weighted / visits).abs() < 1e-12, "{root}");
    // The values differ by action (a meeple placed lowers it), and the
    // root's is not the chosen action's.
    assert!(root != 0.0 && (root - search.value).abs() > 1e-9, "{root}");
    let mut blended = AzAgent::new(
        "az".into(),
        AzConfig {
            evaluator: Arc::new(Meeples(1.0)),
            lead: 0.5,
            ..config("az:iterations=60")
        },
    );
    let search = decide(&mut blended, &view, 1).search.expect("a search");
    assert_eq!(search.root_value, None);
}

#[test]
fn noise_and_temperature_vary_the_move_but_repeat_for_a_seed() {
    let state = position(2, 4);
    let view = state.view(state.to_play());
    let spec = "az:iterations=40,noise=0.5,alpha=0.3,temp=1,temp_moves=100";
    let moves: Vec<Action> = (0..8)
        .map(|seed| decide(&mut agent(spec, Arc::new(Uniform)), &view, seed).action)
        .collect();
    let again: Vec<Action> = (0..8)
        .map(|seed| decide(&mut agent(spec, Arc::new(Uniform)), &view, seed).action)
        .collect();
    assert_eq!(moves, again);
    let mut distinct = moves.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() > 2, "{moves:?}");
    // Noise moves the root priors away from uniform.
    let stats = search("az:iterations=4,noise=0.5", Arc::new(Uniform), &state, 1);
    let p = stats.children[0].3;
    assert!(stats.children.iter().any(|c| (c.3 - p).abs() > 1e-3));
    let sum: f32 = stats.children.iter().map(|c| c.3).sum();
    assert!((sum - 1.0).abs() < 1e-3);
}

#[test]
fn the_evaluator_sees_only_legal_actions_and_the_seat_to_play() {
    /// Checks every request: the actions are the legal ones of the view.
    struct Strict(Mutex<usize>);
    impl Evaluator for Strict {
        fn evaluate(&self, batch: &[EvalRequest<'_>]) -> Vec<Evaluation> {
            for r in batch {
                let mut legal = Vec::new();
                r.view.for_each_action(|a| legal.push(a));
                assert_eq!(legal, r.actions);
                assert_eq!(r.view.seat(), r.view.to_play());
            }
            *self.0.lock().unwrap() += batch.len();
            Uniform.evaluate(batch)
        }
    }
    let rules = Rules {
        gifts: true,
        ..Rules::STANDARD
    };
    let state = random_play_until(3, rules, 3, |s| s.turns() >= 12);
    let strict = Arc::new(Strict(Mutex::new(0)));
    // Every leaf expanded at once: every request names its actions.
    let stats = search(
        "az:iterations=200,batch=4,expand=1",
        strict.clone(),
        &state,
        2,
    );
    assert_eq!(visits(&stats), 200);
    assert!(*strict.0.lock().unwrap() > 50);
}

#[test]
fn a_game_budget_is_kept_over_the_whole_game() {
    let clock = Arc::new(TickClock::new(Duration::from_millis(1)));
    let mut agent = AzAgent::new("az".into(), config("az:game_ms=600,batch=4")).with_clock(clock);
    let mut rng = AgentRng::seed_from_u64(4);
    let mut state = State::new(Rules::default(), 2, Seat(0));
    let mut moves = 0;
    while !state.is_over() {
        if state.is_chance() {
            state.apply_chance(&mut rng);
        } else if state.to_play() == Seat(0) {
            let view = state.view(Seat(0));
            let a = agent.decide(Context::new(&view, &mut rng)).unwrap().action;
            state.try_action(a).unwrap();
            moves += 1;
        } else {
            let mv = engine::random_move(&state, &mut rng).unwrap();
            state.play_unchecked(mv);
        }
    }
    // Each move may overrun its share by the readings around the search.
    let spent = agent.clock.game_spent();
    assert!(
        spent <= Duration::from_millis(600 + 3 * moves),
        "{spent:?} over {moves} moves"
    );
    assert!(spent >= Duration::from_millis(300), "{spent:?}");
    agent.reset();
    assert_eq!(agent.clock.game_spent(), Duration::ZERO);
}

#[test]
fn with_expand_2_a_leaf_is_valued_alone_before_it_is_expanded() {
    /// Counts requests with and without actions; those with actions
    /// must hold every legal action of the view.
    #[derive(Default)]
    struct Count {
        with_actions: AtomicUsize,
        alone: AtomicUsize,
    }
    impl Evaluator for Count {
        fn evaluate(&self, batch: &[EvalRequest<'_>]) -> Vec<Evaluation> {
            for r in batch {
                if r.actions.is_empty() {
                    self.alone.fetch_add(1, Ordering::SeqCst);
                } else {
                    let mut legal = Vec::new();
                    r.view.for_each_action(|a| legal.push(a));
                    assert_eq!(legal, r.actions);
                    self.with_actions.fetch_add(1, Ordering::SeqCst);
                }
            }
            Uniform.evaluate(batch)
        }
    }
    let gifts = Rules {
        gifts: true,
        ..Rules::STANDARD
    };
    for (rules, players) in [(Rules::default(), 2), (gifts, 3)] {
        let state = random_play_until(players, rules, 5, |s| s.turns() >= 10);
        let mut asked = Vec::new();
        for expand in [1, 2] {
            let spec = format!("az:iterations=300,batch=4,expand={expand}");
            let count = Arc::new(Count::default());
            let stats = search(&spec, count.clone(), &state, 3);
            assert_eq!(visits(&stats), 300, "{spec}");
            assert_eq!(stats, search(&spec, count.clone(), &state, 3), "{spec}");
            asked.push((
                count.with_actions.load(Ordering::SeqCst) / 2,
                count.alone.load(Ordering::SeqCst) / 2,
            ));
        }
        let ((with1, alone1), (with2, alone2)) = (asked[0], asked[1]);
        assert_eq!(alone1, 0);
        assert!(alone2 > 100, "{asked:?}");
        assert!(with2 * 2 < with1, "{asked:?}");
    }
}

#[test]
fn a_finished_game_is_valued_by_place_against_each_other_seat() {
    let mut places_seen = [false; 3];
    for seed in 0..40 {
        let mut rng = AgentRng::seed_from_u64(seed);
        let mut state = State::new(Rules::default(), 3, Seat(0));
        while !state.is_over() {
            if state.is_chance() {
                state.apply_chance(&mut rng);
            } else {
                let a = engine::random_action(&state, &mut rng).expect("a decision");
                state.play_action_unchecked(a);
            }
        }
        let totals: Vec<u32> = (0..3).map(|s| state.score(Seat(s)).total()).collect();
        let values = terminal_values(&state);
        for s in 0..3 {
            let ahead = (0..3).filter(|&o| totals[s] > totals[o]).count() as f64;
            let behind = (0..3).filter(|&o| totals[s] < totals[o]).count() as f64;
            assert_eq!(values[s], (ahead - behind) / 2.0, "totals {totals:?}");
            if ahead + behind == 2.0 {
                places_seen[2 - ahead as usize] = true;
            }
        }
        assert_eq!(&values[3..], &[0.0; engine::MAX_PLAYERS - 3]);
    }
    // first 1, second 0, last −1 all occurred (the middle place is not a loss)
    assert_eq!(places_seen, [true; 3]);
}

#[test]
fn the_gumbel_root_spends_exactly_its_budget_and_repeats_for_a_seed() {
    let state = position(2, 1);
    let legal = state.legal_actions();
    for (spec, n) in [
        ("az:root=gumbel,iterations=7", 7),
        ("az:root=gumbel,iterations=50,batch=3", 50),
        ("az:root=gumbel,iterations=64,gumbel_m=4,batch=8", 64),
        ("az:root=gumbel,iterations=33,gumbel_m=1", 33),
    ] {
        let stats = search(spec, Arc::new(Uniform), &state, 4);
        assert_eq!((stats.iterations, visits(&stats)), (n, n), "{spec}");
        let chosen = stats.chosen.expect("the halving's choice");
        // The improved policy: one share per legal action, summing to 1.
        assert_eq!(stats.improved.len(), legal.len(), "{spec}");
        let sum: f32 = stats.improved.iter().sum();
        assert!((sum - 1.0).abs() < 1e-4, "{spec}: {sum}");
        let mut actions: Vec<Action> = stats.children.iter().map(|c| c.0).collect();
        actions.sort_unstable();
        let mut sorted = legal.clone();
        sorted.sort_unstable();
        assert_eq!(actions, sorted, "{spec}");
        // A decision plays the halving's choice, its policy the improved one.
        let mut agent = agent(spec, Arc::new(Uniform));
        let d = decide(&mut agent, &state.view(state.to_play()), 4);
        let s = d.search.expect("a search");
        assert_eq!(d.action, stats.children[chosen].0, "{spec}");
        assert_eq!(s.policy.as_deref(), Some(&stats.improved[..]), "{spec}");
        assert!(s.full);
        let again = decide(&mut agent, &state.view(state.to_play()), 4);
        assert_eq!(again.action, d.action, "{spec}: the same seed");
        assert_eq!(search(spec, Arc::new(Uniform), &state, 4), stats, "{spec}");
    }
    // Another seed, other Gumbel draws: other moves.
    let moves: Vec<Action> = (0..8)
        .map(|seed| {
            let s = search(
                "az:root=gumbel,iterations=16",
                Arc::new(Uniform),
                &state,
                seed,
            );
            s.children[s.chosen.unwrap()].0
        })
        .collect();
    assert!(moves.iter().any(|&m| m != moves[0]), "{moves:?}");
}

#[test]
fn with_m_at_least_the_legal_actions_the_gumbel_root_tries_them_all() {
    let state = position(2, 2);
    let n = state.legal_actions().len();
    assert!((4..64).contains(&n), "{n}");
    let spec = format!("az:root=gumbel,gumbel_m=64,iterations={}", 4 * n);
    let stats = search(&spec, Arc::new(Uniform), &state, 1);
    assert!(stats.children.iter().all(|c| c.1 > 0), "{stats:?}");
    // With gumbel_m=2, two.
    let stats = search(
        "az:root=gumbel,gumbel_m=2,iterations=40",
        Arc::new(Uniform),
        &state,
        1,
    );
    assert_eq!(stats.children.iter().filter(|c| c.1 > 0).count(), 2);
    assert_eq!(visits(&stats), 40);
}

#[test]
fn the_gumbel_root_follows_values_and_a_strong_prior() {
    // Values: a move that keeps the meeples, or one that spends one.
    let state = random_play_until(2, Rules::default(), 5, |s| s.turns() >= 4);
    let seat = state.to_play();
    let supply_after = |action: Action| {
        let mut after = state.clone();
        after.play_action_unchecked(action);
        after.supply(seat)
    };
    let now = state.supply(seat);
    let view = state.view(seat);
    let spec = "az:root=gumbel,iterations=200";
    for seed in 0..3 {
        let keep = decide(&mut agent(spec, Arc::new(Meeples(1.0))), &view, seed).action;
        assert_eq!(supply_after(keep), now, "{keep:?}");
        let spend = decide(&mut agent(spec, Arc::new(Meeples(-1.0))), &view, seed).action;
        assert!(supply_after(spend) < now, "{spend:?}");
    }
    // A strong prior: its action, and most of the improved policy.
    let state = position(2, 1);
    let actions = state.legal_actions();
    let favourite = actions[actions.len() / 2 + 1];
    let fav: Arc<dyn Evaluator> = Arc::new(Favour::new(favourite, 0.9));
    let stats = search("az:root=gumbel,iterations=64", fav, &state, 7);
    let chosen = stats.chosen.unwrap();
    assert_eq!(stats.children[chosen].0, favourite);
    assert!(stats.improved[chosen] > 0.5, "{:?}", stats.improved);
}

#[test]
fn playout_caps_mark_fast_searches_and_repeat_for_a_seed() {
    let state = position(2, 3);
    let view = state.view(state.to_play());
    let spec = "az:iterations=40,cap_full=0.25,cap_fast=5";
    let mut agent = agent(spec, Arc::new(Uniform));
    let searches: Vec<SearchStats> = (0..40)
        .map(|seed| decide(&mut agent, &view, seed).search.expect("a search"))
        .collect();
    for s in &searches {
        // Full searches have the full budget, fast ones cap_fast.
        assert_eq!(s.iterations, if s.full { 40 } else { 5 }, "{s:?}");
    }
    let full = searches.iter().filter(|s| s.full).count();
    assert!((3..=20).contains(&full), "{full} of 40 full");
    let again: Vec<bool> = (0..40)
        .map(|seed| decide(&mut agent, &view, seed).search.unwrap().full)
        .collect();
    assert_eq!(again, searches.iter().map(|s| s.full).collect::<Vec<_>>());
    // Off by default: every search full.
    let mut plain = super::tests::agent("az:iterations=10", Arc::new(Uniform));
    assert!((0..10).all(|seed| decide(&mut plain, &view, seed).search.unwrap().full));
}
