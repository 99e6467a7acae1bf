//! The end-now scoring against the final scoring it replaced: the old
//! `finish` (award every meeple's feature through `meeples_on`, farms from
//! every occupied field's completed cities) run on a copy, kept here as the
//! reference.

use super::State;
use crate::features::SegmentId;
use crate::playout::random_action;
use crate::rules::Rules;
use crate::seat::{PerSeat, Score, Seat};
use crate::tiles::FeatureKind;
use crate::turn::Phase;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The pre-end-now `finish`, on a copy: the scores it leaves.
fn reference_finish(state: &State) -> PerSeat<Score> {
    let mut s = state.clone();
    if s.phase == Phase::Over {
        return s.scores;
    }
    let mut roots: Vec<SegmentId> = Vec::new();
    for i in 0..s.meeple_len as usize {
        let root = s.features.find(s.meeples[i].segment);
        if !roots.contains(&root) {
            roots.push(root);
        }
    }
    for root in roots {
        let kind = s.segment_kind(root);
        let points = match kind {
            FeatureKind::Field if !s.rules().farmers => continue,
            FeatureKind::Field => 3 * s.completed_cities_touching(root) as u16,
            _ => s.feature_value(root) as u16,
        };
        s.award(root, points, kind);
    }
    for seat in 0..s.players as usize {
        let unopened = s.gifts.hands[seat].total() as u16;
        s.scores[Seat(seat as u8)].gifts += 2 * unopened;
    }
    s.scores
}

/// Plays `games` random games under `rules` and checks at every decision,
/// and for a random action from it, that the end-now scores equal the
/// reference's. Returns the number of positions checked.
fn check_random_games(rules: Rules, games: u64) -> usize {
    let mut checked = 0;
    for seed in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let players = rng.gen_range(2..=5);
        let mut state = State::new(rules, players, Seat(0));
        while !state.is_over() {
            if state.is_chance() {
                state.apply_chance(&mut rng);
                continue;
            }
            assert_eq!(
                state.end_now_scores(),
                reference_finish(&state),
                "seed {seed}, turn {}",
                state.turns()
            );
            let action = random_action(&state, &mut rng).expect("a legal action");
            let mut after = state.clone();
            after.play_action_unchecked(action);
            assert_eq!(
                state.end_now_scores_after(action),
                reference_finish(&after),
                "seed {seed}, turn {}, after {action:?}",
                state.turns()
            );
            state = after;
            checked += 1;
        }
        // At the end, the end-now scores are the final scores.
        assert_eq!(state.end_now_scores(), state.scores, "seed {seed}");
    }
    checked
}

#[test]
fn end_now_scores_equal_the_old_finish_with_farmers() {
    let rules = Rules {
        farmers: true,
        ..Rules::default()
    };
    assert!(check_random_games(rules, 60) > 3000);
}

#[test]
fn end_now_scores_equal_the_old_finish_without_farmers() {
    let rules = Rules {
        farmers: false,
        ..Rules::default()
    };
    assert!(check_random_games(rules, 40) > 2000);
}

#[test]
fn end_now_scores_equal_the_old_finish_with_gifts_and_farmers() {
    #[allow(clippy::needless_update)] // more rules come with RULES.md §8
    let rules = Rules {
        farmers: true,
        gifts: true,
        ..Rules::default()
    };
    assert!(check_random_games(rules, 60) > 3000);
}

#[test]
fn end_now_scores_leave_the_state_unchanged() {
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let mut state = State::new(Rules::default(), 3, Seat(0));
    while !state.is_over() {
        if state.is_chance() {
            state.apply_chance(&mut rng);
            continue;
        }
        let before = state.clone();
        let _ = state.end_now_scores();
        let action = random_action(&state, &mut rng).expect("a legal action");
        let _ = state.end_now_scores_after(action);
        assert!(state == before);
        state.play_action_unchecked(action);
    }
}

/// Plays `games` random games under `rules` and checks, for every legal
/// action at every decision, that `end_now_scores_after` (no copy for
/// placements), alone and through one [`State::end_now`] shared by all
/// the actions, equals playing the action on a copy and scoring that.
/// Returns the number of actions checked.
fn check_every_action(rules: Rules, games: u64) -> usize {
    let mut checked = 0;
    for seed in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(1000 + seed);
        let players = rng.gen_range(2..=6);
        let mut state = State::new(rules, players, Seat(0));
        while !state.is_over() {
            if state.is_chance() {
                state.apply_chance(&mut rng);
                continue;
            }
            // One `EndNow` for all the actions: what it keeps between
            // them must not leak from one action into another.
            let mut end_now = state.end_now();
            assert_eq!(end_now.scores(), state.end_now_scores());
            // And one that values the held features only as the actions
            // change them.
            let mut lazy = state.end_now_lazy();
            let now = state.end_now_scores();
            state.for_each_action(|action| {
                let mut after = state.clone();
                after.play_action_unchecked(action);
                let expected = after.end_now_scores();
                assert_eq!(
                    state.end_now_scores_after(action),
                    expected,
                    "seed {seed}, turn {}, {action:?}",
                    state.turns()
                );
                assert_eq!(
                    end_now.after(action),
                    expected,
                    "shared, seed {seed}, turn {}, {action:?}",
                    state.turns()
                );
                let gain = lazy.gain(action);
                for (seat, &g) in gain.iter().enumerate() {
                    let (a, b) = (expected.0[seat].total(), now.0[seat].total());
                    assert_eq!(
                        g,
                        a as i32 - b as i32,
                        "gain, seed {seed}, turn {}, {action:?}, seat {seat}",
                        state.turns()
                    );
                }
                checked += 1;
            });
            let action = random_action(&state, &mut rng).expect("a legal action");
            assert_eq!(lazy.scores(), now);
            let mut after = state.clone();
            after.play_action_unchecked(action);
            assert_eq!(lazy.after(action), after.end_now_scores());
            state = after;
        }
    }
    checked
}

#[test]
fn end_now_after_every_action_equals_playing_it_on_a_copy() {
    let farmers = Rules {
        farmers: true,
        ..Rules::default()
    };
    assert!(check_every_action(farmers, 12) > 20_000);
    let no_farmers = Rules {
        farmers: false,
        ..Rules::default()
    };
    assert!(check_every_action(no_farmers, 6) > 10_000);
}

#[test]
fn end_now_after_every_action_equals_playing_it_on_a_copy_with_variants() {
    let gifts = Rules {
        farmers: true,
        gifts: true,
        ..Rules::default()
    };
    assert!(check_every_action(gifts, 8) > 10_000);
    let house = Rules {
        final_incomplete: false,
        hole_bonus: true,
        ..Rules::default()
    };
    assert!(check_every_action(house, 8) > 10_000);
}

/// Tables (whose border closes roads, cities and monasteries with
/// `table_closes`) and hands (placements from a hand slot): the overlay
/// must close and count as `put_tile` does.
#[test]
fn end_now_after_every_action_equals_playing_it_on_a_copy_on_tables_and_hands() {
    for text in [
        "table=5x5,table_closes=true",
        "table=7x5,table_closes=true,unplaceable=return",
        "hand=2",
        "hand=3,table=5x3,table_closes=true",
    ] {
        let rules: Rules = text.parse().expect(text);
        assert!(check_every_action(rules, 3) > 1_000, "{text}");
    }
}

/// Plays many short random lines from positions of random games, as a
/// search does, with one [`FieldCache`] started from each position, and
/// checks at every position of every line that the end-now scores and
/// every action's gain through the cache equal those without it.
/// Returns the number of actions checked.
fn check_field_cache(rules: Rules, games: u64) -> usize {
    use super::FieldCache;
    let mut checked = 0;
    let mut cache = FieldCache::new();
    for seed in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(2000 + seed);
        let players = rng.gen_range(2..=4);
        let mut start = State::new(rules, players, Seat(0));
        while !start.is_over() {
            if start.is_chance() {
                start.apply_chance(&mut rng);
                continue;
            }
            if rng.gen_range(0..6) == 0 {
                cache.start(&start);
                for _ in 0..6 {
                    cache.new_line();
                    let mut state = start.clone();
                    for _ in 0..12 {
                        if state.is_over() {
                            break;
                        }
                        if state.is_chance() {
                            state.apply_chance(&mut rng);
                            continue;
                        }
                        let now = state.end_now_scores();
                        assert_eq!(state.end_now_scores_in(&mut cache), now, "seed {seed}");
                        let mut plain = state.end_now_lazy();
                        let mut cached = state.end_now_lazy_in(&mut cache);
                        state.for_each_action(|action| {
                            assert_eq!(
                                cached.gain(action),
                                plain.gain(action),
                                "seed {seed}, turn {}, {action:?}",
                                state.turns()
                            );
                            checked += 1;
                        });
                        let action = random_action(&state, &mut rng).expect("a legal action");
                        state.play_action_unchecked(action);
                    }
                }
            }
            let action = random_action(&start, &mut rng).expect("a legal action");
            start.play_action_unchecked(action);
        }
    }
    checked
}

#[test]
fn field_cache_shared_by_the_lines_of_a_search_gives_the_same_scores() {
    assert!(check_field_cache(Rules::default(), 6) > 50_000);
    let gifts = Rules {
        gifts: true,
        ..Rules::default()
    };
    assert!(check_field_cache(gifts, 3) > 20_000);
}
